// The per-version API surface that python-probe writes ("anachron-surface/1"), and reading it from disk.
import type { ApiKind, Parameter, SignatureSource } from '../core/api-model.js';
import { InputError } from '../core/errors.js';
import { readJsonFile } from './json-file.js';

export interface SurfaceSignature {
  parameters: Parameter[];
  returns?: string | null;
  source: SignatureSource;
}

export interface SurfaceApi {
  path: string;
  kind: ApiKind;
  defined_in?: string | null;
  signature: SurfaceSignature | null;
  doc: string | null;
  /** In the module's __all__ (or public by the probe's rules when there is none); absent in older surfaces. */
  exported?: boolean;
  /** Another path of the same class, under which its members are recorded (alias-members.ts). */
  members_at?: string;
}

export interface Surface {
  schema: 'anachron-surface/1';
  library: string;
  version: string;
  python?: string;
  provenance?: Record<string, string>;
  modules: { name: string; imported: boolean }[];
  apis: SurfaceApi[];
  errors: { module?: string; error: string }[];
  /** The library's own note on each name it removed (numpy's __expired_attributes__ …), by public path. */
  removal_notes?: Record<string, string>;
  /** Modules that exist on some of the Pythons the release supports only (static extraction), with why. */
  python_conditional?: Record<string, string>;
  /** Paths only some platforms have, with the platforms that do ("linux, darwin"): typeshed's sys.platform branches. */
  platform_specific?: Record<string, string>;
  /** The version stands for a release series: Python's "3.12" is every 3.12.x. */
  version_series?: boolean;
  /** "union": at a version with a runtime surface too, the builder takes a path either has (union-evidence.ts). */
  merge_with_runtime?: 'union';
}

const API_KINDS = new Set<ApiKind>(['module', 'class', 'function', 'method', 'property', 'attribute']);
const PARAM_KINDS = new Set(['positional_only', 'positional_or_keyword', 'var_positional', 'keyword_only', 'var_keyword']);

/** Validates the parts the builder relies on, so a corrupt file fails with its name and the reason. */
export function validateSurface(value: unknown, file: string): Surface {
  const fail = (why: string): never => {
    throw new InputError(`${file}: not an anachron surface: ${why}`);
  };
  if (typeof value !== 'object' || value === null) fail('top level is not an object');
  const s = value as Partial<Surface>;
  if (s.schema !== 'anachron-surface/1') fail(`schema is ${JSON.stringify(s.schema)}, expected "anachron-surface/1"`);
  if (typeof s.library !== 'string' || typeof s.version !== 'string') fail('library/version missing');
  if (!Array.isArray(s.apis)) fail('apis is not an array');
  s.apis!.forEach((api, i) => {
    if (typeof api?.path !== 'string' || !API_KINDS.has(api.kind)) fail(`apis[${i}] has no path or an unknown kind`);
    for (const p of api.signature?.parameters ?? []) {
      if (typeof p.name !== 'string' || !PARAM_KINDS.has(p.kind)) fail(`apis[${i}] (${api.path}) has a malformed parameter`);
      if (p.keywords !== undefined && (p.kind !== 'var_keyword' || !Array.isArray(p.keywords) || p.keywords.some((k) => typeof k !== 'string'))) {
        fail(`apis[${i}] (${api.path}) parameter ${p.name}: keywords is not a list of names on a **kwargs`);
      }
    }
  });
  if (s.removal_notes !== undefined && (typeof s.removal_notes !== 'object' || s.removal_notes === null || Object.values(s.removal_notes).some((n) => typeof n !== 'string'))) {
    fail('removal_notes is not an object of strings');
  }
  if (s.merge_with_runtime !== undefined && s.merge_with_runtime !== 'union') fail(`merge_with_runtime is ${JSON.stringify(s.merge_with_runtime)}, expected "union"`);
  for (const field of ['python_conditional', 'platform_specific'] as const) {
    const v = s[field];
    if (v !== undefined && (typeof v !== 'object' || v === null || Object.values(v).some((n) => typeof n !== 'string'))) fail(`${field} is not an object of strings`);
  }
  return { ...s, modules: s.modules ?? [], errors: s.errors ?? [] } as Surface;
}

export function readSurfaceFile(file: string): Surface {
  return validateSurface(readJsonFile(file), file);
}
