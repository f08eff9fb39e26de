// What each finding code means, for formats that describe their rules (SARIF) and for help texts.
import { ALL_CODES, type FindingCode, type Severity } from '../core/findings.js';

export type SarifLevel = 'none' | 'note' | 'warning' | 'error';

export interface RuleDescription {
  code: FindingCode;
  /** PascalCase name, as SARIF consumers show it beside the id. */
  name: string;
  short: string;
  full: string;
  /** The severity most findings of this code have; a finding may differ (e.g. inferred between tracked versions). */
  defaultSeverity: Severity;
}

/** Codes added to the checker later get a generic description until they are described here. */
const RULES: Partial<Record<FindingCode, Omit<RuleDescription, 'code'>>> = {
  'anachronistic-api': {
    name: 'AnachronisticApi',
    short: 'API missing from the pinned library version',
    full:
      'The API exists in some tracked version of the library, but not in the version (or versions) the project pins. ' +
      'The code will fail with AttributeError or ImportError at that version. Reported as a warning when the pinned ' +
      'version is untracked and the state was inferred from the tracked versions around it.',
    defaultSeverity: 'error',
  },
  'unknown-api': {
    name: 'UnknownApi',
    short: 'API present in no tracked version of the library',
    full:
      'The API exists in no tracked version of the library: possibly a hallucinated or misspelled name. Members of ' +
      'classes the matrix does not list, private names and modules that failed to import are never reported.',
    defaultSeverity: 'warning',
  },
  'unconfirmed-api': {
    name: 'UnconfirmedApi',
    short: 'API cannot be confirmed at the pinned library version',
    full:
      'The pinned version is not tracked and the tracked versions around it disagree about the API, or its module ' +
      'could not be introspected at that version.',
    defaultSeverity: 'information',
  },
  'anachronistic-parameter': {
    name: 'AnachronisticParameter',
    short: 'Keyword argument not accepted by the pinned library version',
    full:
      'The keyword is accepted by some tracked version of the callable, but not by the version (or versions) the ' +
      'project pins. The call will fail with TypeError at that version.',
    defaultSeverity: 'error',
  },
  'unknown-parameter': {
    name: 'UnknownParameter',
    short: 'Keyword argument accepted by no tracked library version',
    full:
      'No tracked version of the callable accepts the keyword. Only reported when the signature was read from the ' +
      'real callable or from a type stub.',
    defaultSeverity: 'warning',
  },
  'too-many-positional': {
    name: 'TooManyPositional',
    short: 'More positional arguments than the pinned library version accepts',
    full:
      'The call passes more positional arguments than the signature takes at the version (or versions) the project ' +
      'pins; some tracked version may accept them. The call will fail with TypeError at that version.',
    defaultSeverity: 'error',
  },
};

function pascalCase(code: string): string {
  return code
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

export function describeRule(code: FindingCode): RuleDescription {
  const known = RULES[code];
  if (known) return { code, ...known };
  const text = `anachron finding \`${code}\``;
  return { code, name: pascalCase(code), short: text, full: `${text}: see the rule page for details.`, defaultSeverity: 'warning' };
}

export function allRules(): RuleDescription[] {
  return ALL_CODES.map(describeRule);
}

export function sarifLevel(severity: Severity): SarifLevel {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'information':
    case 'hint':
      return 'note';
  }
}
