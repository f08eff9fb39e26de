// deprecated-api: the API works at the pinned version, but the library itself deprecates it there.
import type { FindingRule } from './rule.js';
import { deprecationEnd, deprecationNotes, type DeprecationVerdict } from './deprecation.js';
import { shownApi } from './verdict.js';

export interface DeprecatedApiVerdict extends DeprecationVerdict {
  code: 'deprecated-api';
}

export const deprecatedApi: FindingRule<'deprecated-api', DeprecatedApiVerdict> = {
  code: 'deprecated-api',
  name: 'DeprecatedApi',
  summary: 'API deprecated at the pinned library version',
  description:
    'The API exists at the version the project pins, but the library deprecates it there: it warns when used ' +
    '(DeprecationWarning), a deprecation decorator wraps it, or its documentation says so. The message names the ' +
    'tracked version that no longer has it, when one does, and the replacement the library points to.',
  defaultSeverity: 'information',
  severityNote: 'information',
  meaning: 'the API works at the pin, but the library deprecates it there',
  versionBound: false,
  fixes: ['use-replacement'],
  severity: () => 'information',
  message: (v) => `\`${shownApi(v.api)}\` is deprecated${deprecationEnd(v)}`,
  notes: deprecationNotes,
  isRemoval: () => true,
  docs: {
    what: `the code uses an API that exists at the pinned version, but which the library itself deprecates there. The
evidence is the library's own deprecation machinery at that release: a \`DeprecationWarning\` the function always
raises, a deprecation decorator, a \`.. deprecated::\` directive in its docstring, a table of deprecated names
(numpy's \`__deprecated_attrs__\`), or a module that warns for every name it serves (numpy 2's \`numpy.core\`).`,
    why: `the code works today and breaks at an upgrade: the message names the first tracked version that no longer
has the API, when the matrices know one, so you can plan the migration before bumping the pin
(\`anachron check --upgrade-to LIB==VERSION\` lists what the code would break and what would warn at the version
you mean to move to, with the fixes).`,
    severity: `information. Guarded code (\`try/except\`, \`hasattr\`, version checks) is not reported.`,
    example: {
      context: '`requirements.txt`: `numpy==2.2.4`',
      code: `import numpy as np
area = np.trapz(samples)   # \`numpy.trapz\` is deprecated, gone in numpy 2.4.6 (pinned 2.2.4)`,
    },
    fix: `use the replacement the library names (quick fix: *use \`numpy.trapezoid\`* when it exists at the pin), or
silence one line with \`# anachron: ignore[deprecated-api]\` (or turn the code off in \`anachron.severity\`).`,
  },
};
