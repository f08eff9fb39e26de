// Pins: which version of which library a project says it uses, where it says so, and which pin wins when several
// sources state one. The manifest formats themselves are read by core/manifests/.
import { parseRequirementsFile } from './manifests/requirements-txt.js';
import { exactVersionOf, parseRequirement } from './manifests/requirement.js';
import type { ParsedManifest, Pin } from './pin.js';
import { DEFAULT_PRECEDENCE, type PrecedenceStep } from './settings.js';
import { evaluateMarker, markerAcross, parseMarker, PYTHON_3_MINORS, type MarkerEnvironment, type MarkerNode } from './markers.js';
import { seriesAllowedBy, seriesNamedBy, seriesSatisfies } from './version-series.js';

export { exactVersionOf, parseRequirement };
export { describeOrigin, type ManifestInclude, type ManifestProblem, type ParsedManifest, type Pin, type PinKind, type PinOrigin } from './pin.js';

/**
 * Reads a pip requirements file. Options (-r, -c, --index-url, …), editable and URL/path requirements are not
 * version pins and are skipped; `--hash` options after a requirement are dropped. A line that cannot be read
 * becomes a problem and the rest of the file still counts. (core/manifests reports the -r/-c includes too.)
 */
export function parseRequirementsTxt(text: string, file: string): ParsedManifest {
  const { pins, problems } = parseRequirementsFile(text, file);
  return { pins, problems };
}

/** Pins given on the command line as LIB==VERSION (or any PEP 508 requirement). */
export function parseCommandLinePin(text: string): Pin | { error: string } {
  return parseRequirement(text, { file: 'command line', line: null });
}

/** The precedence step a pin falls under: its kind, and for requirements how much the specifier says. */
export function precedenceStepOf(pin: Pin): PrecedenceStep {
  switch (pin.kind) {
    case 'lock':
    case 'installed':
    case 'assumed':
      return pin.kind;
    default:
      return pin.exactVersion !== null ? 'exact' : pin.specifier !== '' ? 'range' : 'bare';
  }
}

/**
 * The full order of steps for a (possibly partial) precedence list: the steps listed, in that order, then those
 * left out, in the default order.
 */
export function completePrecedence(precedence: readonly PrecedenceStep[] = DEFAULT_PRECEDENCE): PrecedenceStep[] {
  const listed = precedence.filter((s, i) => DEFAULT_PRECEDENCE.includes(s) && precedence.indexOf(s) === i);
  return [...listed, ...DEFAULT_PRECEDENCE.filter((s) => !listed.includes(s))];
}

export interface ChosenPins {
  /** The winning pin per distribution. */
  pins: Map<string, Pin>;
  /** Every pin per distribution, the winner first, then the others in the order they would win. */
  candidates: Map<string, Pin[]>;
}

/** The distribution that pins Python (PYTHON_DISTRIBUTION of manifests/python-pins.ts, which imports this module's types). */
const PYTHON = 'python';

/**
 * The environments a project may run in, as far as markers can tell them apart: each Python minor its Python pin
 * allows (with the exact release where the pin names one), or every Python 3 minor when nothing pins Python.
 */
export function markerEnvironments(python: Pin | undefined): MarkerEnvironment[] {
  const all = () => PYTHON_3_MINORS.map((m) => ({ pythonVersion: m, pythonFullVersion: null }));
  if (!python || python.specifier === '') return all();
  if (python.exactVersion !== null) {
    const m = /^(\d+)\.(\d+)(\.\d+)?/.exec(python.exactVersion);
    if (m) return [{ pythonVersion: `${m[1]}.${m[2]}`, pythonFullVersion: m[3] !== undefined ? python.exactVersion : null }];
  }
  const allowed = seriesAllowedBy(python.specifier, PYTHON_3_MINORS);
  const minors = allowed.length > 0 ? allowed : seriesNamedBy(python.specifier).filter((s) => seriesSatisfies(s, python.specifier));
  return minors.length > 0 ? minors.map((m) => ({ pythonVersion: m, pythonFullVersion: null })) : all();
}

/** Per marker text: its tree, or null when it is not PEP 508 (then it may apply anywhere). */
const parsedMarkers = new Map<string, MarkerNode | null>();

function markerTree(marker: string): MarkerNode | null {
  let tree = parsedMarkers.get(marker);
  if (tree === undefined) {
    const got = parseMarker(marker);
    tree = 'error' in got ? null : got;
    if (parsedMarkers.size > 10_000) parsedMarkers.clear();
    parsedMarkers.set(marker, tree);
  }
  return tree;
}

/** Whether the pin applies in the environment: true without a marker, undecided for one that cannot be read. */
function appliesIn(pin: Pin, env: MarkerEnvironment): boolean | 'undecided' {
  if (!pin.marker) return true;
  const tree = markerTree(pin.marker);
  return tree ? evaluateMarker(tree, env).value : 'undecided';
}

/** What a pin's marker leaves open across the environments; null where it decides (or there is no marker). */
function undecidedOn(pin: Pin, envs: readonly MarkerEnvironment[]): string[] | null {
  if (!pin.marker) return null;
  const tree = markerTree(pin.marker);
  if (!tree) return ['marker'];
  const got = markerAcross(tree, envs);
  return got.value === 'undecided' ? got.on : null;
}

/** Whether the pin's marker holds in every environment given. */
function holdsEverywhere(pin: Pin, envs: readonly MarkerEnvironment[]): boolean {
  const tree = pin.marker ? markerTree(pin.marker) : null;
  return tree !== null && markerAcross(tree, envs).value === true;
}

/**
 * The pins of one distribution (sorted by precedence) that may be in force: in each environment, the first whose
 * marker holds, and before it those whose marker is undecided there. Markers false everywhere drop their pin.
 */
function inForce(list: readonly Pin[], envs: readonly MarkerEnvironment[]): Pin[] {
  if (!list.some((p) => p.marker)) return list.length > 0 ? [list[0]!] : [];
  const possible = new Set<Pin>();
  for (const env of envs) {
    for (const pin of list) {
      const applies = appliesIn(pin, env);
      if (applies === false) continue;
      possible.add(pin);
      if (applies === true) break;
    }
  }
  return list.filter((p) => possible.has(p));
}

/**
 * Chooses one pin per distribution from pins given in source order (the fixed file order, then the order within
 * each file): the pin on the highest precedence step wins, and on a tie the one given first. Environment markers
 * are evaluated against the project's Python (its chosen Python pin; markerEnvironments): a pin whose marker holds
 * in no environment the project allows is not in force; where markers leave several pins possible (the Python
 * range decides nothing, or the marker is about the platform), the first is the winner and the others are its
 * `alternatives`, each marked `undecided` with what its marker depends on.
 */
export function choosePins(pins: Iterable<Pin>, precedence?: readonly PrecedenceStep[]): ChosenPins {
  const order = completePrecedence(precedence);
  const rank = (p: Pin) => order.indexOf(precedenceStepOf(p));
  const candidates = new Map<string, Pin[]>();
  for (const pin of pins) {
    const list = candidates.get(pin.distribution);
    if (list) list.push(pin);
    else candidates.set(pin.distribution, [pin]);
  }
  for (const list of candidates.values()) list.sort((a, b) => rank(a) - rank(b)); // stable: ties keep source order
  // Python first, markers aside (they are about Python): its pin is the environment everything else's markers see.
  const python = candidates.get(PYTHON)?.[0];
  const envs = markerEnvironments(python);
  const chosen = new Map<string, Pin>();
  for (const [name, sorted] of candidates) {
    const possible = name === PYTHON ? sorted.slice(0, 1) : inForce(sorted, envs);
    const list = possible.length === sorted.length ? sorted : [...possible, ...sorted.filter((p) => !possible.includes(p))];
    candidates.set(name, list);
    if (possible.length === 0) continue; // every pin's marker is false for the project's Python
    const winner = possible[0]!;
    const always = (p: Pin) => !p.marker || (name !== PYTHON && holdsEverywhere(p, envs));
    // Several unconditional ranges in one requirements file (`numpy>=1.20` and `numpy<2` on two lines): pip installs a version
    // that satisfies all of them, so they count as one range, their intersection. Entries with markers that may not
    // hold are alternatives for different environments, not constraints on one.
    const ranges = winner.exactVersion === null && winner.specifier !== '' && always(winner)
      ? sorted.filter((p) => p.exactVersion === null && p.specifier !== '' && rank(p) === rank(winner) && p.origin.file === winner.origin.file && /\.(txt|in)$/.test(p.origin.file) && always(p))
      : [];
    const decided = (p: Pin): Pin => {
      const on = name === PYTHON ? null : undecidedOn(p, envs);
      return on ? { ...p, undecided: on } : p;
    };
    const best: Pin = ranges.length > 1 ? { ...winner, specifier: ranges.map((p) => p.specifier.trim()).join(',') } : winner;
    const seen = new Set([best.specifier]);
    const alternatives: Pin[] = [];
    for (const p of possible.slice(1)) {
      if (ranges.includes(p) || seen.has(p.specifier)) continue;
      seen.add(p.specifier);
      alternatives.push(decided(p));
    }
    // A pin alone is in force wherever it applies; only side by side do undecided markers need saying.
    chosen.set(name, alternatives.length > 0 ? { ...decided(best), alternatives } : best);
  }
  return { pins: chosen, candidates };
}
