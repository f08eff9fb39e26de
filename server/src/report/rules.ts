// What each finding code means, for formats that describe their rules (SARIF) and for help texts: read from the
// rules themselves (core/rules/).
import { FINDING_RULES } from '../core/rules/index.js';
import type { FindingCode, Severity } from '../core/findings.js';

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

export function allRules(): RuleDescription[] {
  return FINDING_RULES.map((r) => ({ code: r.code, name: r.name, short: r.summary, full: r.description, defaultSeverity: r.defaultSeverity }));
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
