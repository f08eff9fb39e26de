// What a finding code is. Each code is one module in this folder: its metadata, default severity, the message a
// verdict of the checker becomes, the quick fixes it offers, and the text of its page (docs/rules/<code>.md, the SARIF
// rule, the README row and the editor settings are generated from it: scripts/rule-docs.ts). Pure.
import type { PinOrigin } from '../pin.js';
import type { SourceRange } from '../source-range.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** The quick fixes a finding may offer besides silencing its line (core/fixes.ts builds them). */
export type FixKind = 'use-replacement' | 'drop-keyword' | 'rename-keyword' | 'raise-pin';

/** The sections of a rule's page, in Markdown (already wrapped at 120 columns). */
export interface RuleDocs {
  what: string;
  why: string;
  severity?: string;
  example?: { context?: string; code: string };
  fix: string;
}

/** A code with a page: every finding code, and the manifest problems the editor shows. */
export interface RulePage {
  code: string;
  /** PascalCase name, as SARIF consumers show it beside the id. */
  name: string;
  /** One line: SARIF's short description. */
  summary: string;
  /** A paragraph: SARIF's full description and help text. */
  description: string;
  /** The severity most findings of this code have; a finding may differ (e.g. inferred between tracked versions). */
  defaultSeverity: Severity;
  /** The README's severity cell (the default and when it differs). */
  severityNote: string;
  /** The README's meaning cell. */
  meaning: string;
  docs: RuleDocs;
}

/**
 * What a finding says beyond its short message: where the pin was written (`at: 'pin'`, the editor points at that
 * manifest line), the API's history and the alternative (`at: 'code'`).
 */
export interface FindingNote {
  text: string;
  at: 'pin' | 'code';
}

/** A finding as the checker reports it: where, what, under which pin, and what would do instead. */
export interface FindingOf<Code extends string> {
  code: Code;
  severity: Severity;
  /** Short, leading with the fact: "`numpy.random.default_rng` needs numpy ≥ 1.17 (pinned 1.16.6)". */
  message: string;
  /** The pin's source, the history and the alternative, in that order (LSP relatedInformation, the CLI's full line). */
  notes: FindingNote[];
  range: SourceRange;
  /** Import name of the library, e.g. "numpy". */
  library: string;
  /** Fully qualified public name of the API. */
  api: string;
  /** The keyword, for parameter-level findings. */
  parameter: string | null;
  /** The pin applied: the exact version ("1.24.2") or the specifier (">=1.21,<2"). */
  pin: string;
  /** The requirement as a whole: "numpy==1.24.2". */
  requirement: string;
  pinOrigin: PinOrigin;
  /** Tracked versions that do have the API (or accept the parameter). */
  availableIn: string[];
  /** A version-correct API to use instead, when the matrix knows one. */
  replacement: string | null;
}

/** A finding code the checker decides: its page, and how a verdict becomes a finding. */
export interface FindingRule<Code extends string, V extends { code: Code }> extends RulePage {
  code: Code;
  fixes: readonly FixKind[];
  /** Whether another version of the library can make the code right (min-versions, migration notes). */
  versionBound: boolean;
  severity(verdict: V): Severity;
  message(verdict: V): string;
  /** The notes that go with the message: the pin's source first. */
  notes(verdict: V): FindingNote[];
  /** Whether the editor strikes the finding through (an API that only older versions have was removed, or one deprecated). */
  isRemoval?(finding: FindingOf<Code>): boolean;
}
