// A finding as the CLI reports it: 1-based positions, the file as the user sees it, the pin's origin as text.
// Every output format (text, JSON, SARIF) starts from this shape.
import type { Finding, FindingCode, Severity } from '../core/findings.js';
import { describeOrigin } from '../core/pins.js';

export interface ReportedFinding {
  file: string;
  line: number;
  column: number;
  /** 1-based line of the end of the range. */
  endLine: number;
  /** 1-based column just past the end of the range (exclusive). */
  endColumn: number;
  code: FindingCode;
  severity: Severity;
  message: string;
  library: string;
  api: string;
  parameter: string | null;
  pin: string;
  requirement: string;
  pinSource: string;
  availableIn: string[];
  replacement: string | null;
}

/** Columns stay in UTF-16 code units, as the checker counts them. */
export function toReportedFinding(file: string, f: Finding): ReportedFinding {
  return {
    file,
    line: f.range.start.line + 1,
    column: f.range.start.column + 1,
    endLine: f.range.end.line + 1,
    endColumn: f.range.end.column + 1,
    code: f.code,
    severity: f.severity,
    message: f.message,
    library: f.library,
    api: f.api,
    parameter: f.parameter,
    pin: f.pin,
    requirement: f.requirement,
    pinSource: describeOrigin(f.pinOrigin),
    availableIn: f.availableIn,
    replacement: f.replacement,
  };
}

/** The line the CLI prints for a finding: `file:line:column: severity [code] message`. */
export function formatFindingLine(r: ReportedFinding): string {
  return `${r.file}:${r.line}:${r.column}: ${r.severity} [${r.code}] ${r.message}`;
}
