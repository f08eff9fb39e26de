// deprecated-parameter: the keyword is accepted at the pinned version, but the library deprecates it there.
import type { FindingRule } from './rule.js';
import { deprecationEnd, deprecationNotes, type DeprecationVerdict } from './deprecation.js';
import { shownApi } from './verdict.js';

export interface DeprecatedParameterVerdict extends DeprecationVerdict {
  code: 'deprecated-parameter';
}

export const deprecatedParameter: FindingRule<'deprecated-parameter', DeprecatedParameterVerdict> = {
  code: 'deprecated-parameter',
  name: 'DeprecatedParameter',
  summary: 'Keyword argument deprecated at the pinned library version',
  description:
    'The call passes a keyword the API accepts at the version the project pins, but which the library deprecates ' +
    'there (it warns when the keyword is given, or its documentation marks the parameter deprecated).',
  defaultSeverity: 'information',
  severityNote: 'information',
  meaning: 'the keyword works at the pin, but the library deprecates it there',
  versionBound: false,
  fixes: ['rename-keyword'],
  severity: () => 'information',
  message: (v) => `\`${shownApi(v.api)}(${v.parameter}=)\` is deprecated${deprecationEnd(v)}`,
  notes: deprecationNotes,
  docs: {
    what: `a call passes a keyword that the pinned version accepts but deprecates: the function warns with a
\`DeprecationWarning\` when it is given (\`if newshape is not np._NoValue: warnings.warn(…)\`), or the parameter's
entry in the docstring carries a \`.. deprecated::\` directive (directives about values or combinations of a
parameter, "passing booleans is deprecated", are not read as the parameter's).`,
    why: `the call works today and fails or changes meaning at an upgrade; the message names the first tracked version
whose signature no longer takes the keyword, when one does.`,
    severity: 'information.',
    example: {
      context: '`requirements.txt`: `numpy==2.2.4`',
      code: `import numpy as np
b = np.reshape(a, newshape=(2, 3))   # \`numpy.reshape(newshape=)\` is deprecated (pinned 2.2.4)`,
    },
    fix: `pass the keyword the library names instead (quick fix: *use \`shape=\`*), or drop it where it has no effect.
Silence one line with \`# anachron: ignore[deprecated-parameter]\`.`,
  },
};
