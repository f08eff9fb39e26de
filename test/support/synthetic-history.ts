// A synthetic history: a small library history written by hand (test/fixtures/matrices/*.synthetic.json) for the
// fixtures about a mechanism no real matrix is cut for yet, such as the deprecation tier. It goes through the same
// path as a release's surfaces: per version a runtime surface (signatures read by inspect) and, where the history
// says so, a deprecations surface (anachron-deprecations/1), built by the real matrix builder.
//
//   { "schema": "anachron-synthetic-history/1", "library": "deplib", "versions": ["1.0", "1.1", "2.0"],
//     "apis": [{ "path": "deplib.trapz", "spans": [[0, 1, "function", [{ "name": "y", "kind": "positional_or_keyword", "default": null }]]] }],
//     "deprecations": [{ "path": "deplib.trapz", "parameter": null, "versions": [1, 1], "evidence": "warning",
//                        "message": "`trapz` is deprecated, use `trapezoid`", "source": "deplib/core.py:12" }] }
//
// A span is [first version index, last version index, kind, parameters or null, and optionally where the signature
// was read: 'inspect' (the default), 'docstring', 'stub', 'static' or 'parser']; an API is absent outside its spans.
// An API may carry a `doc` (its documentation summary, the same at every version it is present at), and the history
// `removalNotes`: the library's own note on a name it removed, recorded at a version (its index), as numpy's
// __expired_attributes__ are: { "path": "deplib.float", "version": 1, "note": "use `float` by itself" }.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKind, Parameter, SignatureSource } from '../../server/src/core/api-model.js';
import type { DeprecationEvidence, DeprecationsSurface, SurfaceDeprecation } from '../../server/src/store/deprecations-surface.js';
import { buildMatrix } from '../../server/src/store/matrix-builder.js';
import type { Surface, SurfaceApi } from '../../server/src/store/surface.js';
import type { VersionEvidence } from '../../server/src/store/version-evidence.js';

export const SYNTHETIC_SCHEMA = 'anachron-synthetic-history/1';

export interface SyntheticHistory {
  schema: typeof SYNTHETIC_SCHEMA;
  library: string;
  /** What the history is written to exercise. */
  purpose: string;
  versions: string[];
  apis: { path: string; doc?: string; spans: ([number, number, ApiKind, Parameter[] | null] | [number, number, ApiKind, Parameter[] | null, SignatureSource])[] }[];
  removalNotes?: { path: string; version: number; note: string }[];
  deprecations: { path: string; parameter: string | null; members?: boolean; versions: [number, number]; evidence: DeprecationEvidence; message: string | null; source: string }[];
}

export function readSyntheticHistory(file: string): SyntheticHistory {
  const s = JSON.parse(readFileSync(file, 'utf8')) as SyntheticHistory;
  if (s.schema !== SYNTHETIC_SCHEMA) throw new Error(`${file}: not a synthetic history (${String(s.schema)})`);
  const inRange = ([a, b]: readonly number[]) => Number.isInteger(a) && Number.isInteger(b) && 0 <= a! && a! <= b! && b! < s.versions.length;
  for (const a of s.apis) for (const span of a.spans) if (!inRange([span[0], span[1]])) throw new Error(`${file}: ${a.path}: span ${JSON.stringify(span.slice(0, 2))} outside the versions`);
  for (const d of s.deprecations) if (!inRange(d.versions)) throw new Error(`${file}: deprecation of ${d.path}: versions ${JSON.stringify(d.versions)} outside the versions`);
  for (const n of s.removalNotes ?? []) if (!inRange([n.version, n.version])) throw new Error(`${file}: removal note of ${n.path}: version ${n.version} outside the versions`);
  return s;
}

/** Per version: a runtime surface of the APIs present there, and the deprecations recorded there (if any). */
export function evidenceOfSynthetic(s: SyntheticHistory): VersionEvidence[] {
  return s.versions.map((version, i) => {
    const apis: SurfaceApi[] = [];
    for (const a of s.apis) {
      const span = a.spans.find(([first, last]) => first <= i && i <= last);
      if (!span) continue;
      const [, , kind, parameters, source = 'inspect'] = span;
      apis.push({ path: a.path, kind, signature: parameters ? { parameters, source, returns: null } : null, doc: a.doc ?? null });
    }
    const provenance = { source: 'synthetic', history: `test/fixtures/matrices/${s.library}.synthetic.json` };
    const notes = (s.removalNotes ?? []).filter((n) => n.version === i);
    const runtime: Surface = {
      schema: 'anachron-surface/1',
      library: s.library,
      version,
      provenance,
      modules: apis.filter((a) => a.kind === 'module').map((a) => ({ name: a.path, imported: true })),
      apis,
      errors: [],
      ...(notes.length > 0 ? { removal_notes: Object.fromEntries(notes.map((n) => [n.path, n.note])) } : {}),
    };
    const here: SurfaceDeprecation[] = s.deprecations
      .filter((d) => d.versions[0] <= i && i <= d.versions[1])
      .map((d) => ({ path: d.path, parameter: d.parameter, ...(d.members ? { members: true } : {}), evidence: d.evidence, message: d.message, source: d.source }));
    const deprecations: DeprecationsSurface = { schema: 'anachron-deprecations/1', library: s.library, version, provenance, deprecations: here };
    return { version, runtime, ...(here.length > 0 ? { deprecations } : {}) };
  });
}

/** Builds `<tmp>/<library>.sqlite` for each synthetic history and returns the folder. */
export function buildHistoryMatrices(...histories: SyntheticHistory[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-synthetic-'));
  for (const s of histories) buildMatrix(evidenceOfSynthetic(s), join(dir, `${s.library}.sqlite`), { builtAt: '2026-01-01', distribution: s.library });
  return dir;
}
