// Coverage: for each library a file imports, whether the checker could judge it at the version the project pins,
// and if not, why and what would make it covered. Pure: the import roots, pins, catalog and the distribution names
// of imports arrive as arguments. The CLI's "not checked" lines, `anachron coverage`, the JSON report's coverage
// section and the editor's status item and automatic fetches all read this one answer.
import { rootIsVersioned, type LibraryMatrix, type MatrixCatalog } from './api-model.js';
import { versionsUnderPin } from './checker.js';
import { normalizeDistributionName } from './library-names.js';
import { describeOrigin, type Pin } from './pins.js';
import { compareVersions, placeVersion } from './versions.js';

export type CoverageState = 'checked' | 'inferred' | 'not-checked';

export type CoverageReason =
  /** Every version the pin allows is a column of the matrix. */
  | 'tracked'
  /** An exact pin between two tracked versions: judged where they agree. */
  | 'between-tracked'
  /** An exact pin below the first or above the last tracked version: no column vouches for it. */
  | 'outside-tracked'
  /** A range that allows none of the tracked versions. */
  | 'no-tracked-version-allowed'
  /** The distribution is pinned, but no matrix tracks it. */
  | 'no-matrix'
  /** A matrix tracks it, but nothing pins it for this file. */
  | 'unpinned';

export interface CoverageEntry {
  /** The import name ("pandas", "attr"). */
  library: string;
  /** Normalised distribution name. */
  distribution: string;
  /** "==2.0.3", ">=1.21,<2"; null when unpinned. */
  specifier: string | null;
  exactVersion: string | null;
  /** Where the pin is written ("requirements.txt:3", "interpreter /venv/bin/python"); null when unpinned. */
  pinSource: string | null;
  pinKind: Pin['kind'] | null;
  /** Versions the matrix tracks (ascending); empty without a matrix. */
  trackedVersions: string[];
  /** The versions the checker judged the code at. */
  checkedVersions: string[];
  /** For an exact pin the matrix does not track: the tracked versions either side of it (null past an end). */
  neighbours: { below: string | null; above: string | null } | null;
  state: CoverageState;
  reason: CoverageReason;
  /** What `anachron matrix fetch` takes to cover it ("pandas==2.0.3", "pandas>=2"); null when nothing would. */
  fetch: string | null;
  /**
   * The pin's environment marker, where the library has several pins that markers leave possible (the project's
   * Python range or platform decides nothing: core/pins.ts choosePins): one entry per such pin, each checked. Else null.
   */
  marker: string | null;
  /** With `marker`: what the marker depends on that the project leaves open ("python_version", "sys_platform"). */
  undecided: string[];
}

export interface CoverageInputs {
  /** The top-level modules the file imports. */
  importRoots: Iterable<string>;
  pins: ReadonlyMap<string, Pin>;
  catalog: MatrixCatalog;
  /**
   * The distributions (normalised) that may install a top-level module, for imports no matrix tracks: the library
   * files, distributions.toml, the columns fetched before, the rule that `-` becomes `_`.
   */
  distributionsOf(importRoot: string): readonly string[];
}

function fetchRequirement(distribution: string, pin: Pin): string | null {
  if (pin.exactVersion !== null) return `${distribution}==${pin.exactVersion}`;
  return pin.specifier ? `${distribution}${pin.specifier}` : null;
}

/** The pin and its alternatives (choosePins), each with the marker an entry shows. */
function pinsInForce(pin: Pin): { pin: Pin; marker: string | null; undecided: string[] }[] {
  const all = [pin, ...(pin.alternatives ?? [])];
  return all.map((p) => (all.length > 1 && p.marker ? { pin: p, marker: p.marker, undecided: p.undecided ?? [] } : { pin: p, marker: null, undecided: [] }));
}

function withMatrix(library: string, matrix: LibraryMatrix, pin: Pin | undefined, marker: { marker: string | null; undecided: string[] } = { marker: null, undecided: [] }): CoverageEntry {
  const distribution = normalizeDistributionName(matrix.distribution);
  const base = { library, distribution, trackedVersions: [...matrix.versions], neighbours: null, ...marker };
  if (!pin) return { ...base, specifier: null, exactVersion: null, pinSource: null, pinKind: null, checkedVersions: [], state: 'not-checked', reason: 'unpinned', fetch: null };
  const pinned = { specifier: pin.specifier, exactVersion: pin.exactVersion, pinSource: describeOrigin(pin.origin), pinKind: pin.kind ?? 'requirement' };
  const checkedVersions = versionsUnderPin(pin, matrix);
  if (pin.exactVersion !== null && !matrix.versionSeries) {
    const place = placeVersion(pin.exactVersion, matrix.versions);
    if (place.kind === 'exact') return { ...base, ...pinned, checkedVersions, state: 'checked', reason: 'tracked', fetch: null };
    const inside = place.below !== null && place.above !== null;
    const neighbours = { below: place.below === null ? null : matrix.versions[place.below]!, above: place.above === null ? null : matrix.versions[place.above]! };
    return { ...base, ...pinned, neighbours, checkedVersions, state: inside ? 'inferred' : 'not-checked', reason: inside ? 'between-tracked' : 'outside-tracked', fetch: fetchRequirement(distribution, pin) };
  }
  if (checkedVersions.length === 0) return { ...base, ...pinned, checkedVersions, state: 'not-checked', reason: pin.specifier ? 'no-tracked-version-allowed' : 'unpinned', fetch: fetchRequirement(distribution, pin) };
  return { ...base, ...pinned, checkedVersions, state: 'checked', reason: 'tracked', fetch: null };
}

/** One entry per imported library that is pinned or tracked, sorted by library name. */
export function coverageOf(inputs: CoverageInputs): CoverageEntry[] {
  const out = new Map<string, CoverageEntry>();
  for (const root of inputs.importRoots) {
    if (out.has(root) || root.startsWith('_') || root === '') continue;
    const matrix = inputs.catalog.forImportRoot(root);
    if (matrix) {
      const pin = inputs.pins.get(normalizeDistributionName(matrix.distribution));
      // A module of a matrix answering for many (Python's standard library) is that matrix's one entry, shown where
      // the project declares a Python: most projects declare none, and their stdlib imports are no library left out.
      if (rootIsVersioned(matrix, root)) {
        if (pin && !out.has(matrix.library)) out.set(matrix.library, withMatrix(matrix.library, matrix, pin));
        continue;
      }
      if (!pin) out.set(root, withMatrix(root, matrix, pin));
      else pinsInForce(pin).forEach(({ pin: p, ...marker }, i) => out.set(i === 0 ? root : `${root}\0${i}`, withMatrix(root, matrix, p, marker)));
      continue;
    }
    const distribution = inputs.distributionsOf(root).find((d) => inputs.pins.has(d));
    if (!distribution) continue; // the standard library, the project's own modules, or nothing anyone pins
    pinsInForce(inputs.pins.get(distribution)!).forEach(({ pin, marker, undecided }, i) => out.set(i === 0 ? root : `${root}\0${i}`, {
      library: root,
      distribution,
      specifier: pin.specifier,
      exactVersion: pin.exactVersion,
      pinSource: describeOrigin(pin.origin),
      pinKind: pin.kind ?? 'requirement',
      trackedVersions: [],
      checkedVersions: [],
      neighbours: null,
      state: 'not-checked',
      reason: 'no-matrix',
      fetch: pin.specifier ? fetchRequirement(distribution, pin) : null,
      marker,
      undecided,
    }));
  }
  return [...out.values()].sort((a, b) => (a.library < b.library ? -1 : a.library > b.library ? 1 : 0));
}

export interface FileCoverageEntry extends CoverageEntry {
  /** The files that import the library under this pin (as the caller names them). */
  files: string[];
}

/** The same library reached from several files under one pin is one entry, with the files: what a report shows. */
export function mergeCoverage(perFile: Iterable<{ file: string; entries: readonly CoverageEntry[] }>): FileCoverageEntry[] {
  const byKey = new Map<string, FileCoverageEntry>();
  for (const { file, entries } of perFile) {
    for (const e of entries) {
      const key = `${e.library}\0${e.specifier ?? ''}\0${e.pinSource ?? ''}`;
      const merged = byKey.get(key);
      if (!merged) byKey.set(key, { ...e, files: [file] });
      else if (!merged.files.includes(file)) merged.files.push(file);
    }
  }
  return [...byKey.values()].sort((a, b) => (a.library < b.library ? -1 : a.library > b.library ? 1 : 0) || compareVersions(a.exactVersion ?? '0', b.exactVersion ?? '0'));
}
