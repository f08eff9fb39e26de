// unconfirmed-api: the pinned version is untracked and the tracked versions around it disagree about the API, or its
// module could not be introspected at that version.
import type { StateAtVersion } from '../version-state.js';
import type { FindingRule } from './rule.js';
import { pinDetail, versionList, type VerdictBase } from './verdict.js';

export interface UnconfirmedApiVerdict extends VerdictBase {
  code: 'unconfirmed-api';
  /** The pinned versions in doubt: their neighbours disagree, or (none) the module failed to import. */
  doubtful: StateAtVersion[];
}

function why(v: UnconfirmedApiVerdict): string {
  const first = v.doubtful[0]!;
  return first.neighbours.length > 0
    ? `the tracked versions around it disagree (${first.neighbours.map((c) => `${c.state} in ${c.version}`).join(', ')})`
    : 'its module could not be introspected in that version';
}

export const unconfirmedApi: FindingRule<'unconfirmed-api', UnconfirmedApiVerdict> = {
  code: 'unconfirmed-api',
  name: 'UnconfirmedApi',
  summary: 'API cannot be confirmed at the pinned library version',
  description:
    'The pinned version is not tracked and the tracked versions around it disagree about the API, or its module ' +
    'could not be introspected at that version.',
  defaultSeverity: 'information',
  severityNote: 'information',
  meaning: 'the pinned version is untracked and the tracked versions around it disagree, or the module could not be introspected there',
  fixes: [],
  versionBound: false,
  severity: () => 'information',
  message: (v) => `Cannot confirm \`${v.api}\` at ${versionList(v.doubtful, v.matrix)}: ${why(v)}`,
  notes: (v) => [{ text: pinDetail(v.pin, v.matrix, v.doubtful), at: 'pin' }],
  docs: {
    what: `the pinned version is not tracked and the tracked versions around it disagree about the API (present in
one, absent in the other), or the API's module could not be introspected in the pinned version.`,
    why: 'the API may or may not exist at your pin; anachron does not guess.',
    severity: 'information.',
    example: {
      context: 'tracked numpy 1.24.2 and 2.2.4; `requirements.txt`: `numpy==1.26.4`',
      code: 'np.trapezoid(y)   # cannot confirm numpy.trapezoid at numpy 1.26.4: absent in 1.24.2, present in 2.2.4',
    },
    fix: `add the pinned version to the matrix (\`npx anachron matrix add numpy==1.26.4 --python .venv/bin/python\`), or
pin a tracked version.`,
  },
};
