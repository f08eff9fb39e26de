// Findings and manifest problems as LSP diagnostics. Only this folder knows LSP.
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver/node';
import type { Finding, Severity } from '../core/findings.js';
import { describeOrigin, type ManifestProblem } from '../core/pins.js';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export interface FindingData {
  library: string;
  api: string;
  parameter: string | null;
  pin: string;
  requirement: string;
  pinSource: string;
  availableIn: string[];
  replacement: string | null;
}

export function findingToDiagnostic(f: Finding): Diagnostic {
  const data: FindingData = {
    library: f.library,
    api: f.api,
    parameter: f.parameter,
    pin: f.pin,
    requirement: f.requirement,
    pinSource: describeOrigin(f.pinOrigin),
    availableIn: f.availableIn,
    replacement: f.replacement,
  };
  return {
    range: {
      start: { line: f.range.start.line, character: f.range.start.column },
      end: { line: f.range.end.line, character: f.range.end.column },
    },
    severity: SEVERITY[f.severity],
    code: f.code,
    source: 'anachron',
    message: f.message,
    data,
  };
}

export function manifestProblemToDiagnostic(p: ManifestProblem, lineText: string): Diagnostic {
  return {
    range: { start: { line: p.line - 1, character: 0 }, end: { line: p.line - 1, character: lineText.length } },
    severity: DiagnosticSeverity.Warning,
    code: 'manifest-problem',
    source: 'anachron',
    message: p.message,
  };
}
