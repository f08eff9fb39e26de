// anachronistic-parameter: the keyword is accepted by some tracked version of the callable, not by the pinned one(s).
import type { FindingRule } from './rule.js';
import { availableNote, lackingPinNote, PINNED_VERSIONS_LACK, pinnedAs, shownApi, versionList, whenAvailable, type LackingVerdict } from './verdict.js';

export interface AnachronisticParameterVerdict extends LackingVerdict {
  code: 'anachronistic-parameter';
  parameter: string;
}

export const anachronisticParameter: FindingRule<'anachronistic-parameter', AnachronisticParameterVerdict> = {
  code: 'anachronistic-parameter',
  name: 'AnachronisticParameter',
  summary: 'Keyword argument not accepted by the pinned library version',
  description:
    'The keyword is accepted by some tracked version of the callable, but not by the version (or versions) the ' +
    'project pins. The call will fail with TypeError at that version.',
  ...PINNED_VERSIONS_LACK,
  severityNote: 'error',
  meaning: 'the keyword is accepted by some tracked version, not by the pinned one',
  fixes: ['drop-keyword', 'raise-pin'],
  message: (v) => {
    const when = whenAvailable(v);
    return when ? `\`${shownApi(v.api)}(${v.parameter}=)\` ${when} (${pinnedAs(v.pin)})` : `\`${shownApi(v.api)}\` takes no keyword \`${v.parameter}\` in ${versionList(v.lacking, v.matrix)} (${pinnedAs(v.pin)})`;
  },
  notes: (v) => [lackingPinNote(v), availableNote(v, `accepted by`)],
  docs: {
    what: 'a call passes a keyword argument that the API accepts in some tracked version, but not in the pinned one.',
    why: 'the call raises `TypeError: … got an unexpected keyword argument` at the pin.',
    severity: 'error when the pinned version is tracked; warning when inferred.',
    example: {
      context: '`numpy==1.19.5`',
      code: 'np.unique(values, equal_nan=False)   # `numpy.unique(equal_nan=)` needs numpy ≥ 1.23 (pinned 1.19.5)',
    },
    fix: `drop the keyword (quick fix), use what the pinned version offers, or raise the pin.
Callees that accept \`**kwargs\` never get this finding.`,
  },
};
