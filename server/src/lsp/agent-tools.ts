// The agent tools for the VS Code client (protocol.ts: anachron/lookup, checkSnippet, migrate, reviewChanges): the
// same tool implementation as `anachron mcp` (knowledge/tools.ts), with the pins of the file the editor has open —
// editor settings, installed versions and unsaved manifests included — and, for a review, the lines git says changed
// (the pieces of `anachron check --diff`). Loaded on the first such request (agent-requests.ts registers them): the
// knowledge and the drift suite's migration notes are not on the server's way to its first diagnostics.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { MAX_SOURCE_BYTES, readBoundedText, readSourceText } from '../workspace/bounded-read.js';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisContext } from '../core/analyze.js';
import type { LibraryMatrix } from '../core/api-model.js';
import { errorMessage, internalErrorReport, isInputError } from '../core/errors.js';
import { apiAt } from '../core/hover.js';
import { findApiReferences } from '../core/python/file-syntax.js';
import { changedLinesSince, repositoryRoot, resolveCommit, untrackedFiles } from '../git/git.js';
import { ApiKnowledge } from '../knowledge/api-lookup.js';
import { renderMigration, renderReview } from '../knowledge/render.js';
import { checkSnippet, importsOf, migrateSnippet, type SnippetFinding, type SnippetReport } from '../knowledge/snippet.js';
import { parseCheckInput, parseLookupInput, runCheckTool, runLookupTool, type ToolEnvironment } from '../knowledge/tools.js';
import { loadPythonParser, type PythonParser } from '../parser/python-parser.js';
import { touchesLines } from '../report/diff.js';
import { pathInRoot, realRoot } from '../cli/repo-paths.js';
import type { LoadedCatalog } from '../store/catalog.js';
import { pathToUri, uriToPath } from '../workspace/file-uri.js';
import { openDocumentAt } from './open-documents.js';
import type {
  AgentFinding,
  CheckSnippetParams,
  CheckSnippetResponse,
  LookupParams,
  LookupResponse,
  MigrateParams,
  MigrateResponse,
  ReviewChangesParams,
  ReviewChangesResponse,
} from './protocol.js';

/** Files larger than this are not reviewed (generated code, data dumps). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** What the tools need of the language server (server.ts hands it to registerAgentRequests). */
export interface AgentParts {
  documents: TextDocuments<TextDocument>;
  catalog(): LoadedCatalog | undefined;
  /** The workspace folders (absolute paths). */
  roots(): readonly string[];
  contextFor(file: string): AnalysisContext;
  /** Where a file's manifests are shown relative to (its workspace folder). */
  manifestBase(file: string): string;
  readManifest(file: string): string | undefined;
}

const filePath = (uri: string | undefined): string | undefined => (uri === undefined ? undefined : uriToPath(uri));

const listApis = (m: LibraryMatrix): readonly string[] => (m as LibraryMatrix & { apiPaths?: () => string[] }).apiPaths?.() ?? [];

/** The answer to a request that failed: an input error's message; an internal error logged with its stack and said to be one. */
function failure(connection: Connection, what: string, e: unknown): { error: string } {
  if (isInputError(e)) return { error: errorMessage(e) };
  connection.console.error(internalErrorReport(e, `anachron: ${what}`));
  return { error: `internal error in anachron while answering (${errorMessage(e)}); the output channel has the details: please report it` };
}

export interface AgentHandlers {
  lookup(params: LookupParams): Promise<LookupResponse>;
  checkSnippet(params: CheckSnippetParams): Promise<CheckSnippetResponse>;
  migrate(params: MigrateParams): Promise<MigrateResponse>;
  reviewChanges(params: ReviewChangesParams): Promise<ReviewChangesResponse>;
}

/** The file whose pins apply: the input's path (relative to the file's folder or the workspace), else the file. */
function anchorFile(parts: AgentParts, uri: string | undefined, path: string | undefined): string {
  const file = filePath(uri);
  const root = (file && parts.roots().find((r) => file.startsWith(r))) ?? parts.roots()[0] ?? process.cwd();
  const target = path ? (isAbsolute(path) ? path : resolve(root, path)) : file ?? root;
  try {
    if (existsSync(target) && statSync(target).isDirectory()) return join(target, '__anachron_snippet__.py');
  } catch {
    // fall through
  }
  return target;
}

/** A finding as the extension's tools take it (LSP positions). */
function toAgentFinding(f: SnippetFinding, uri?: string): AgentFinding {
  return {
    ...(uri ? { uri } : {}),
    line: f.line,
    column: f.column,
    code: f.code,
    severity: f.severity,
    message: f.message,
    api: f.api,
    replacement: f.replacement,
    fix: f.fix
      ? { title: f.fix.title, edits: f.fix.edits.map((e) => ({ range: { start: { line: e.range.start.line, character: e.range.start.column }, end: { line: e.range.end.line, character: e.range.end.column } }, newText: e.newText })) }
      : null,
  };
}

/** "/migrate 2.2.4" or "/migrate numpy==2.2.4": the version to move to, and the library where it is named. */
function migrationTarget(text: string): { library: string | undefined; version: string } | { error: string } {
  const target = text.trim();
  const m = /^([A-Za-z_][\w.-]*)\s*(?:==\s*|\s+)(\S+)$/.exec(target);
  const version = m ? m[2]! : target.replace(/^==/, '');
  if (!version || !/^\d/.test(version)) return { error: `name the version to move to, e.g. /migrate 2.2.4 or /migrate numpy==2.2.4 (got "${target}")` };
  return { library: m?.[1], version };
}

/** The Python files under `folder` changed since `rev` or untracked, with the lines changed in each. */
function changedPythonFiles(folder: string, rev: string): { root: string; changed: ReturnType<typeof changedLinesSince>; untracked: Set<string>; candidates: string[] } {
  const root = realRoot(repositoryRoot(folder));
  const changed = changedLinesSince(root, resolveCommit(root, rev));
  const untracked = new Set(untrackedFiles(root));
  const scope = realRoot(folder);
  const inFolder = (rel: string) => scope === root || pathInRoot(scope, join(root, rel)) !== undefined;
  const candidates = [...new Set([...changed.keys(), ...untracked])].filter((rel) => rel.endsWith('.py') && inFolder(rel)).sort();
  return { root, changed, untracked, candidates };
}

export function agentHandlers(connection: Connection, parts: AgentParts): AgentHandlers {
  const requests = new AgentRequests(connection, parts);
  return {
    lookup: (params) => requests.lookup(params),
    checkSnippet: (params) => requests.checkSnippet(params),
    migrate: (params) => requests.migrate(params),
    reviewChanges: (params) => requests.reviewChanges(params),
  };
}

/** The four requests over one parser and one ApiKnowledge per loaded catalog. */
class AgentRequests {
  private knowledge: { catalog: LoadedCatalog; value: ApiKnowledge } | undefined;
  private parserLoad: Promise<PythonParser> | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly parts: AgentParts,
  ) {}

  lookup(params: LookupParams): Promise<LookupResponse> {
    return this.answer('lookup', async (catalog) => {
      let raw = params.input ?? {};
      const asked = raw as { api?: unknown; description?: unknown; module?: unknown };
      if (!asked.api && !asked.description && !asked.module && params.uri && params.position) {
        // No API named: the one under the cursor, as the hover and the history view find it.
        const api = await this.apiUnderCursor(params.uri, params.position);
        if (api) raw = { ...(raw as object), api };
      }
      const result = runLookupTool(parseLookupInput(raw), this.environment(catalog, params.uri));
      return { text: result.text, api: result.answer.kind === 'api' ? result.answer.api : null };
    });
  }

  checkSnippet(params: CheckSnippetParams): Promise<CheckSnippetResponse> {
    return this.answer('check', async (catalog) => {
      const env = this.environment(catalog, params.uri);
      const file = filePath(params.uri);
      const shown = file ? relative(this.parts.manifestBase(file), file) || file : undefined;
      const preamble = params.withImports && params.uri ? await this.importsOfDocument(params.uri, file) : undefined;
      const result = await runCheckTool(parseCheckInput(params.input), env, { ...(shown && params.firstLine ? { file: shown, firstLine: params.firstLine } : {}), ...(preamble ? { preamble } : {}) });
      return {
        text: result.text,
        findings: result.report.findings.map((f) => toAgentFinding(f)),
        fixedCode: result.report.fixedCode,
        libraries: result.report.libraries.map((l) => ({ library: l.library, pin: l.pin ? `${l.pin.requirement} (${l.pin.origin})` : null })),
      };
    });
  }

  migrate(params: MigrateParams): Promise<MigrateResponse> {
    return this.answer('migrate', async (catalog) => {
      const env = this.environment(catalog, params.uri);
      const ctx = env.contextFor(undefined);
      const asked = migrationTarget(params.target);
      if ('error' in asked) return asked;
      const { version } = asked;
      let library = asked.library;
      const p = await env.parser();
      if (!library) {
        // The tracked libraries the code uses and the project pins: one is the one to move.
        const used = checkSnippet(p, params.code, ctx, env.knowledge).libraries.filter((l) => l.pin);
        if (used.length !== 1) {
          return { error: used.length === 0 ? 'the code uses no pinned library anachron tracks' : `the code uses ${used.map((l) => l.library).join(' and ')}: say which to move, e.g. /migrate ${used[0]!.library}==${version}` };
        }
        library = used[0]!.library;
      }
      const report = migrateSnippet(p, params.code, ctx, env.knowledge, library, version);
      return { text: renderMigration(report), changes: report.lines.length };
    });
  }

  reviewChanges(params: ReviewChangesParams): Promise<ReviewChangesResponse> {
    return this.answer('review', async (catalog) => {
      const folder = filePath(params.folderUri);
      if (!folder) return { error: 'reviewing changes needs a folder on disk' };
      const rev = params.rev?.trim() || 'HEAD';
      const { root, changed, untracked, candidates } = changedPythonFiles(folder, rev);
      const env = this.environment(catalog, params.folderUri);
      const p = await env.parser();
      const reports: SnippetReport[] = [];
      const findings: AgentFinding[] = [];
      for (const rel of candidates) {
        const file = join(root, rel);
        const source = this.changedSource(file);
        if (!source) continue;
        const base = this.parts.manifestBase(file);
        const report = checkSnippet(p, source.text, this.parts.contextFor(file), env.knowledge, { file: rel, readManifest: (shown) => this.parts.readManifest(isAbsolute(shown) ? shown : join(base, shown)) });
        const lines = untracked.has(rel) ? 'all' : changed.get(rel);
        const kept = report.findings.filter((f) => lines === 'all' || (lines !== undefined && touchesLines(lines, f.line, f.endLine)));
        reports.push({ ...report, findings: kept, fixedCode: null, remainingAfterFixes: null });
        findings.push(...kept.map((f) => toAgentFinding(f, source.uri)));
      }
      return { text: renderReview(reports, rev), files: candidates.length, findings };
    });
  }

  /** A request's answer: what `work` makes of the loaded matrices, or the error that says why there is none. */
  private async answer<R>(what: string, work: (catalog: LoadedCatalog) => Promise<R>): Promise<R | { error: string }> {
    const catalog = this.parts.catalog();
    if (!catalog) return { error: 'the matrices are not loaded' };
    try {
      return await work(catalog);
    } catch (e) {
      return failure(this.connection, what, e);
    }
  }

  private parser(): Promise<PythonParser> {
    return (this.parserLoad ??= loadPythonParser());
  }

  private knowledgeOf(catalog: LoadedCatalog): ApiKnowledge {
    if (this.knowledge?.catalog !== catalog) this.knowledge = { catalog, value: new ApiKnowledge(catalog, listApis) };
    return this.knowledge.value;
  }

  private environment(catalog: LoadedCatalog, uri: string | undefined): ToolEnvironment {
    const { parts } = this;
    const anchor = (path: string | undefined) => anchorFile(parts, uri, path);
    return {
      knowledge: this.knowledgeOf(catalog),
      parser: () => this.parser(),
      contextFor: (path) => parts.contextFor(anchor(path)),
      readManifest: (shown) => {
        const base = parts.manifestBase(anchor(undefined));
        return parts.readManifest(isAbsolute(shown) ? shown : join(base, shown));
      },
      readSource: (path) => {
        const file = anchor(path);
        const open = openDocumentAt(parts.documents, file);
        try {
          const text = open?.getText() ?? readSourceText(file);
          return { text, shown: relative(parts.manifestBase(file), file) || file };
        } catch {
          return undefined;
        }
      },
      markdown: true,
    };
  }

  /** The API under the cursor of an open Python document, as the hover and the history view find it. */
  private async apiUnderCursor(uri: string, position: { line: number; character: number }): Promise<string | undefined> {
    const doc = this.parts.documents.get(uri);
    if (!doc || doc.languageId !== 'python') return undefined;
    const tree = (await this.parser()).parse(doc.getText());
    try {
      return apiAt(findApiReferences(tree), { line: position.line, column: position.character })?.path;
    } finally {
      tree.delete();
    }
  }

  /** The import statements of a document (open, else on disk), to put before a snippet; undefined when it has none. */
  private async importsOfDocument(uri: string, file: string | undefined): Promise<string | undefined> {
    const doc = this.parts.documents.get(uri);
    const text = doc?.getText() ?? (file && existsSync(file) ? readBoundedText(file, MAX_SOURCE_BYTES).text : undefined);
    if (text === undefined) return undefined;
    const tree = (await this.parser()).parse(text);
    try {
      return importsOf(tree) || undefined;
    } finally {
      tree.delete();
    }
  }

  /** A changed file's text (the open document's, else the file's) and its URI; undefined when too large or deleted since. */
  private changedSource(file: string): { text: string; uri: string } | undefined {
    const open = openDocumentAt(this.parts.documents, file);
    try {
      if (!open && statSync(file).size > MAX_FILE_BYTES) return undefined;
      return { text: open?.getText() ?? readSourceText(file), uri: open?.uri ?? pathToUri(file) };
    } catch {
      return undefined; // deleted since
    }
  }
}
