// anachronistic-syntax: the file uses syntax a Python version the project allows cannot parse.
import type { SyntaxFeature } from '../python/syntax-features.js';
import { SYNTAX_FEATURES } from '../python/syntax-features.js';
import { describeOrigin } from '../pin.js';
import type { FindingRule } from './rule.js';
import { pinnedAs, pinText, trackedRuns, type VerdictBase } from './verdict.js';

export interface AnachronisticSyntaxVerdict extends VerdictBase {
  code: 'anachronistic-syntax';
  feature: SyntaxFeature;
  /** The Python versions the pin allows that cannot parse the construct. */
  lacking: string[];
}

const constructs = Object.values(SYNTAX_FEATURES)
  .map((f) => `| \`${f.id}\` | ${f.title} | ${f.since} | ${f.pep} |`)
  .join('\n');

export const anachronisticSyntax: FindingRule<'anachronistic-syntax', AnachronisticSyntaxVerdict> = {
  code: 'anachronistic-syntax',
  name: 'AnachronisticSyntax',
  summary: 'Syntax newer than a Python version the project allows',
  description:
    'The file uses a construct (a match statement, except*, a type statement, a t-string …) that a Python version ' +
    'the project allows cannot parse: the whole file fails with SyntaxError there, before any guard can run.',
  defaultSeverity: 'error',
  severityNote: 'error',
  meaning: 'the file uses syntax newer than a Python version the project allows (`match` under `requires-python >=3.9`)',
  fixes: ['raise-pin'],
  versionBound: true,
  severity: () => 'error',
  message: (v) => `${v.feature.title} needs Python ≥ ${v.feature.since} (${pinnedAs(v.pin)})`,
  notes: (v) => {
    const runs = trackedRuns(v.matrix, v.lacking) || v.lacking.join(', ');
    const where = v.pin.origin.line !== null ? `${describeOrigin(v.pin.origin)} allows ${pinText(v.pin, v.matrix)}` : `${pinText(v.pin, v.matrix)} (${describeOrigin(v.pin.origin)})`;
    return [
      { text: where, at: 'pin' },
      { text: `${v.feature.title} (${v.feature.pep}) is Python ${v.feature.since} syntax: Python ${runs} ${v.feature.older ?? 'cannot parse this file'}`, at: 'code' },
    ];
  },
  docs: {
    what: `the file uses syntax that a Python version the project allows cannot parse: a \`match\` statement under
\`requires-python = ">=3.9"\`, \`except*\` under \`>=3.10\`, a \`type\` statement under \`>=3.11\`.`,
    why: `unlike a missing API, nothing can guard it. The interpreter compiles the whole file first, so it fails with
\`SyntaxError\` before any \`if sys.version_info >= …\` or \`try:\` runs: every import of the module breaks.`,
    severity: `error. Checked only where the project pins Python (docs/pins.md: \`requires-python\`, \`python_requires\`,
Poetry's \`python\`, conda's \`python=\`, \`.python-version\`, the selected interpreter): the versions the pin allows are
compared with the version that introduced the construct. The constructs (the finding's \`api\` is the id):

| id | construct | since | PEP |
|---|---|---|---|
${constructs}

Parenthesised context managers are documented from 3.10, but 3.9's parser already runs them: 3.9 is the first
Python they work on. Without \`as\` (\`with (a, b):\`) 3.8 parses them as one tuple, which fails when the \`with\` runs.
A \`"\` inside a triple-quoted f-string's braces (\`f"""{d["k"]}"""\`) parses before 3.12 as well.`,
    example: {
      context: '`pyproject.toml`: `requires-python = ">=3.9"`',
      code: `match command:      # \`match\` statement (PEP 634) is Python 3.10 syntax: Python 3.9 cannot parse this file …
    case "go": ...`,
    },
    fix: `rewrite the construct in the older syntax (\`if\`/\`elif\` for \`match\`, \`TypeVar\` for type parameters, plain
string building for t-strings), or raise the project's lowest Python (\`requires-python = ">=3.10"\`; the quick fix
raises the bound). \`anachron min-versions\` reports the lowest Python the code's syntax and APIs allow. Silence one
line with \`# anachron: ignore[anachronistic-syntax]\`.`,
  },
};
