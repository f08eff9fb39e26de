// Pins: which version of which library a project says it uses, where it says so, and which pin wins when several
// sources state one. The manifest formats themselves are read by core/manifests/.
import { parseRequirementsFile } from './manifests/requirements-txt.js';
import { exactVersionOf, parseRequirement } from './manifests/requirement.js';
import type { ParsedManifest, Pin } from './pin.js';
import { DEFAULT_PRECEDENCE, type PrecedenceStep } from './settings.js';

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

/**
 * Chooses one pin per distribution from pins given in source order (the fixed file order, then the order within
 * each file): the pin on the highest precedence step wins, and on a tie the one given first.
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
  const chosen = new Map<string, Pin>();
  for (const [name, list] of candidates) {
    list.sort((a, b) => rank(a) - rank(b)); // stable: ties keep source order
    const winner = list[0]!;
    // Several unconditional ranges in one requirements file (`numpy>=1.20` and `numpy<2` on two lines): pip installs a version
    // that satisfies all of them, so they count as one range, their intersection. Entries with markers are
    // alternatives for different environments, not constraints on one.
    const ranges = winner.exactVersion === null && winner.specifier !== ''
      ? list.filter((p) => p.exactVersion === null && p.specifier !== '' && rank(p) === rank(winner) && p.origin.file === winner.origin.file && /\.(txt|in)$/.test(p.origin.file) && !p.marker && !winner.marker)
      : [];
    chosen.set(name, ranges.length > 1 ? { ...winner, specifier: ranges.map((p) => p.specifier.trim()).join(',') } : winner);
  }
  return { pins: chosen, candidates };
}
