// The top-level modules a Python file imports (`import a.b`, `from a.b import c`; relative imports stay inside the
// project and are no references): what coverage asks the matrices and pins about, read from the file's references.
import type { ChunkReferences } from './link-references.js';
import type { ApiReference } from './references.js';

export function importRootsOf(references: readonly ApiReference[]): string[] {
  const roots = new Set<string>();
  for (const ref of references) {
    if (ref.origin !== 'import') continue;
    const root = ref.prefixes[0]?.path.split('.')[0];
    if (root) roots.add(root);
  }
  return [...roots].sort();
}

/** The same from a file's chunk-wise references (FileSyntax.referenceChunks), without placing them. */
export function importRootsOfChunks(chunks: readonly ChunkReferences[]): string[] {
  return importRootsOf(chunks.flatMap((c) => [...c.refs.imports, ...c.refs.fromImports]));
}
