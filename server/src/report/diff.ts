// Which lines a change added or modified, read from `git diff --unified=0` output. Pure: text in, line sets out.

/** 1-based inclusive line ranges in the new version of a file, ascending and non-overlapping. */
export type LineRanges = [number, number][];

/** Added lines per file path (as the diff names it, relative to the repository root, "/" separators). */
export type ChangedLines = Map<string, LineRanges>;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** Undoes git's C-style quoting of a path ("a\"b", "\303\274"); an unquoted path comes back as it is. */
export function unquoteGitPath(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const body = text.slice(1, -1);
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      bytes.push(parseInt(octal, 8));
      i += octal.length;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path of a `+++ ` line: null for /dev/null (a deletion); without the "b/" prefix and the tab git adds after names with spaces. */
function newPath(header: string): string | null {
  let text = header.slice(4);
  if (text.endsWith('\t')) text = text.slice(0, -1);
  if (text === '/dev/null') return null;
  const path = unquoteGitPath(text);
  return path.startsWith('b/') ? path.slice(2) : path;
}

function addRange(ranges: LineRanges, start: number, end: number): void {
  const last = ranges[ranges.length - 1];
  if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
  else ranges.push([start, end]);
}

/**
 * Reads a unified diff as `git diff --unified=0 --src-prefix=a/ --dst-prefix=b/` writes it. Files with no added
 * lines (deletions, pure renames, mode changes, binary files) do not appear. Hunk bodies are consumed by their
 * counts, so an added line that reads "++ x" is never mistaken for a header.
 */
export function parseChangedLines(diff: string): ChangedLines {
  const changed: ChangedLines = new Map();
  const lines = diff.split('\n');
  let path: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('diff ')) {
      path = null;
      continue;
    }
    if (line.startsWith('+++ ')) {
      path = newPath(line);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (!hunk) continue;
    let oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    let newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
    const start = Number(hunk[3]);
    if (path !== null && newLeft > 0) {
      const ranges = changed.get(path) ?? [];
      addRange(ranges, start, start + newLeft - 1);
      changed.set(path, ranges);
    }
    // Skip the hunk's body.
    while ((oldLeft > 0 || newLeft > 0) && i + 1 < lines.length) {
      const body = lines[i + 1]!;
      if (body.startsWith('-')) oldLeft--;
      else if (body.startsWith('+')) newLeft--;
      else if (body.startsWith(' ')) {
        oldLeft--;
        newLeft--;
      } else if (!body.startsWith('\\')) break;
      i++;
    }
  }
  return changed;
}

/** True when any line from `startLine` to `endLine` (1-based, inclusive) is in `ranges`. */
export function touchesLines(ranges: LineRanges | undefined, startLine: number, endLine = startLine): boolean {
  if (!ranges) return false;
  return ranges.some(([a, b]) => a <= endLine && startLine <= b);
}
