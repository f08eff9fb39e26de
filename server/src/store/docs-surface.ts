// The documented surface of one library version ("anachron-docs/1"): the public APIs its documentation sources
// list at a release tag. It is the "documented" evidence bit of the matrix.
import { InputError } from '../core/errors.js';
import { readJsonFile } from './json-file.js';

export interface DocsSurface {
  schema: 'anachron-docs/1';
  library: string;
  version: string;
  provenance?: Record<string, string>;
  /** Fully qualified public paths, sorted. */
  documented: string[];
  errors?: { file?: string; error: string }[];
}

export function readDocsSurfaceFile(file: string): DocsSurface {
  const d = readJsonFile(file) as Partial<DocsSurface>;
  if (d?.schema !== 'anachron-docs/1' || typeof d.library !== 'string' || typeof d.version !== 'string' || !Array.isArray(d.documented)) {
    throw new InputError(`${file}: not an anachron docs surface (schema anachron-docs/1 with library, version, documented[])`);
  }
  return d as DocsSurface;
}
