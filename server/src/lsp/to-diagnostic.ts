// Findings and manifest problems as LSP diagnostics. Only this folder knows LSP.
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver/node';
import { join } from 'node:path';
import { findingData, type Finding, type FindingData, type Severity } from '../core/findings.js';
import { findingRule } from '../core/rules/index.js';
import { versionsFixesRead } from '../core/fixes.js';
import type { ManifestProblem } from '../core/pins.js';
import { pathToUri } from '../workspace/file-uri.js';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export type { FindingData };

/** Where the rule pages live: docs/rules/ beside the bundle (shipped with the extension) or in the source tree. */
let rulesFolder = join(__dirname, '..', 'docs', 'rules');
/** The rule page's URI per code, for the rules folder of the moment (every diagnostic carries one). */
let ruleUris = new Map<string, string>();
export function setRulesFolder(folder: string): void {
  rulesFolder = folder;
  ruleUris = new Map();
  converted = new WeakMap();
  placedDiagnostics = new WeakMap();
}

/**
 * versionsFixesRead per history and pin: a finding an edit moved is a new object with its origin's `availableIn`, and
 * sorting that list by PEP 440 for every moved finding was most of an edit's publish (1.8 of 7.8 s over 200 edits).
 */
const fixVersionsByHistory = new WeakMap<readonly string[], Map<string, string[]>>();

function fixVersions(availableIn: readonly string[], pin: string): string[] {
  let byPin = fixVersionsByHistory.get(availableIn);
  if (!byPin) fixVersionsByHistory.set(availableIn, (byPin = new Map()));
  let versions = byPin.get(pin);
  if (!versions) byPin.set(pin, (versions = versionsFixesRead(availableIn, pin)));
  return versions;
}

/**
 * Diagnostics by finding, without their related information (which depends on where they are published): the
 * analysis hands an unchanged finding of an edited document over as the same object (core/check-memo.ts placed).
 */
let converted = new WeakMap<Finding, Diagnostic>();

function ruleUri(code: string): string {
  let uri = ruleUris.get(code);
  if (uri === undefined) ruleUris.set(code, (uri = pathToUri(join(rulesFolder, `${code}.md`))));
  return uri;
}

/** Where a finding's notes point: the checked document, and the URI of a manifest the finding names. */
export interface DiagnosticPlaces {
  uri: string;
  manifestUri(shown: string): string | undefined;
}

/**
 * The notes as related information: the pin's at its manifest line (at the finding where no manifest wrote it), the
 * others as one entry at the finding (each entry repeats a location, and every edit publishes every diagnostic again).
 */
function relatedInformation(f: Finding, manifestUri: string | undefined, uri: string, range: Diagnostic['range']): DiagnosticRelatedInformation[] {
  const line = (f.pinOrigin.line ?? 1) - 1;
  const related: DiagnosticRelatedInformation[] = [];
  const atCode: string[] = [];
  for (const note of f.notes) {
    if (note.at === 'code') atCode.push(note.text);
    else related.push({ location: manifestUri ? { uri: manifestUri, range: { start: { line, character: 0 }, end: { line, character: 0 } } } : { uri, range }, message: note.text });
  }
  if (atCode.length) related.push({ location: { uri, range }, message: atCode.join('; ') });
  return related;
}

/** Diagnostics by finding with their related information, and the places that information points at. */
let placedDiagnostics = new WeakMap<Finding, { uri: string; manifest: string | undefined; diagnostic: Diagnostic }>();

export function findingToDiagnostic(f: Finding, places?: DiagnosticPlaces): Diagnostic {
  let diagnostic = converted.get(f);
  if (!diagnostic) converted.set(f, (diagnostic = withoutPlaces(f)));
  if (!places || f.notes.length === 0) return diagnostic;
  // An unchanged finding published again at the same places is the diagnostic made last time.
  const manifest = f.pinOrigin.line !== null && f.notes.some((n) => n.at === 'pin') ? places.manifestUri(f.pinOrigin.file) : undefined;
  const last = placedDiagnostics.get(f);
  if (last && last.uri === places.uri && last.manifest === manifest) return last.diagnostic;
  const { range, severity, code, codeDescription, source, message, tags, data } = diagnostic;
  const placed = { range, severity, code, codeDescription, source, message, tags, relatedInformation: relatedInformation(f, manifest, places.uri, range), data };
  placedDiagnostics.set(f, { uri: places.uri, manifest, diagnostic: placed });
  return placed;
}

function withoutPlaces(f: Finding): Diagnostic {
  const data: FindingData = { ...findingData(f), availableIn: fixVersions(f.availableIn, f.pin) };
  const range = {
    start: { line: f.range.start.line, character: f.range.start.column },
    end: { line: f.range.end.line, character: f.range.end.column },
  };
  return {
    range,
    severity: SEVERITY[f.severity],
    code: f.code,
    codeDescription: { href: ruleUri(f.code) },
    source: 'anachron',
    message: f.message,
    tags: findingRule(f.code)?.isRemoval?.(f) ? [DiagnosticTag.Deprecated] : undefined,
    data,
  };
}

export function manifestProblemToDiagnostic(p: ManifestProblem, lineText: string): Diagnostic {
  return {
    range: { start: { line: p.line - 1, character: 0 }, end: { line: p.line - 1, character: lineText.length } },
    severity: DiagnosticSeverity.Warning,
    code: 'manifest-problem',
    codeDescription: { href: ruleUri('manifest-problem') },
    source: 'anachron',
    message: p.message,
  };
}
