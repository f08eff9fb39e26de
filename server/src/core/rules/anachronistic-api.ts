// anachronistic-api: the API exists in some tracked version of the library, not in the version(s) the project pins.
import type { Alternative } from '../replacements.js';
import { compareVersions, isValidVersion } from '../versions.js';
import type { FindingRule } from './rule.js';
import type { FindingNote } from './rule.js';
import { availableNote, betweenVersions, lackingPinNote, PINNED_VERSIONS_LACK, pinnedAs, shownApi, versionList, whenAvailable, type LackingVerdict } from './verdict.js';

export interface AnachronisticApiVerdict extends LackingVerdict {
  code: 'anachronistic-api';
  /** Around the first missing version: the tracked versions between which the API was added, or removed. */
  added: [string, string] | null;
  removed: [string, string] | null;
  alternative: Alternative;
}

function lifecycle(v: AnachronisticApiVerdict): string {
  const notes: string[] = [];
  if (v.added) notes.push(`added ${betweenVersions(v.matrix, v.added)}`);
  if (v.removed) notes.push(`removed ${betweenVersions(v.matrix, v.removed)}`);
  return notes.length ? ` (${notes.join('; ')})` : '';
}

function advice(v: AnachronisticApiVerdict): FindingNote[] {
  const { replacement, basis, note } = v.alternative;
  if (basis === 'documentation') return [{ text: `use \`${replacement}\`, which has the same documentation`, at: 'code' }];
  if (basis === 'older-spelling') return [{ text: `use \`${replacement}\`, its name at ${versionList(v.lacking, v.matrix)}`, at: 'code' }];
  if (note) return [...(replacement ? [{ text: `use \`${shownApi(replacement)}\``, at: 'code' as const }] : []), { text: `${v.matrix.library}'s note on the removal: “${note.note}”`, at: 'code' }];
  return [];
}

export const anachronisticApi: FindingRule<'anachronistic-api', AnachronisticApiVerdict> = {
  code: 'anachronistic-api',
  name: 'AnachronisticApi',
  summary: 'API missing from the pinned library version',
  description:
    'The API exists in some tracked version of the library, but not in the version (or versions) the project pins. ' +
    'The code will fail with AttributeError or ImportError at that version. Reported as a warning when the pinned ' +
    'version is untracked and the state was inferred from the tracked versions around it.',
  ...PINNED_VERSIONS_LACK,
  severityNote: 'error (warning when inferred between or beyond tracked versions)',
  meaning: 'the API exists in some tracked version, not in the pinned one',
  fixes: ['use-replacement', 'raise-pin'],
  message: (v) => `\`${shownApi(v.api)}\` ${whenAvailable(v) ?? `is not in ${versionList(v.lacking, v.matrix)}`} (${pinnedAs(v.pin)})`,
  notes: (v) => {
    const history = availableNote(v);
    return [lackingPinNote(v), { ...history, text: history.text + lifecycle(v) }, ...advice(v)];
  },
  isRemoval: (f) => f.availableIn.length > 0 && isValidVersion(f.pin) && f.availableIn.every((v) => compareVersions(v, f.pin) < 0),
  docs: {
    what: `the code uses an API that exists in some tracked version of the library, but not in the version (or one of
the versions) the project pins. It was either added after the pinned version or removed before it.`,
    why: `the line fails at run time with \`AttributeError\`/\`ImportError\` in the environment the project
actually uses. Code models produce these constantly: they write for the version they saw most, not the one you pin.`,
    severity: `error when the pinned version is tracked; warning when it is inferred (between two tracked versions that
agree, or outside the tracked span). Removed APIs carry the *deprecated* tag in the editor.`,
    example: {
      context: '`requirements.txt`: `numpy==1.24.2`',
      code: `import numpy as np
area = np.trapezoid(samples)   # numpy.trapezoid needs numpy ≥ 2.0 (pinned 1.24.2)`,
    },
    fix: `use the version-correct API (the finding and the quick fix name it when the matrices reveal one: an API with
the same documentation that exists at the pin, e.g. \`np.trapz\`), guard the call (\`if hasattr(np, "trapezoid")\`,
\`try/except AttributeError\`), or raise the pin (quick fix: *raise the pin to the lowest version that has it*).
Silence one line with \`# anachron: ignore[anachronistic-api]\`.`,
  },
};
