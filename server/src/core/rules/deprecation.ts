// What the two deprecation codes share: their verdict and the clause that says where, since when, until when, and
// what the library says to use instead. Pure.
import type { StateAtVersion } from '../version-state.js';
import type { FindingNote } from './rule.js';
import { pinDetail, pinnedAs, type VerdictBase } from './verdict.js';

export interface DeprecationVerdict extends VerdictBase {
  /** The pinned versions at which it is deprecated. */
  deprecated: StateAtVersion[];
  /** The first tracked version of the run that deprecates it. */
  since: string;
  /** The first tracked version after the pin that no longer has it (or no longer takes the keyword). */
  removedIn: string | null;
  /** How the library says so, and where. */
  evidence: string;
  source: string;
  /** The library's own words, condensed. */
  note: string | null;
  /** Set when the deprecation is of every member of this module (numpy.core in numpy 2). */
  membersOf: string | null;
}

const EVIDENCE: Record<string, string> = {
  warning: 'it raises a DeprecationWarning',
  decorator: 'a deprecation decorator wraps it',
  directive: 'its documentation says so',
  table: 'its module lists it as deprecated',
  getattr: 'its module warns for every name it serves',
  module: 'the module warns when imported',
};

/** How the short message ends: ", gone in numpy 2.4.6 (pinned 2.2.4)". */
export function deprecationEnd(v: DeprecationVerdict): string {
  return `${v.removedIn ? `, gone in ${v.matrix.library} ${v.removedIn}` : ''} (${pinnedAs(v.pin)})`;
}

/** The notes of a deprecation: the pin, how the library says so and since when, what to use instead, its own words. */
export function deprecationNotes(v: DeprecationVerdict): FindingNote[] {
  const lib = v.matrix.library;
  const how = v.membersOf ? `\`${v.membersOf}\` warns for every name it serves` : (EVIDENCE[v.evidence] ?? v.evidence);
  const since = v.since === v.matrix.versions[0] ? `from ${v.since}, the first tracked version, on` : `from ${v.since} on`;
  const removal = v.removedIn ? `; ${lib} ${v.removedIn} no longer ${v.parameter ? 'takes it' : 'has it'}` : '';
  return [
    { text: pinDetail(v.pin, v.matrix, v.deprecated), at: 'pin' },
    { text: `${how}, ${v.source}; deprecated ${since}${removal}`, at: 'code' },
    ...(v.replacement ? [{ text: `use \`${v.parameter ? `${v.replacement}=` : v.replacement}\``, at: 'code' as const }] : []),
    ...(v.note ? [{ text: `${lib}: “${v.note}”`, at: 'code' as const }] : []),
  ];
}
