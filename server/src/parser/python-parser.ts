// Loads tree-sitter's WebAssembly runtime and the Python grammar. The same parser serves the editor and the CLI;
// no native build is involved, so it runs wherever Node (or Electron's Node) runs.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { wasmMemoryFor } from '../wasm-memory.js';

export interface PythonParser {
  /** Parses `text`; with `previous` (already edited to match `text`) tree-sitter reuses what did not change. */
  parse(text: string, previous?: Tree): Tree;
}

/** The .wasm files sit beside the bundle when shipped, and in node_modules when running from source. */
function locate(file: string, installed: () => string): string {
  const candidates = [join(__dirname, file)];
  try {
    candidates.push(installed());
  } catch {
    // not installed as a package: only the bundled copy can be used
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`cannot find ${file}; looked in ${candidates.join(', ')}`);
  return found;
}

let shared: Promise<PythonParser> | undefined;

export function loadPythonParser(): Promise<PythonParser> {
  shared ??= (async () => {
    const runtime = locate('web-tree-sitter.wasm', () => require.resolve('web-tree-sitter/web-tree-sitter.wasm'));
    // Under a cap on virtual memory, a memory whose maximum fits the cap (else emscripten's 2 GiB is reserved).
    const wasmMemory = wasmMemoryFor('parser');
    await Parser.init({ locateFile: () => runtime, ...(wasmMemory ? { wasmMemory } : {}) } as object);
    const language = await Language.load(locate('tree-sitter-python.wasm', () => join(dirname(require.resolve('tree-sitter-python/package.json')), 'tree-sitter-python.wasm')));
    const parser = new Parser();
    parser.setLanguage(language);
    return {
      parse(text: string, previous?: Tree): Tree {
        const tree = parser.parse(text, previous ?? null);
        if (!tree) throw new Error('tree-sitter returned no tree');
        return tree;
      },
    };
  })();
  return shared;
}
