// A compiled callable's argument parser, read from the C sources by static extraction (signature source 'parser':
// python-probe/anachron_probe/static/cparsers.py), is the list of keywords it takes; the runtime probe of the same
// release sees only the callable's docstring or __text_signature__, which often leave keywords out (numpy 1.24's
// dtype(..., metadata=)). At a version with both surfaces, the runtime's record of such a path takes the parser's
// signature; its presence, kind and everything else stay the runtime's.
import type { Surface } from './surface.js';

const CALLABLE = new Set(['class', 'function', 'method']);

export function withParserSignatures(runtime: Surface, fromStatic: Surface | undefined): Surface {
  if (!fromStatic) return runtime;
  const parsed = new Map(fromStatic.apis.filter((a) => a.signature?.source === 'parser').map((a) => [a.path, a.signature!] as const));
  if (parsed.size === 0) return runtime;
  let replaced = 0;
  const apis = runtime.apis.map((a) => {
    const signature = parsed.get(a.path);
    if (!signature || !CALLABLE.has(a.kind)) return a;
    replaced++;
    return { ...a, signature };
  });
  return replaced === 0 ? runtime : { ...runtime, apis };
}
