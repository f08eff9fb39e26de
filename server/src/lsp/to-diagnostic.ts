// Findings and manifest problems as LSP diagnostics. Only this folder knows LSP.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver/node';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { compareVersions, isValidVersion } from '../core/versions.js';
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

/** Where the rule pages live: docs/rules/ beside the bundle (shipped with the extension) or in the source tree. */
let rulesFolder = join(__dirname, '..', 'docs', 'rules');
export function setRulesFolder(folder: string): void {
  rulesFolder = folder;
}

/** An API that only older versions have was removed: the editor shows it struck through. */
function isRemoval(f: Finding): boolean {
  return f.code === 'anachronistic-api' && f.availableIn.length > 0 && isValidVersion(f.pin) && f.availableIn.every((v) => compareVersions(v, f.pin) < 0);
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
    codeDescription: { href: pathToFileURL(join(rulesFolder, `${f.code}.md`)).toString() },
    source: 'anachron',
    message: f.message,
    tags: isRemoval(f) ? [DiagnosticTag.Deprecated] : undefined,
    data,
  };
}

export function manifestProblemToDiagnostic(p: ManifestProblem, lineText: string): Diagnostic {
  return {
    range: { start: { line: p.line - 1, character: 0 }, end: { line: p.line - 1, character: lineText.length } },
    severity: DiagnosticSeverity.Warning,
    code: 'manifest-problem',
    codeDescription: { href: pathToFileURL(join(rulesFolder, 'manifest-problem.md')).toString() },
    source: 'anachron',
    message: p.message,
  };
}
