// Every finding code, in the order reports list them. Adding a code: a module in this folder and a line here (its
// verdict in Verdict, its rule in FINDING_RULES); `npm run rule-docs` then writes its page and the settings' lists.
import { anachronisticApi, type AnachronisticApiVerdict } from './anachronistic-api.js';
import { anachronisticParameter, type AnachronisticParameterVerdict } from './anachronistic-parameter.js';
import { anachronisticSyntax, type AnachronisticSyntaxVerdict } from './anachronistic-syntax.js';
import { deprecatedApi, type DeprecatedApiVerdict } from './deprecated-api.js';
import { deprecatedParameter, type DeprecatedParameterVerdict } from './deprecated-parameter.js';
import { manifestProblem } from './manifest-problem.js';
import type { FindingOf, FindingRule, RulePage } from './rule.js';
import { tooManyPositional, type TooManyPositionalVerdict } from './too-many-positional.js';
import { unconfirmedApi, type UnconfirmedApiVerdict } from './unconfirmed-api.js';
import { unknownApi, type UnknownApiVerdict } from './unknown-api.js';
import { unknownParameter, type UnknownParameterVerdict } from './unknown-parameter.js';
import { pinText } from './verdict.js';

/** What the checker decided about one place in the code; a rule turns it into a finding. */
export type Verdict =
  | AnachronisticApiVerdict
  | UnknownApiVerdict
  | UnconfirmedApiVerdict
  | AnachronisticParameterVerdict
  | UnknownParameterVerdict
  | TooManyPositionalVerdict
  | AnachronisticSyntaxVerdict
  | DeprecatedApiVerdict
  | DeprecatedParameterVerdict;

export type FindingCode = Verdict['code'];
export type Finding = FindingOf<FindingCode>;

type RuleOf<V extends Verdict> = FindingRule<V['code'], V>;
type Rules = { [C in FindingCode]: RuleOf<Extract<Verdict, { code: C }>> };

const RULES: Rules = {
  'anachronistic-api': anachronisticApi,
  'unknown-api': unknownApi,
  'unconfirmed-api': unconfirmedApi,
  'anachronistic-parameter': anachronisticParameter,
  'unknown-parameter': unknownParameter,
  'too-many-positional': tooManyPositional,
  'anachronistic-syntax': anachronisticSyntax,
  'deprecated-api': deprecatedApi,
  'deprecated-parameter': deprecatedParameter,
};

export const ALL_CODES = Object.keys(RULES) as readonly FindingCode[];

/** Finding rules, in ALL_CODES order. */
export const FINDING_RULES: readonly RuleOf<Verdict>[] = ALL_CODES.map((code) => RULES[code] as RuleOf<Verdict>);

/** Every code with a page under docs/rules/: the finding codes, then the manifest problems. */
export const RULE_PAGES: readonly RulePage[] = [...FINDING_RULES, manifestProblem];

export function isFindingCode(code: string): code is FindingCode {
  return Object.prototype.hasOwnProperty.call(RULES, code);
}

/** The rule of a code, or undefined for a code this version does not know (e.g. from an older diagnostic). */
export function findingRule(code: string): RuleOf<Verdict> | undefined {
  return isFindingCode(code) ? (RULES[code] as RuleOf<Verdict>) : undefined;
}

/** The message with its notes, for outputs read as one line (the CLI, SARIF, agents' reports). */
export function fullMessage(f: Pick<Finding, 'message' | 'notes'>): string {
  return f.notes.length ? `${f.message} — ${f.notes.map((n) => n.text).join('; ')}` : f.message;
}

/** The finding a verdict becomes: its rule's severity and message, and the pin it was judged under. */
export function findingOf(verdict: Verdict): Finding {
  const rule = RULES[verdict.code] as RuleOf<typeof verdict>;
  const { pin, matrix } = verdict;
  return {
    code: verdict.code,
    severity: rule.severity(verdict),
    message: rule.message(verdict),
    notes: rule.notes(verdict),
    range: verdict.range,
    library: matrix.library,
    api: verdict.api,
    parameter: verdict.parameter,
    pin: pin.exactVersion ?? pin.specifier,
    requirement: pinText(pin, matrix),
    pinOrigin: pin.origin,
    availableIn: verdict.availableIn,
    replacement: verdict.replacement,
  };
}
