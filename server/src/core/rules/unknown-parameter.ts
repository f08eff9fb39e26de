// unknown-parameter: no tracked version of the callable accepts the keyword.
import type { FindingRule } from './rule.js';
import { trackedSpan, type VerdictBase, shownApi } from './verdict.js';

export interface UnknownParameterVerdict extends VerdictBase {
  code: 'unknown-parameter';
  parameter: string;
}

export const unknownParameter: FindingRule<'unknown-parameter', UnknownParameterVerdict> = {
  code: 'unknown-parameter',
  name: 'UnknownParameter',
  summary: 'Keyword argument accepted by no tracked library version',
  description:
    'No tracked version of the callable accepts the keyword. Only reported when the signature was read from the ' +
    'real callable or from a type stub.',
  defaultSeverity: 'warning',
  severityNote: 'warning',
  meaning: 'no tracked version accepts the keyword (only reported when the signature came from the real callable or a stub)',
  fixes: ['drop-keyword'],
  versionBound: false,
  severity: () => 'warning',
  message: (v) => `\`${shownApi(v.api)}\` takes no keyword \`${v.parameter}\` in any tracked version of ${v.matrix.library}`,
  notes: (v) => [{ text: `tracked: ${v.matrix.library} ${trackedSpan(v.matrix)}`, at: 'code' }],
  docs: {
    what: 'a call passes a keyword argument that no tracked version of the API accepts.',
    why: 'a typo or a hallucinated parameter (`equal_nans=`): it fails in every version.',
    severity: `warning; only reported when the pinned signature comes from the real callable or a shipped stub (never
from a docstring), and never for callees that take \`**kwargs\`.`,
    fix: 'use a parameter the API has (`npx anachron history API` lists its signature per version).',
  },
};
