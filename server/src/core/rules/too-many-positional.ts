// too-many-positional: a call passes more positional arguments than the pinned signature takes.
import type { FindingRule } from './rule.js';
import { availableNote, lackingPinNote, PINNED_VERSIONS_LACK, pinnedAs, plural, shownApi, versionList, type LackingVerdict } from './verdict.js';

export interface TooManyPositionalVerdict extends LackingVerdict {
  code: 'too-many-positional';
  /** The most the first pinned version that takes fewer takes, and how many the call passes. */
  limit: number;
  given: number;
}

export const tooManyPositional: FindingRule<'too-many-positional', TooManyPositionalVerdict> = {
  code: 'too-many-positional',
  name: 'TooManyPositional',
  summary: 'More positional arguments than the pinned library version accepts',
  description:
    'The call passes more positional arguments than the signature takes at the version (or versions) the project ' +
    'pins; some tracked version may accept them. The call will fail with TypeError at that version.',
  ...PINNED_VERSIONS_LACK,
  severityNote: 'error (warning when inferred)',
  meaning: 'the call passes more positional arguments than the pinned signature takes, and another tracked version takes that many',
  fixes: ['raise-pin'],
  message: (v) => `\`${shownApi(v.api)}\` takes at most ${plural(v.limit, 'positional argument')} in ${versionList(v.lacking, v.matrix)}, not ${v.given} (${pinnedAs(v.pin)})`,
  notes: (v) => [lackingPinNote(v), availableNote(v, `${v.given} accepted by`)],
  docs: {
    what: 'a call passes more positional arguments than the pinned signature takes.',
    why: 'the call raises `TypeError: … takes N positional arguments but M were given` at the pin.',
    severity: `error when the pinned version is tracked (warning when inferred). Only reported when another tracked
version takes that many (a signature that grew): C callables such as numpy's ufuncs accept positional outputs their
recorded signatures do not show, so "no version takes that many" is left to a type checker. Calls with \`*args\`
unpacking and methods reached through their class (which take the instance explicitly) are not counted.`,
    fix: 'pass the extra arguments by keyword where the pinned version has them, or drop them.',
  },
};
