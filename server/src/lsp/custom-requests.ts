// What the VS Code client asks beyond LSP (see protocol.ts): the pins in force for a file, an API's history for the
// timeline view, checking files that are not open, the editor's settings and the selected interpreter's installed
// versions, and the user's own matrices. server.ts registers this with one call and routes its analysis context
// and catalog through it.
import { checkedParams } from './request-params.js';
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readSourceText } from '../workspace/bounded-read.js';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisContext } from '../core/analyze.js';
import { formatSignature, type LibraryMatrix } from '../core/api-model.js';
import { versionsUnderPin } from '../core/checker.js';
import { apiAt, bands } from '../core/hover.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { describeOrigin, type Pin } from '../core/pins.js';
import { stateAt } from '../core/version-state.js';
import type { LoadedCatalog } from '../store/catalog.js';
import { pathToUri, uriToPath } from '../workspace/file-uri.js';
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
  type DidChangeEditorSettingsParams,
  type DidChangeEnvironmentsParams,
  type HistoryParams,
  type HistoryResponse,
  type HoverMode,
  type LibraryInfo,
  type PinInfo,
  type PinsParams,
  type PinsResult,
} from './protocol.js';
import { findingToDiagnostic, type DiagnosticPlaces } from './to-diagnostic.js';
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
  openCatalog(bundledFolder: string, initializationOptions: unknown, onProblem: (problem: string) => void): LoadedCatalog;
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

/** Files larger than this are not checked from disk (generated code, data dumps). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const filePath = (uri: string): string | undefined => uriToPath(uri);

export function registerCustomRequests(connection: Connection, parts: ServerParts): EditorHooks {
  const state: EditorState = { settings: new FolderValues(filePath), environments: new FolderValues(filePath) };
  let layered: LayeredCatalog | undefined;
  /** Files checked from disk by anachron/checkFiles and not open: re-checked when settings change. */
  const checkedFromDisk = new Set<string>();
  /** Every file a workspace check covered, open then or not: closing one publishes its text on disk again, not nothing. */
  const inWorkspaceCheck = new Set<string>();

  const userVersionsOf = (library: string) => layered?.userVersionsOf(library) ?? [];
  let columns: AutomaticColumns | undefined;
  let userStores: UserMatrixStore[] = [];
  const distributionsOf = distributionsOfImport((root) => [...new Set(userStores.flatMap((s) => s.distributionsOfImport(root)))]);
  const coverageFor = (syntax: FileSyntax, ctx: AnalysisContext) =>
    coverageOf({ importRoots: importRootsOfChunks(syntax.referenceChunks), pins: ctx.pins, catalog: ctx.catalog, distributionsOf: (root) => distributionsOf(root, ctx.pins.keys()) });

  function matrixForDistribution(distribution: string): LibraryMatrix | undefined {
    return parts.catalog()?.libraries().find((m) => normalizeDistributionName(m.distribution) === distribution);
  }

  /** The versions the checker checks the pin at (core/checker.ts); without a matrix, only an exact version. */
  function versionsUnder(pin: Pin, matrix: LibraryMatrix | undefined): string[] {
    if (matrix) return versionsUnderPin(pin, matrix);
    return pin.exactVersion !== null ? [pin.exactVersion] : [];
  }

  function checkText(uri: string, file: string, text: string, publish: boolean): number {
    const analyses = parts.analyses();
    if (!analyses) throw new Error('the Python parser is not loaded');
    const places = parts.placesFor(uri, file);
    const diagnostics = analyses.findingsOfText(text, parts.contextFor(file)).map((f) => findingToDiagnostic(f, places));
    if (publish) void connection.sendDiagnostics({ uri, diagnostics });
    return diagnostics.length;
  }

  let recheckTimer: NodeJS.Timeout | undefined;

  /** Re-checks, in the background, the closed files a workspace check published diagnostics for. */
  function recheckDiskFiles(): void {
    clearTimeout(recheckTimer);
    recheckTimer = setTimeout(async () => {
      for (const uri of [...checkedFromDisk]) {
        const file = filePath(uri);
        if (!file || parts.documents.get(uri)) continue;
        try {
          checkText(uri, file, readSourceText(file), true);
        } catch {
          checkedFromDisk.delete(uri);
        }
        await new Promise((r) => setImmediate(r));
      }
    }, 200);
  }

  connection.onNotification(DidChangeEditorSettings, (params: DidChangeEditorSettingsParams) => {
    setFolderSettings(state, params.folders ?? []);
    parts.recheckAll();
    recheckDiskFiles();
  });

  connection.onNotification(DidChangeEnvironments, (params: DidChangeEnvironmentsParams) => {
    setEnvironments(state, params.environments ?? []);
    parts.recheckAll();
    recheckDiskFiles();
  });

  connection.onRequest(PinsRequest, (raw: unknown): PinsResult | null => {
    const params = checkedParams<PinsParams>(PinsRequest, raw, { uri: { kind: 'string', required: true } });
    const file = filePath(params.uri);
    if (!file || !parts.catalog()) return null;
    const ctx = parts.contextFor(file);
    const { pins: manifest, base } = parts.manifestFor(file);
    const extra = editorPins(state, file, manifest.candidates, ctx.settings);
    const candidates = extra?.candidates ?? manifest.candidates;
    const absolute = (shown: string) => (isAbsolute(shown) ? shown : join(base, shown));
    const pins: PinInfo[] = [...ctx.pins.values()]
      .map((pin) => {
        const matrix = matrixForDistribution(pin.distribution);
        const fromFile = pin.origin.line !== null;
        return {
          distribution: pin.distribution,
          library: matrix?.library ?? null,
          specifier: pin.specifier,
          exactVersion: pin.exactVersion,
          kind: pin.kind ?? 'requirement',
          origin: describeOrigin(pin.origin),
          originUri: fromFile ? pathToUri(absolute(pin.origin.file)) : null,
          originLine: fromFile ? pin.origin.line! - 1 : null,
          trackedVersions: [...(matrix?.versions ?? [])],
          checkedVersions: versionsUnder(pin, matrix),
          overridden: (candidates.get(pin.distribution) ?? []).slice(1).map((p) => `${p.distribution}${p.specifier} (${describeOrigin(p.origin)})`),
        };
      })
      .sort((a, b) => Number(b.library !== null) - Number(a.library !== null) || (a.distribution < b.distribution ? -1 : 1));
    const pinned = new Set(pins.map((p) => p.distribution));
    const doc = parts.documents.get(params.uri);
    const syntax = doc && doc.languageId === 'python' ? parts.analyses()?.syntaxFor(params.uri, doc.getText()) : undefined;
    const coverage = syntax ? coverageFor(syntax, ctx) : [];
    return {
      file,
      pins,
      manifests: manifest.manifests.map((m) => pathToUri(m)),
      settingsFile: manifest.settingsFile ? pathToUri(manifest.settingsFile) : null,
      manifestsOff: extra?.manifestsOff ?? [],
      problems: manifest.problems.map((p) => `${p.file}:${p.line}: ${p.message}`),
      unpinned: (parts.catalog()?.libraries() ?? []).filter((m) => !pinned.has(normalizeDistributionName(m.distribution))).map((m) => m.library),
      coverage,
      found: manifest.found ? { how: manifest.found.how, chosen: manifest.found.chosen.map((p) => pathToUri(p)), candidates: manifest.found.candidates.map((p) => pathToUri(p)), ambiguous: manifest.found.ambiguous } : null,
      manifestCandidates: parts.manifestCandidates(file).map((p) => pathToUri(p)),
    };
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
      const refs = analyses.syntaxFor(doc.uri, doc.getText()).references;
      api = apiAt(refs, { line: params.position.line, column: params.position.character })?.path;
      if (!api) return null;
    }
    if (!api) return { error: 'name an API, e.g. numpy.trapezoid', suggestions: [] };
    const root = api.split('.')[0]!;
    const matrix = catalog.forImportRoot(root);
    if (!matrix) {
      return { error: `no matrix tracks ${root}`, suggestions: catalog.libraries().map((m) => m.library) };
    }
    const history = matrix.lookup(api);
    if (!history) {
      const parent = api.slice(0, api.lastIndexOf('.'));
      return { error: `${api} is in no tracked version of ${matrix.distribution} (${matrix.versions.join(', ')})`, suggestions: parent && matrix.lookup(parent) ? [parent] : [] };
    }
    const pin = file ? parts.contextFor(file).pins.get(normalizeDistributionName(matrix.distribution)) : undefined;
    const pinned = new Set(pin ? versionsUnder(pin, matrix) : []);
    const user = new Set(userVersionsOf(matrix.library));
    const short = api.slice(api.lastIndexOf('.') + 1);
    const at = pin?.exactVersion ? stateAt(history, pin.exactVersion, matrix.versions) : undefined;
    const docs = [...new Set(history.versions.map((c) => c.doc).filter((d): d is string => !!d))];
    const related = [...new Set(docs.flatMap((d) => matrix.apisWithDoc(d)))].filter((a) => a !== api).slice(0, 8);
    return {
      api,
      library: matrix.library,
      distribution: matrix.distribution,
      kind: history.kind,
      versions: history.versions.map((c) => ({
        version: c.version,
        state: c.state,
        kind: c.kind,
        signature: c.signature ? formatSignature(short, c.signature) : null,
        signatureSource: c.signatureSource,
        doc: c.doc,
        pinned: pinned.has(c.version),
        user: user.has(c.version),
      })),
      bands: bands(history, short, pinned),
      pin: pin ? `${matrix.distribution}${pin.specifier} (${describeOrigin(pin.origin)})` : null,
      atPin: at ? { version: at.version, state: at.state, basis: at.basis } : null,
      related,
    };
  });

  connection.onRequest(LibrariesRequest, (): LibraryInfo[] =>
    (parts.catalog()?.libraries() ?? []).map((m) => ({ library: m.library, distribution: m.distribution, versions: [...m.versions], userVersions: [...userVersionsOf(m.library)] })),
  );

  connection.onRequest(CheckFilesRequest, async (raw: unknown, token): Promise<CheckFilesResult> => {
    const params = checkedParams<CheckFilesParams>(CheckFilesRequest, raw, { uris: { kind: 'string[]', required: true } });
    const result: CheckFilesResult = { checked: 0, findings: 0, failed: [] };
    if (!parts.catalog()) return { ...result, failed: params.uris.map((uri) => ({ uri, reason: 'the matrices are not loaded' })) };
    await parts.analysesReady();
    for (const uri of params.uris) {
      if (token.isCancellationRequested) break;
      const file = filePath(uri);
      if (!file) continue;
      try {
        const open = parts.documents.get(uri);
        inWorkspaceCheck.add(uri);
        if (open) {
          // Open documents have their own, live diagnostics; count them without publishing over them.
          result.findings += checkText(uri, file, open.getText(), false);
        } else {
          if (statSync(file).size > MAX_FILE_BYTES) throw new Error(`larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; not checked`);
          result.findings += checkText(uri, file, readSourceText(file), true);
          checkedFromDisk.add(uri);
        }
        result.checked++;
      } catch (e) {
        result.failed.push({ uri, reason: (e as Error).message });
      }
      // Let cancellation and other messages in between files.
      await new Promise((r) => setImmediate(r));
    }
    return result;
  });

  parts.documents.onDidOpen((e) => checkedFromDisk.delete(e.document.uri));

  return {
    openCatalog(bundledFolder, initializationOptions, onProblem) {
      const options = (initializationOptions ?? {}) as ClientInitializationOptions;
      setFolderSettings(state, options.editorSettings ?? []);
      setEnvironments(state, options.environments ?? []);
      // The CLI's store (`anachron matrix fetch`) under the editor's own (Add Matrix Column…): both are the user's.
      const folders = [...new Set([defaultUserMatricesFolder(), ...(options.userMatricesFolder ? [options.userMatricesFolder] : [])])];
      userStores = folders.map((f) => new UserMatrixStore(f));
      layered = openLayeredCatalog(bundledFolder, folders, onProblem);
      // Only where the client says the workspace is trusted: an LSP client that says nothing gets no network or Python.
      if (options.trusted === true) {
        const catalog = layered;
        columns = new AutomaticColumns({
          connection,
          catalog: () => catalog,
          userMatricesFolder: folders[folders.length - 1],
          cacheFolder: options.cacheFolder,
          rootFor: (file) => parts.manifestFor(file).base,
          manifestsOf: (file) => parts.manifestFor(file).pins.manifests,
          interpreterFor: (file) => state.environments.for(file)?.interpreter,
          installedVersionOf: (file, distribution) => {
            const env = state.environments.for(file);
            return env ? Object.entries(env.distributions).find(([name]) => normalizeDistributionName(name) === distribution)?.[1] : undefined;
          },
          changed: () => {
            parts.analyses()?.resetVerdicts();
            parts.recheckAll();
            recheckDiskFiles();
          },
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
      return layered;
    },
    afterCheck(file, syntax, ctx) {
      if (!columns || state.settings.for(file)?.fetchColumns === false) return;
      columns.consider(file, coverageFor(syntax, ctx));
    },
    columnsIdle: () => columns?.idle() ?? Promise.resolve(),
    manifestPathsFor: (file) => state.settings.for(file)?.manifestPaths,
    hoverModeFor: (file) => state.settings.for(file)?.hover ?? 'flagged',
    closed(uri) {
      const file = filePath(uri);
      if (!file || !inWorkspaceCheck.has(uri)) return false;
      try {
        if (statSync(file).size > MAX_FILE_BYTES) return false;
        checkText(uri, file, readSourceText(file), true);
        checkedFromDisk.add(uri);
        return true;
      } catch {
        inWorkspaceCheck.delete(uri);
        return false;
      }
    },
    context(file, ctx) {
      return applyEditorState(state, file, ctx, parts.manifestFor(file).pins.candidates);
    },
  };
}
