// Findings as a SARIF 2.1.0 log, the format code-scanning services (GitHub, GitLab, Azure DevOps) import.
// Pure: the caller says where the files are relative to the source root and who the tool is.
import { createHash } from 'node:crypto';
import type { FindingCode, FindingData } from '../core/findings.js';
import type { ReportedFinding } from './reported-finding.js';
import { allRules, sarifLevel, type SarifLevel } from './rules.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const SARIF_VERSION = '2.1.0';
/** The uriBaseId of every artifact inside the source root (the repository). */
export const SRCROOT = 'SRCROOT';
/** partialFingerprints key; bump the suffix if what goes into the hash ever changes. */
export const FINGERPRINT_KEY = 'anachronFinding/v1';

export interface SarifToolInfo {
  name: string;
  version: string;
  /** The tool's home page (absolute URI), when known. */
  informationUri?: string;
  /** Absolute URI that rule pages hang off: `${rulesHelpBase}${code}.md`. */
  rulesHelpBase: string;
}

export interface SarifArtifactLocation {
  uri: string;
  uriBaseId?: string;
}

export interface SarifInput {
  tool: SarifToolInfo;
  /** Absolute `file:` URI of the source root, ending in "/"; recorded as the meaning of SRCROOT when given. */
  srcRootUri?: string;
  findings: { finding: ReportedFinding; artifact: SarifArtifactLocation }[];
}

export interface SarifMessage {
  text: string;
}

export interface SarifRule {
  id: string;
  name: string;
  shortDescription: SarifMessage;
  fullDescription: SarifMessage;
  helpUri: string;
  help: SarifMessage;
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

export interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: SarifMessage;
  locations: { physicalLocation: { artifactLocation: SarifArtifactLocation; region: SarifRegion } }[];
  partialFingerprints: Record<string, string>;
  /** What the finding says beyond its place and wording, as in the CLI's JSON. */
  properties: FindingData;
}

export interface SarifRun {
  tool: { driver: { name: string; version: string; semanticVersion?: string; informationUri?: string; rules: SarifRule[] } };
  originalUriBaseIds?: Record<string, { uri: string; description?: SarifMessage }>;
  columnKind: 'utf16CodeUnits';
  results: SarifResult[];
}

export interface SarifLog {
  $schema: string;
  version: typeof SARIF_VERSION;
  runs: SarifRun[];
}

/** A relative path ("src/my file.py", with / separators) as a URI reference: each segment percent-encoded. */
export function relativeArtifactUri(relativePath: string): string {
  return relativePath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** A reported finding without its place and wording: what SARIF carries in a result's properties. */
function dataOf(f: ReportedFinding): FindingData {
  const { file: _file, line: _line, column: _column, endLine: _endLine, endColumn: _endColumn, code: _code, severity: _severity, message: _message, ...data } = f;
  return data;
}

/**
 * A fingerprint that survives unrelated edits and reruns: the rule, the file, the API and keyword, and which
 * occurrence of that same (rule, file, API, keyword) it is in the file. Line numbers stay out of it, so adding
 * a line above a finding does not make it a new alert.
 */
function fingerprint(f: ReportedFinding, artifact: SarifArtifactLocation, occurrence: number): string {
  const key = [f.code, artifact.uriBaseId ?? '', artifact.uri, f.api, f.parameter ?? '', String(occurrence)].join('\u0000');
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

export function renderSarif(input: SarifInput): SarifLog {
  const rules = allRules();
  const ruleIndex = new Map<FindingCode, number>(rules.map((r, i) => [r.code, i]));
  const occurrences = new Map<string, number>();
  const results: SarifResult[] = input.findings.map(({ finding: f, artifact }) => {
    const occurrenceKey = [f.code, artifact.uriBaseId ?? '', artifact.uri, f.api, f.parameter ?? ''].join('\u0000');
    const occurrence = occurrences.get(occurrenceKey) ?? 0;
    occurrences.set(occurrenceKey, occurrence + 1);
    const endLine = Math.max(f.endLine, f.line);
    const endColumn = endLine === f.line ? Math.max(f.endColumn, f.column + 1) : Math.max(f.endColumn, 1);
    return {
      ruleId: f.code,
      ruleIndex: ruleIndex.get(f.code)!,
      level: sarifLevel(f.severity),
      message: { text: f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { ...artifact },
            region: { startLine: f.line, startColumn: f.column, endLine, endColumn },
          },
        },
      ],
      partialFingerprints: { [FINGERPRINT_KEY]: fingerprint(f, artifact, occurrence) },
      properties: { ...dataOf(f), availableIn: [...f.availableIn] },
    };
  });
  const semver = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(input.tool.version);
  const run: SarifRun = {
    tool: {
      driver: {
        name: input.tool.name,
        version: input.tool.version,
        ...(semver ? { semanticVersion: input.tool.version } : {}),
        ...(input.tool.informationUri ? { informationUri: input.tool.informationUri } : {}),
        rules: rules.map((r) => ({
          id: r.code,
          name: r.name,
          shortDescription: { text: r.short },
          fullDescription: { text: r.full },
          helpUri: `${input.tool.rulesHelpBase}${r.code}.md`,
          help: { text: r.full },
          defaultConfiguration: { level: sarifLevel(r.defaultSeverity) },
          properties: { tags: ['python', 'compatibility', 'dependencies'] },
        })),
      },
    },
    ...(input.srcRootUri !== undefined
      ? { originalUriBaseIds: { [SRCROOT]: { uri: input.srcRootUri, description: { text: 'The root of the checked repository.' } } } }
      : {}),
    columnKind: 'utf16CodeUnits',
    results,
  };
  return { $schema: SARIF_SCHEMA_URI, version: SARIF_VERSION, runs: [run] };
}
