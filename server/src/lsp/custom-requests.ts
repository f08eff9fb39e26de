// What the VS Code client asks beyond LSP (see protocol.ts): the pins in force for a file, an API's history for the
// timeline view, checking files that are not open, the editor's settings and the selected interpreter's installed
// versions, and the user's own matrices. server.ts registers this with one call and routes its analysis context
// and catalog through it.
import { readEnvironments, readFolderSettings, readNotificationList, tellClientProblems } from './client-options.js';
import { checkedParams } from './request-params.js';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisContext } from '../core/analyze.js';
import { apiAt } from '../core/hover.js';
import { normalizeDistributionName } from '../core/library-names.js';
import type { LoadedCatalog } from '../store/catalog.js';
import { uriToPath } from '../workspace/file-uri.js';
import type { ManifestPins } from '../workspace/manifests.js';
import type { DocumentAnalyses } from './document-analyses.js';
import { applyEditorState, editorPins, FolderValues, setEnvironments, setFolderSettings, type EditorState } from './editor-settings.js';
import {
  CheckFilesRequest,
  DidChangeEditorSettings,
  DidChangeEnvironments,
  HistoryRequest,
  LibrariesRequest,
  PinsRequest,
  type CheckFilesParams,
  type CheckFilesResult,
  type ClientInitializationOptions,
  type HistoryParams,
  type HistoryResponse,
  type HoverMode,
  type LibraryInfo,
  type PinsParams,
  type PinsResult,
} from './protocol.js';
import type { DiagnosticPlaces } from './to-diagnostic.js';
import { historyResponse } from './history-response.js';
import { pinsResponse } from './pins-response.js';
import { WorkspaceChecks } from './workspace-checks.js';
import { coverageOf } from '../core/coverage.js';
import { importRootsOfChunks } from '../core/python/import-roots.js';
import { distributionsOfImport } from '../libraries/import-distributions.js';
import { openLayeredCatalog, type LayeredCatalog } from '../store/layered-catalog.js';
import { defaultUserMatricesFolder, UserMatrixStore } from '../store/user-store.js';
import type { FileSyntax } from '../core/python/file-syntax.js';
import type { Finding } from '../core/findings.js';
import { AutomaticColumns } from './automatic-columns.js';

/** What server.ts shares with this module. */
export interface ServerParts {
  documents: TextDocuments<TextDocument>;
  catalog(): LoadedCatalog | undefined;
  analyses(): DocumentAnalyses | undefined;
  /** Settles once the parser has loaded (or failed to). */
  analysesReady(): Promise<unknown>;
  manifestFor(file: string): { pins: ManifestPins; base: string };
  /** The manifests a search of the file's project finds that pin a library (absolute paths, best first). */
  manifestCandidates(file: string): string[];
  /** The server's analysis context for a file (which already went through `context` below). */
  contextFor(file: string): AnalysisContext;
  /** Where the related information of a file's diagnostics points. */
  placesFor(uri: string, file: string): DiagnosticPlaces;
  recheckAll(): void;
}

export interface EditorHooks {
  /** Opens the bundled matrices with the user's on top (each when first needed), and takes the client's initial settings. */
  openCatalog(bundledFolder: string, options: ClientInitializationOptions, onProblem: (problem: string) => void): LoadedCatalog;
  /** The analysis context with the editor's settings and installed/assumed versions applied. */
  context(file: string, ctx: AnalysisContext): AnalysisContext;
  /** After a file was checked: what its imports' coverage asks for is queued (trusted workspaces, setting on). */
  afterCheck(file: string, syntax: FileSyntax, ctx: AnalysisContext): void;
  /** Resolves when the automatic columns queued so far are made (or failed). */
  columnsIdle(): Promise<void>;
  /** The manifests the user named for a file's folder (anachron.manifestPaths), absolute. */
  manifestPathsFor(file: string): string[] | undefined;
  /** anachron.hover for the file's folder. */
  hoverModeFor(file: string): HoverMode;
  /**
   * A document was closed: a file a workspace check covered keeps diagnostics, those of its text on disk (as
   * Pylance's workspace mode does); true when they were published, false when the caller should clear them.
   */
  closed(uri: string): boolean;
}

const filePath = (uri: string): string | undefined => uriToPath(uri);

export function registerCustomRequests(connection: Connection, parts: ServerParts): EditorHooks {
  const state: EditorState = { settings: new FolderValues(filePath), environments: new FolderValues(filePath) };
  let layered: LayeredCatalog | undefined;
  const userVersionsOf = (library: string) => layered?.userVersionsOf(library) ?? [];
  let columns: AutomaticColumns | undefined;
  let userStores: UserMatrixStore[] = [];
  const distributionsOf = distributionsOfImport((root) => [...new Set(userStores.flatMap((s) => s.distributionsOfImport(root)))]);
  const coverageFor = (syntax: FileSyntax, ctx: AnalysisContext) =>
    coverageOf({ importRoots: importRootsOfChunks(syntax.referenceChunks), pins: ctx.pins, catalog: ctx.catalog, distributionsOf: (root) => distributionsOf(root, ctx.pins.keys()) });
  const workspace = new WorkspaceChecks({ connection, documents: parts.documents, analyses: parts.analyses, contextFor: parts.contextFor, placesFor: parts.placesFor });
  const recheckEverything = () => {
    parts.recheckAll();
    workspace.recheckSoon();
  };

  connection.onNotification(DidChangeEditorSettings, (params: unknown) => {
    const { value: folders, problems } = readNotificationList(DidChangeEditorSettings, params, 'folders', readFolderSettings);
    tellClientProblems(connection, problems);
    if (!folders) return;
    setFolderSettings(state, folders);
    recheckEverything();
  });

  connection.onNotification(DidChangeEnvironments, (params: unknown) => {
    const { value: environments, problems } = readNotificationList(DidChangeEnvironments, params, 'environments', readEnvironments);
    tellClientProblems(connection, problems);
    if (!environments) return;
    setEnvironments(state, environments);
    recheckEverything();
  });

  connection.onRequest(PinsRequest, (raw: unknown): PinsResult | null => {
    const params = checkedParams<PinsParams>(PinsRequest, raw, { uri: { kind: 'string', required: true } });
    const file = filePath(params.uri);
    const catalog = parts.catalog();
    if (!file || !catalog) return null;
    const ctx = parts.contextFor(file);
    const { pins: manifest, base } = parts.manifestFor(file);
    const doc = parts.documents.get(params.uri);
    const syntax = doc && doc.languageId === 'python' ? parts.analyses()?.syntaxFor(params.uri, doc.getText()) : undefined;
    return pinsResponse({
      file,
      pins: ctx.pins.values(),
      manifest,
      base,
      editor: editorPins(state, file, manifest.candidates, ctx.settings),
      libraries: catalog.libraries(),
      coverage: syntax ? coverageFor(syntax, ctx) : [],
      manifestCandidates: parts.manifestCandidates(file),
    });
  });

  connection.onRequest(HistoryRequest, (raw: unknown): HistoryResponse | null => {
    const params = checkedParams<HistoryParams>(HistoryRequest, raw, { api: { kind: 'string' }, uri: { kind: 'string' }, position: { kind: 'position' } });
    const catalog = parts.catalog();
    if (!catalog) return { error: 'the matrices are not loaded', suggestions: [] };
    let api = params.api?.trim();
    const file = params.uri ? filePath(params.uri) : undefined;
    if (!api && params.uri && params.position) {
      const doc = parts.documents.get(params.uri);
      const analyses = parts.analyses();
      if (!doc || !analyses || doc.languageId !== 'python') return null;
      const position = { line: params.position.line, column: params.position.character };
      api = apiAt(analyses.syntaxFor(doc.uri, doc.getText()).referencesAt(position), position)?.path;
      if (!api) return null;
    }
    return historyResponse(catalog, { api, pinOf: (distribution) => (file ? parts.contextFor(file).pins.get(distribution) : undefined), userVersionsOf });
  });

  connection.onRequest(LibrariesRequest, (): LibraryInfo[] =>
    (parts.catalog()?.libraries() ?? []).map((m) => ({ library: m.library, distribution: m.distribution, versions: [...m.versions], userVersions: [...userVersionsOf(m.library)] })),
  );

  connection.onRequest(CheckFilesRequest, async (raw: unknown, token): Promise<CheckFilesResult> => {
    const params = checkedParams<CheckFilesParams>(CheckFilesRequest, raw, { uris: { kind: 'string[]', required: true } });
    if (!parts.catalog()) return { checked: 0, findings: 0, failed: params.uris.map((uri) => ({ uri, reason: 'the matrices are not loaded' })) };
    await parts.analysesReady();
    return workspace.check(params.uris, token);
  });

  return {
    openCatalog(bundledFolder, options, onProblem) {
      setFolderSettings(state, options.editorSettings ?? []);
      setEnvironments(state, options.environments ?? []);
      // The CLI's store (`anachron matrix fetch`) under the editor's own (Add Matrix Column…): both are the user's.
      const folders = [...new Set([defaultUserMatricesFolder(), ...(options.userMatricesFolder ? [options.userMatricesFolder] : [])])];
      userStores = folders.map((f) => new UserMatrixStore(f));
      const catalog = openLayeredCatalog(bundledFolder, folders, onProblem);
      layered = catalog;
      // Only where the client says the workspace is trusted: an LSP client that says nothing gets no network or Python.
      if (options.trusted === true) {
        columns = editorColumns(connection, parts, state, { catalog, userMatricesFolder: folders[folders.length - 1], cacheFolder: options.cacheFolder }, () => {
          parts.analyses()?.resetVerdicts();
          recheckEverything();
        });
      }
      return catalog;
    },
    afterCheck(file, syntax, ctx) {
      if (!columns || state.settings.for(file)?.fetchColumns === false) return;
      columns.consider(file, coverageFor(syntax, ctx));
    },
    columnsIdle: () => columns?.idle() ?? Promise.resolve(),
    manifestPathsFor: (file) => state.settings.for(file)?.manifestPaths,
    hoverModeFor: (file) => state.settings.for(file)?.hover ?? 'flagged',
    closed: (uri) => workspace.closed(uri),
    context(file, ctx) {
      return applyEditorState(state, file, ctx, parts.manifestFor(file).pins.candidates);
    },
  };
}

/** The automatic columns of a trusted workspace, fed the selected interpreters and the open files' findings. */
function editorColumns(
  connection: Connection,
  parts: ServerParts,
  state: EditorState,
  where: { catalog: LayeredCatalog; userMatricesFolder: string | undefined; cacheFolder: string | undefined },
  changed: () => void,
): AutomaticColumns {
  return new AutomaticColumns({
    connection,
    catalog: () => where.catalog,
    userMatricesFolder: where.userMatricesFolder,
    cacheFolder: where.cacheFolder,
    rootFor: (file) => parts.manifestFor(file).base,
    manifestsOf: (file) => parts.manifestFor(file).pins.manifests,
    interpreterFor: (file) => state.environments.for(file)?.interpreter,
    installedVersionOf: (file, distribution) => {
      const env = state.environments.for(file);
      return env ? Object.entries(env.distributions).find(([name]) => normalizeDistributionName(name) === distribution)?.[1] : undefined;
    },
    changed,
    findingsFor: (library) => {
      const analyses = parts.analyses();
      const out: Finding[] = [];
      for (const doc of parts.documents.all()) {
        const file = filePath(doc.uri);
        if (!analyses || !file || doc.languageId !== 'python') continue;
        out.push(...analyses.findings(doc.uri, doc.getText(), parts.contextFor(file)).filter((f) => f.library === library));
      }
      return out;
    },
  });
}
