// A finding as the CLI reports it: 1-based positions, the file as the user sees it, the pin's origin as text.
// Every output format (text, JSON, SARIF) starts from this shape.
import { findingData, fullMessage, type Finding, type FindingCode, type FindingData, type Severity } from '../core/findings.js';

export interface ReportedFinding extends FindingData {
  file: string;
  line: number;
  column: number;
  /** 1-based line of the end of the range. */
  endLine: number;
  /** 1-based column just past the end of the range (exclusive). */
  endColumn: number;
  code: FindingCode;
  severity: Severity;
  /** The short message and its notes (the pin's source, the history, the alternative) on one line. */
  message: string;
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
    message: fullMessage(f),
    ...findingData(f),
  };
}

/** The line the CLI prints for a finding: `file:line:column: severity [code] message`. */
export function formatFindingLine(r: ReportedFinding): string {
  return `${r.file}:${r.line}:${r.column}: ${r.severity} [${r.code}] ${r.message}`;
}
