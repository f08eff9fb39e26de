// The layout the suites' prompts share: a section is "Name:" on a line of its own followed by a fenced block, whose
// fence is longer than any run of backticks in it, so that it can hold anything (code, Markdown, tracebacks). Pure.

/** `content` in a fence longer than any backtick run in it, with `info` after the opening fence. */
export function fence(content: string, info: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${content}\n${ticks}`;
}

/** The sections of `lines` from `start` on, by name; `unclosed` names a section whose fence never closes. */
export function readSections(lines: readonly string[], start: number): { sections: Map<string, string>; unclosed: string | null } {
  const sections = new Map<string, string>();
  let i = start;
  while (i < lines.length) {
    const title = /^([A-Z][A-Za-z ]*):$/.exec(lines[i]!);
    const open = lines[i + 1] !== undefined ? /^(`{3,})([A-Za-z]*)$/.exec(lines[i + 1]!) : null;
    if (!title || !open) {
      i++;
      continue;
    }
    let j = i + 2;
    while (j < lines.length && lines[j] !== open[1]) j++;
    if (j >= lines.length) return { sections, unclosed: title[1]! };
    sections.set(title[1]!, lines.slice(i + 2, j).join('\n'));
    i = j + 1;
  }
  return { sections, unclosed: null };
}
