// How a snippet of Python names a library's APIs: the bindings its import statements make (line-based, parentheses
// supported), and the expression that names an API through them. Used by the reference models of both suites to
// write code in the snippet's own terms. Pure.
import { leafName, parentPath } from '../../core/api-path.js';

export interface ImportBinding {
  /** The local name the code uses. */
  local: string;
  /** The library path it stands for. */
  target: string;
  /** `from X import *`: members of target are bound under their own names. */
  star?: boolean;
}

/** Import statements of the snippet that bind names into `library` (simple line-based reading, parentheses supported). */
export function importBindings(code: string, library: string): ImportBinding[] {
  const out: ImportBinding[] = [];
  // `from x import (a,\n b)` onto one line.
  const joined = code.replace(/(\bfrom\s+[\w.]+\s+import\s*)\(([^)]*)\)/g, (_m: string, head: string, inner: string) => head + inner.replace(/\s*\n\s*/g, ' '));
  const inLibrary = (mod: string) => mod === library || mod.startsWith(library + '.');
  for (const rawLine of joined.split('\n')) {
    const line = rawLine.replace(/#.*$/, '').trim();
    let m = /^import\s+(.+)$/.exec(line);
    if (m) {
      for (const part of m[1]!.split(',')) {
        const p = /^([\w.]+)(?:\s+as\s+(\w+))?$/.exec(part.trim());
        if (!p || !inLibrary(p[1]!)) continue;
        if (p[2]) out.push({ local: p[2], target: p[1]! });
        else out.push({ local: p[1]!.split('.')[0]!, target: p[1]!.split('.')[0]! });
      }
      continue;
    }
    m = /^from\s+([\w.]+)\s+import\s+(.+)$/.exec(line);
    if (m && inLibrary(m[1]!)) {
      for (const part of m[2]!.replace(/[()]/g, '').split(',')) {
        const p = /^(\w+|\*)(?:\s+as\s+(\w+))?$/.exec(part.trim());
        if (!p) continue;
        if (p[1] === '*') out.push({ local: '*', target: m[1]!, star: true });
        else out.push({ local: p[2] ?? p[1]!, target: `${m[1]}.${p[1]}` });
      }
    }
  }
  return out;
}

/** How the code would name `api`: through the binding whose target is the longest prefix of it, else fully qualified. */
export function calleeExpression(api: string, bindings: readonly ImportBinding[]): string {
  let best: ImportBinding | undefined;
  for (const b of bindings) {
    if (b.star) {
      if (parentPath(api) === b.target && (!best || b.target.length > best.target.length)) best = b;
      continue;
    }
    if ((api === b.target || api.startsWith(b.target + '.')) && (!best || b.target.length > best.target.length)) best = b;
  }
  if (!best) return api;
  if (best.star) return leafName(api);
  return best.local + api.slice(best.target.length);
}
