// What one library version deprecates ("anachron-deprecations/1"), read by python-probe/deprecations.py from the
// release's own deprecation machinery (DeprecationWarning paths, deprecation decorators, `.. deprecated::`
// directives, __deprecated_attrs__ tables, module __getattr__ shims) and joined to its surface's public paths.
import { InputError } from '../core/errors.js';
import { readJsonFile } from './json-file.js';

export type DeprecationEvidence = 'warning' | 'decorator' | 'directive' | 'table' | 'getattr' | 'module';

export interface SurfaceDeprecation {
  path: string;
  /** The keyword deprecated, for a parameter; null for the API itself. */
  parameter: string | null;
  /** The module's members are deprecated (a `__getattr__` that warns for every name it serves), not the module. */
  members?: boolean;
  evidence: DeprecationEvidence;
  /** The library's own words (the warning's text, the directive's), when it has any. */
  message: string | null;
  /** Where in the release's tree: "numpy/lib/_function_base_impl.py:5095". */
  source: string;
}

export interface DeprecationsSurface {
  schema: 'anachron-deprecations/1';
  library: string;
  version: string;
  provenance?: Record<string, string>;
  deprecations: SurfaceDeprecation[];
}

const EVIDENCE = new Set<string>(['warning', 'decorator', 'directive', 'table', 'getattr', 'module']);

export function readDeprecationsSurfaceFile(file: string): DeprecationsSurface {
  const d = readJsonFile(file) as Partial<DeprecationsSurface>;
  if (d?.schema !== 'anachron-deprecations/1' || typeof d.library !== 'string' || typeof d.version !== 'string' || !Array.isArray(d.deprecations)) {
    throw new InputError(`${file}: not an anachron deprecations surface (schema anachron-deprecations/1 with library, version, deprecations[])`);
  }
  d.deprecations.forEach((x, i) => {
    if (typeof x?.path !== 'string' || (x.parameter !== null && typeof x.parameter !== 'string') || !EVIDENCE.has(x.evidence) || typeof x.source !== 'string') {
      throw new InputError(`${file}: deprecations[${i}] needs path, parameter (string or null), evidence and source`);
    }
  });
  return d as DeprecationsSurface;
}
