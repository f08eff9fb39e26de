// How deep a YAML text's flow collections ([…] and {…}) nest, read in one pass outside quotes and comments. The YAML
// reader recurses on that nesting: 12,000 levels took it seconds before it overflowed the stack, so an environment
// file nested past a cap is a problem at once instead of a parse.

/** Where the nesting first passes `cap` (a 1-based line), or undefined where it never does. */
export function flowNestingPastCap(text: string, cap: number): number | undefined {
  let depth = 0;
  let line = 1;
  let quote: string | null = null;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      line++;
      comment = false;
      continue;
    }
    if (comment) continue;
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) comment = true;
    else if (c === '[' || c === '{') {
      if (++depth > cap) return line;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}
