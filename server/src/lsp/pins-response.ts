// The anachron/pins answer (the status item and the pins view) as data from what the server knows about a file: its
// pins, the manifests they came from, what the editor's settings overrode, and which imports the matrices cover.
import { isAbsolute, join } from 'node:path';
import { versionsUnderPin } from '../core/checker.js';
import type { LibraryMatrix } from '../core/api-model.js';
import type { CoverageEntry } from '../core/coverage.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { describeOrigin, type Pin } from '../core/pins.js';
import { pathToUri } from '../workspace/file-uri.js';
import type { ManifestPins } from '../workspace/manifests.js';
import type { EditorPins } from './editor-settings.js';
import type { PinInfo, PinsResult } from './protocol.js';

/** The versions the checker checks the pin at (core/checker.ts); without a matrix, only an exact version. */
export function checkedVersions(pin: Pin, matrix: LibraryMatrix | undefined): string[] {
  if (matrix) return versionsUnderPin(pin, matrix);
  return pin.exactVersion !== null ? [pin.exactVersion] : [];
}

export interface PinsFacts {
  file: string;
  /** The pins in force (the analysis context's, editor settings applied). */
  pins: Iterable<Pin>;
  manifest: ManifestPins;
  /** The folder the manifests' relative origins are relative to. */
  base: string;
  /** What the editor's settings changed about the manifests' pins, if anything. */
  editor: EditorPins | undefined;
  /** The catalog's libraries. */
  libraries: readonly LibraryMatrix[];
  coverage: CoverageEntry[];
  /** Manifests a search of the project found that pin a library (absolute paths, best first). */
  manifestCandidates: string[];
}

export function pinsResponse(facts: PinsFacts): PinsResult {
  const { manifest, libraries } = facts;
  const candidates = facts.editor?.candidates ?? manifest.candidates;
  const matrixOf = (distribution: string) => libraries.find((m) => normalizeDistributionName(m.distribution) === distribution);
  const pins = [...facts.pins]
    .map((pin) => pinInfo(pin, matrixOf(pin.distribution), facts.base, candidates.get(pin.distribution) ?? []))
    .sort((a, b) => Number(b.library !== null) - Number(a.library !== null) || (a.distribution < b.distribution ? -1 : 1));
  const pinned = new Set(pins.map((p) => p.distribution));
  const found = manifest.found;
  return {
    file: facts.file,
    pins,
    manifests: manifest.manifests.map((m) => pathToUri(m)),
    settingsFile: manifest.settingsFile ? pathToUri(manifest.settingsFile) : null,
    manifestsOff: facts.editor?.manifestsOff ?? [],
    problems: manifest.problems.map((p) => `${p.file}:${p.line}: ${p.message}`),
    unpinned: libraries.filter((m) => !pinned.has(normalizeDistributionName(m.distribution))).map((m) => m.library),
    coverage: facts.coverage,
    found: found ? { how: found.how, chosen: found.chosen.map((p) => pathToUri(p)), candidates: found.candidates.map((p) => pathToUri(p)), ambiguous: found.ambiguous } : null,
    manifestCandidates: facts.manifestCandidates.map((p) => pathToUri(p)),
  };
}

/** One pin as the pins view shows it; `stated` is every pin stated for its distribution, the winner first. */
function pinInfo(pin: Pin, matrix: LibraryMatrix | undefined, base: string, stated: readonly Pin[]): PinInfo {
  const fromFile = pin.origin.line !== null;
  const absolute = isAbsolute(pin.origin.file) ? pin.origin.file : join(base, pin.origin.file);
  return {
    distribution: pin.distribution,
    library: matrix?.library ?? null,
    specifier: pin.specifier,
    exactVersion: pin.exactVersion,
    kind: pin.kind ?? 'requirement',
    origin: describeOrigin(pin.origin),
    originUri: fromFile ? pathToUri(absolute) : null,
    originLine: fromFile ? pin.origin.line! - 1 : null,
    trackedVersions: [...(matrix?.versions ?? [])],
    checkedVersions: checkedVersions(pin, matrix),
    overridden: stated.slice(1).map((p) => `${p.distribution}${p.specifier} (${describeOrigin(p.origin)})`),
  };
}
