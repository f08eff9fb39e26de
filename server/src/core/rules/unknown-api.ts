// unknown-api: the API exists in no tracked version of the library: possibly hallucinated.
import type { FindingRule } from './rule.js';
import { trackedSpan, type VerdictBase, shownApi } from './verdict.js';

export interface UnknownApiVerdict extends VerdictBase {
  code: 'unknown-api';
}

export const unknownApi: FindingRule<'unknown-api', UnknownApiVerdict> = {
  code: 'unknown-api',
  name: 'UnknownApi',
  summary: 'API present in no tracked version of the library',
  description:
    'The API exists in no tracked version of the library: possibly a hallucinated or misspelled name. Members of ' +
    'classes the matrix does not list, private names and modules that failed to import are never reported.',
  defaultSeverity: 'warning',
  severityNote: 'warning',
  meaning: 'the API exists in no tracked version of the library: possibly hallucinated',
  fixes: ['use-replacement'],
  versionBound: false,
  severity: () => 'warning',
  message: (v) => `\`${shownApi(v.api)}\` is in no tracked version of ${v.matrix.library}: possibly hallucinated`,
  notes: (v) => [
    { text: `tracked: ${v.matrix.library} ${trackedSpan(v.matrix)}`, at: 'code' },
    ...(v.replacement ? [{ text: `did you mean \`${v.replacement}\`? ${v.replacement.split('.')[0]} has it`, at: 'code' as const }] : []),
  ],
  docs: {
    what: 'the code uses a name under a library module that no tracked version of the library has ever had.',
    why: 'this is the signature of a hallucinated API (`np.linalg.fast_inverse`): it fails in every version.',
    severity: `warning. It is only reported where the parent module's surface is fully known (the module imported in
every tracked version; private names, class members and instance attributes are never reported).`,
    example: { code: 'inverse = np.linalg.fast_inverse(m)   # numpy.linalg.fast_inverse is in no tracked version of numpy' },
    fix: `look the API up (\`npx anachron history numpy.linalg.inv\`) and use one that exists. Where another tracked
library has the name at the same place (\`np.linalg.pinvh\` -> \`scipy.linalg.pinvh\`), the finding asks "did you mean"
and the quick fix uses it (importing its module when the file does not).
Silence one line with \`# anachron: ignore[unknown-api]\`.`,
  },
};
