// The language server: open documents in; diagnostics, hovers and quick fixes out. All analysis is the shared
// core's; this file only adapts it to LSP.
import { internalErrorReport } from '../core/errors.js';
import { basename, dirname, isAbsolute, join } from 'node:path';
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  MarkupKind,
  Message,
  ResponseError,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type CodeAction,
  type InitializeParams,
  type RequestMessage,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loneCrAsNewlineDocuments } from './lone-cr-documents.js';
import { planFixAll } from '../core/fix-all.js';
import { findingData } from '../core/findings.js';
import { fixesFor, type Fix, type FixableFinding, type TextEdit } from '../core/fixes.js';
import { raiseTargetFor as raiseTargetOf } from '../core/lowest-version.js';
import { compareVersions, isValidVersion, satisfies } from '../core/versions.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { hoverFor, spansOfApiAt } from '../core/hover.js';
import type { SourceRange } from '../core/source-range.js';
import { isManifestName, parseManifest } from '../core/manifests/index.js';
import { MANIFEST_GLOB } from '../core/manifests/names.js';
import { loadPythonParser, type PythonParser } from '../parser/python-parser.js';
import type { LoadedCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { chooseSqlite } from '../store/sqlite/driver.js';
import { isInside, uriToPath } from '../workspace/file-uri.js';
import { SEARCHED_MANIFEST_GLOBS, type ManifestCandidate } from '../workspace/manifest-search.js';
import { diskReader, pinsForFile, searchedManifestsFor, type ManifestReader } from '../workspace/manifests.js';
import { registerAgentRequests } from './agent-requests.js';
import { readInitializationOptions, tellClientProblems } from './client-options.js';
import { registerCustomRequests } from './custom-requests.js';
import { DocumentAnalyses } from './document-analyses.js';
import { IdleCollection } from './idle-collection.js';
import { openDocumentAt, uriOfFile } from './open-documents.js';
import type { ServerInitializationInfo } from './protocol.js';
import { findingToDiagnostic, manifestProblemToDiagnostic, type DiagnosticPlaces, type FindingData } from './to-diagnostic.js';
import { findingRule } from '../core/rules/index.js';

const findingRuleFixes = (code: string) => findingRule(code)?.fixes ?? [];

/** A document whose last check took longer than this waits for a pause in typing before it is checked again. */
const QUICK_CHECK_MS = 50;
/** That pause: long enough to span the keystrokes of a word, short enough to feel immediate after it. */
const PAUSE_MS = 150;
/** ANACHRON_LOG_TIMING=1 logs what each check waited for and took (the perf/ scripts read it). */
const LOG_TIMING = process.env.ANACHRON_LOG_TIMING === '1';

/** Set by the shutdown request: from then on only exit is served (LSP: other requests get InvalidRequest). */
let shutDown = false;
const AFTER_SHUTDOWN = 'anachron/$afterShutdown';
const connection = createConnection(ProposedFeatures.all, {
  messageStrategy: {
    handleMessage(message, next) {
      if (shutDown && Message.isRequest(message)) next({ ...message, method: AFTER_SHUTDOWN } as RequestMessage);
      else if (!shutDown || !Message.isNotification(message) || message.method === 'exit') next(message);
    },
  },
});
connection.onRequest(AFTER_SHUTDOWN, () => {
  throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shut down: only exit is accepted');
});
const documents = new TextDocuments(loneCrAsNewlineDocuments);
let catalog: LoadedCatalog | undefined;
let parser: PythonParser | undefined;
let analyses: DocumentAnalyses | undefined;
// The parser's WebAssembly compiles while the client and the server exchange initialize: started at once.
const parserLoading = loadPythonParser();
parserLoading.catch(() => {}); // reported when awaited, in onInitialized
let parserLoaded: () => void;
const analysesReady = new Promise<void>((resolve) => (parserLoaded = resolve));
let workspaceRoots: string[] = [];
let canWatchFiles = false;
const startedAt = Date.now();
let firstPublish = true;
const pending = new Map<string, { timer: NodeJS.Timeout; since: number }>();
/** Pins per folder of a checked file; dropped whenever a manifest changes (watched or edited). */
const pinsByFolder = new Map<string, ReturnType<typeof pinsForFile>>();
/** What the manifest search found per project folder; dropped with pinsByFolder. */
const manifestSearches = new Map<string, ManifestCandidate[]>();

const filePath = (uri: string): string | undefined => uriToPath(uri);

/** Manifests open in the editor count with their unsaved text. */
const editorAwareReader: ManifestReader = {
  listDir: (dir) => diskReader.listDir(dir),
  readText: (file) => openDocumentAt(documents, file)?.getText() ?? diskReader.readText(file),
  whyUnreadable: (file) => diskReader.whyUnreadable?.(file),
  realPath: (file) => diskReader.realPath?.(file) ?? file,
};

function rootFor(file: string): string | undefined {
  return workspaceRoots.filter((r) => isInside(r, file)).sort((a, b) => b.length - a.length)[0];
}

function manifestFor(file: string): { pins: ReturnType<typeof pinsForFile>; base: string } {
  const folder = dirname(file);
  const root = rootFor(file);
  let manifest = pinsByFolder.get(folder);
  if (!manifest) {
    manifest = pinsForFile(file, { root, displayBase: root ?? folder, reader: editorAwareReader, manifestPaths: editor.manifestPathsFor(file), searchCache: manifestSearches });
    pinsByFolder.set(folder, manifest);
  }
  return { pins: manifest, base: root ?? folder };
}

/** Where a diagnostic's related information points: the document, and the manifests its notes name. */
function placesFor(uri: string, file: string): DiagnosticPlaces {
  const base = manifestFor(file).base;
  // Every finding names the same few manifests: each looked up once per publish (the lookup scans the open documents).
  const uris = new Map<string, string>();
  const manifestUri = (shown: string) => {
    let found = uris.get(shown);
    if (found === undefined) uris.set(shown, (found = uriOfFile(documents, isAbsolute(shown) ? shown : join(base, shown))));
    return found;
  };
  return { uri, manifestUri };
}

function contextFor(file: string) {
  const { pins } = manifestFor(file);
  return editor.context(file, { catalog: catalog!, pins: pins.pins, settings: pins.settings, localModules: pins.localModules });
}

async function checkDocument(doc: TextDocument): Promise<void> {
  const file = filePath(doc.uri);
  if (!file || shutDown) return; // after shutdown the catalog is closed: a check still scheduled does nothing
  if (isManifestName(basename(file))) {
    const lines = doc.getText().split(/\r?\n/);
    const { problems } = parseManifest(basename(file), doc.getText(), basename(file));
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: problems.map((p) => manifestProblemToDiagnostic(p, lines[p.line - 1] ?? '')) });
    return;
  }
  if (doc.languageId !== 'python' || !catalog || !analyses) return;
  // The facts of a large document are read in slices, requests answered in between; an edit meanwhile stops them
  // (its own check is scheduled).
  const text = doc.getText();
  const version = doc.version;
  if (!(await analyses.prepare(doc.uri, text, () => !shutDown && documents.get(doc.uri)?.version === version))) return;
  if (shutDown || !catalog) return;
  const ctx = contextFor(file);
  const places = placesFor(doc.uri, file);
  const diagnostics = analyses.findings(doc.uri, text, ctx).map((f) => findingToDiagnostic(f, places));
  void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
  editor.afterCheck(file, analyses.syntaxFor(doc.uri, text), ctx);
  if (firstPublish) {
    firstPublish = false;
    connection.console.info(`anachron: first diagnostics ${Date.now() - startedAt} ms after start`);
  }
}

/** Small files are checked on the next turn of the event loop; where checking is slow, after a pause in typing. */
function delayFor(uri: string): number {
  const last = analyses?.timing(uri)?.millis;
  return last === undefined || last <= QUICK_CHECK_MS ? 0 : PAUSE_MS;
}

/** Documents whose check is under way (it may be waiting between slices), and requests waiting for a first analysis. */
const checking = new Set<string>();
const waitingForAnalysis = new Map<string, (() => void)[]>();
/** The garbage of the checks collected once the server rests (idle-collection.ts). */
const idle = new IdleCollection(
  () => pending.size > 0 || checking.size > 0,
  (millis) => LOG_TIMING && connection.console.info(`anachron: timing idle collection in ${millis.toFixed(1)} ms`),
);

/** Resolves once the document has been analysed, or no check of it is scheduled or under way. */
function firstAnalysisOf(uri: string): Promise<void> {
  if (!analyses || analyses.hasAnalysed(uri) || (!pending.has(uri) && !checking.has(uri))) return Promise.resolve();
  return new Promise((resolve) => {
    const list = waitingForAnalysis.get(uri);
    if (list) list.push(resolve);
    else waitingForAnalysis.set(uri, [resolve]);
  });
}

/** Lets the requests waiting for the document go on (its check is done, none is scheduled, or it closed). */
function releaseWaiting(uri: string): void {
  const list = waitingForAnalysis.get(uri);
  waitingForAnalysis.delete(uri);
  for (const resolve of list ?? []) resolve();
}

function scheduleCheck(doc: TextDocument, delay = delayFor(doc.uri)): void {
  clearTimeout(pending.get(doc.uri)?.timer);
  const since = performance.now();
  // The check runs on the turn after its timer: replies the connection has queued by then (a hover answered while the
  // check waited for a pause in typing; vscode-jsonrpc writes on setImmediate) go out first instead of after it.
  const timer = setTimeout(() => setImmediate(() => {
    if (pending.get(doc.uri)?.timer !== timer) return; // rescheduled meanwhile
    pending.delete(doc.uri);
    const current = documents.get(doc.uri);
    if (!current) return;
    const waited = performance.now() - since;
    checking.add(doc.uri);
    const settled = () => {
      checking.delete(doc.uri);
      if (!pending.has(doc.uri)) releaseWaiting(doc.uri);
      idle.checked();
    };
    void checkDocument(current).then(
      () => {
        settled();
        const timing = LOG_TIMING ? analyses?.timing(doc.uri) : undefined;
        if (timing) {
          connection.console.info(`anachron: timing ${doc.uri} v${current.version}: waited ${waited.toFixed(1)} ms, checked in ${timing.millis.toFixed(1)} ms, read ${timing.chunksRead} of ${timing.chunks} chunks`);
        }
      },
      (e: unknown) => {
        settled();
        connection.console.error(internalErrorReport(e, `anachron: checking ${doc.uri}`));
      },
    );
  }), delay);
  pending.set(doc.uri, { timer, since });
}

function manifestCandidates(file: string): string[] {
  const root = rootFor(file);
  return searchedManifestsFor(file, { root, displayBase: root ?? dirname(file), reader: editorAwareReader, searchCache: manifestSearches });
}

function recheckAll(): void {
  pinsByFolder.clear();
  manifestSearches.clear();
  for (const doc of documents.all()) scheduleCheck(doc, 0);
}

connection.onInitialize(async (params: InitializeParams) => {
  const { value: options, problems } = readInitializationOptions(params.initializationOptions);
  clientProblems = problems;
  workspaceRoots = (params.workspaceFolders ?? []).map((f) => filePath(f.uri)).filter((p): p is string => p !== undefined);
  if (workspaceRoots.length === 0 && params.rootUri) {
    const root = filePath(params.rootUri);
    if (root) workspaceRoots = [root];
  }
  canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  // better-sqlite3 where it loads, else the WebAssembly SQLite (desktop VS Code's Electron, another Node's ABI).
  const { driver, nativeUnavailable } = await chooseSqlite();
  connection.console.info(`anachron: matrices read with ${driver.label}${nativeUnavailable ? ` (${nativeUnavailable})` : ''}`);
  catalog = editor.openCatalog(options.matricesFolder ?? defaultMatricesFolder(), options, reportMatrixProblem);
  const info: ServerInitializationInfo = { store: driver.kind, storeLabel: driver.label, ...(nativeUnavailable ? { nativeUnavailable } : {}) };
  return {
    anachron: info,
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL] },
    },
    serverInfo: { name: 'anachron', version: '0.1.0' },
  };
});

/** Problems with the matrices reach the user when found (a matrix is opened when first needed); held until initialized. */
let heldProblems: string[] | undefined = [];
function reportMatrixProblem(problem: string): void {
  if (heldProblems) {
    heldProblems.push(problem);
    return;
  }
  connection.console.error(`anachron: ${problem}`);
  void connection.window.showErrorMessage(`anachron: ${problem}. Reinstall the extension or rebuild the matrices (npm run build:matrices).`);
}

/** What initialize found ill-shaped in initializationOptions, told once initialized. */
let clientProblems: string[] = [];

connection.onInitialized(async () => {
  const held = heldProblems ?? [];
  heldProblems = undefined;
  held.forEach(reportMatrixProblem);
  tellClientProblems(connection, clientProblems);
  if (canWatchFiles) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [MANIFEST_GLOB, ...SEARCHED_MANIFEST_GLOBS].map((globPattern) => ({ globPattern })),
    });
  }
  try {
    parser = await parserLoading;
    analyses = new DocumentAnalyses(parser);
  } catch (e) {
    parserLoaded();
    connection.console.error(`anachron: cannot load the Python parser: ${(e as Error).message}`);
    void connection.window.showErrorMessage(`anachron cannot load its Python parser (${(e as Error).message}); diagnostics are off.`);
    return;
  }
  parserLoaded();
  connection.console.info(`anachron: ready in ${Date.now() - startedAt} ms; matrices: ${catalog?.names.join(', ') || 'none'} (each opened when first needed)`);
  recheckAll();
});

/**
 * A hover on a pin in a manifest (issue 16, point 9): the tracked versions around it, and which of them the
 * checker applies; nothing for a distribution no matrix tracks.
 */
function pinHover(doc: TextDocument, file: string, line: number) {
  if (!catalog) return null;
  const pin = parseManifest(basename(file), doc.getText(), basename(file)).pins.find((p) => p.origin.line === line + 1);
  const matrix = pin && catalog.libraries().find((m) => normalizeDistributionName(m.distribution) === pin.distribution);
  if (!pin || !matrix) return null;
  const versions = matrix.versions;
  const lines = [`**${matrix.distribution}${pin.specifier}** — anachron tracks ${versions.length} versions of ${matrix.library} (${versions[0]}–${versions[versions.length - 1]})`, ''];
  if (pin.exactVersion) {
    const below = [...versions].reverse().find((v) => compareVersions(v, pin.exactVersion!) < 0);
    const above = versions.find((v) => compareVersions(v, pin.exactVersion!) > 0);
    if (versions.includes(pin.exactVersion)) lines.push(`${pin.exactVersion} is tracked: checked against its own column.`);
    else lines.push(`${pin.exactVersion} is not tracked: judged where ${below ?? 'the oldest'} and ${above ?? 'the newest'} agree (anachron matrix fetch ${matrix.distribution}==${pin.exactVersion} covers it).`);
    lines.push('', `Around it: ${[below, pin.exactVersion, above].filter((v): v is string => !!v).map((v) => (v === pin.exactVersion ? `**${v}**` : v)).join(' · ')}`);
  } else {
    const allowed = pin.specifier ? versions.filter((v) => satisfies(v, pin.specifier)) : [];
    lines.push(pin.specifier ? `Checked at the ${allowed.length} tracked versions it allows${allowed.length ? `: ${allowed.length > 8 ? `${allowed.slice(0, 4).join(', ')} … ${allowed.slice(-3).join(', ')}` : allowed.join(', ')}` : ''}.` : 'A bare name pins no version: nothing is checked.');
  }
  const text = doc.getText().split(/\r?\n/)[line] ?? '';
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') }, range: { start: { line, character: 0 }, end: { line, character: text.length } } };
}

connection.onHover(async (params, token) => {
  const opened = documents.get(params.textDocument.uri);
  const manifest = filePath(params.textDocument.uri);
  if (opened && manifest && isManifestName(basename(manifest))) return pinHover(opened, manifest, params.position.line);
  // A document not analysed yet (just opened) is answered after its check, which reads a large file in slices with
  // requests answered between them, instead of by a whole analysis here that would hold the server up.
  await firstAnalysisOf(params.textDocument.uri);
  // One turn for what the client sent meanwhile: a cancel (the cursor moved on) spares the analysis of an edited text.
  await new Promise((resolve) => setImmediate(resolve));
  if (token.isCancellationRequested) return null;
  const doc = documents.get(params.textDocument.uri);
  const file = filePath(params.textDocument.uri);
  if (!doc || !file || doc.languageId !== 'python' || !analyses || !catalog || shutDown) return null;
  // By default only a reference with a finding gets the timeline: a valid call's hover would sit on the language server's own.
  const mode = editor.hoverModeFor(file);
  if (mode === 'never') return null;
  const position = { line: params.position.line, column: params.position.character };
  // Only the references of the statement under the cursor are placed in the file (and searched), not the file's all.
  const refs = analyses.syntaxFor(doc.uri, doc.getText()).referencesAt(position);
  const ctx = contextFor(file);
  const hover = hoverFor(refs, position, ctx);
  if (!hover) return null;
  if (mode === 'flagged') {
    const spans = spansOfApiAt(refs, hover.range);
    if (!analyses.findingsAt(doc.uri, doc.getText(), position, ctx).some((f) => spans.some((s) => overlaps(f.range, s)))) return null;
  }
  return {
    contents: { kind: MarkupKind.Markdown, value: hover.markdown },
    range: { start: { line: hover.range.start.line, character: hover.range.start.column }, end: { line: hover.range.end.line, character: hover.range.end.column } },
  };
});

/** Whether two ranges share a character (or touch, for empty ones). */
function overlaps(a: SourceRange, b: SourceRange): boolean {
  const before = (x: SourceRange['start'], y: SourceRange['start']) => x.line < y.line || (x.line === y.line && x.column < y.column);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

const toLsp = (e: TextEdit): LspTextEdit => ({
  range: { start: { line: e.range.start.line, character: e.range.start.column }, end: { line: e.range.end.line, character: e.range.end.column } },
  newText: e.newText,
});

/** "Fix all in file": on save (editor.codeActionsOnSave) and from the source action menu. */
const FIX_ALL = `${CodeActionKind.SourceFixAll}.anachron`;
/** Whether a request restricted to `only` kinds (absent: any) asks for `kind`. */
const asksFor = (only: string[] | undefined, kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));

/** The raise-to-every-use version per document version, library and pin (code actions are asked for on every cursor move). */
const raiseTargets = new Map<string, string | null>();

/** The lowest tracked version at which every use of the finding's library in the document works (core/lowest-version.ts). */
function raiseTargetFor(doc: TextDocument, file: string, f: FixableFinding): string | null | undefined {
  if (!analyses || !catalog) return undefined;
  const ctx = contextFor(file);
  const key = `${doc.uri}\0${doc.version}\0${f.library}\0${f.pin}`;
  if (raiseTargets.has(key)) return raiseTargets.get(key);
  const target = raiseTargetOf(analyses.syntaxFor(doc.uri, doc.getText()), f, ctx.catalog, ctx.localModules);
  if (target === undefined) return undefined;
  if (raiseTargets.size >= 64) raiseTargets.clear();
  raiseTargets.set(key, target);
  return target;
}

connection.onCodeAction((params) => {
  const doc = documents.get(params.textDocument.uri);
  const file = filePath(params.textDocument.uri);
  if (!doc || !file || !analyses) return [];
  // The top-level statements only for a request that has a finding to fix.
  let tops: ReturnType<typeof analyses.trees.topStatementsFor> | undefined;
  const base = manifestFor(file).base;
  const manifestPath = (shown: string) => (isAbsolute(shown) ? shown : join(base, shown));
  const fixesOf = (finding: FixableFinding): Fix[] => {
    tops ??= analyses!.trees.topStatementsFor(doc.uri, doc.getText());
    const raiseTo = findingRuleFixes(finding.code).includes('raise-pin') ? raiseTargetFor(doc, file, finding) : undefined;
    return fixesFor(finding, doc.getText(), tops, (shown) => editorAwareReader.readText(manifestPath(shown)), { raiseTo });
  };
  const changesOf = (edits: TextEdit[], manifests: Iterable<[string, TextEdit[]]>) => {
    const changes: Record<string, LspTextEdit[]> = {};
    if (edits.length) changes[doc.uri] = edits.map(toLsp);
    for (const [shown, list] of manifests) changes[uriOfFile(documents, manifestPath(shown))] = list.map(toLsp);
    return changes;
  };
  const only = params.context.only;
  const actions: CodeAction[] = [];
  // Fix all in file: every finding of the document, not only those at the cursor.
  const fixAll = () => {
    if (!catalog) return undefined;
    const findings = analyses!.findings(doc.uri, doc.getText(), contextFor(file)).map((f): FixableFinding => ({ ...findingData(f), code: f.code, range: f.range }));
    const plan = planFixAll(findings, fixesOf);
    return plan.fixed === 0 ? undefined : { plan, changes: changesOf(plan.edits, plan.manifests) };
  };
  if (only && !asksFor(only, CodeActionKind.QuickFix)) {
    const all = asksFor(only, FIX_ALL) ? fixAll() : undefined;
    if (all) actions.push({ title: `Fix all anachron findings in this file (${all.plan.summary.join('; ')})`, kind: FIX_ALL, edit: { changes: all.changes } });
    return actions;
  }
  let anachron = 0;
  for (const diagnostic of params.context.diagnostics) {
    if (diagnostic.source !== 'anachron' || !diagnostic.data) continue;
    anachron++;
    const data = diagnostic.data as FindingData;
    const finding: FixableFinding = {
      ...data,
      code: String(diagnostic.code),
      range: { start: { line: diagnostic.range.start.line, column: diagnostic.range.start.character }, end: { line: diagnostic.range.end.line, column: diagnostic.range.end.character } },
    };
    for (const fix of fixesOf(finding)) {
      const changes = changesOf(fix.edits, fix.manifest ? [[fix.manifest.file, fix.manifest.edits]] : []);
      actions.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: fix.preferred, edit: { changes } });
    }
  }
  // Beside the fixes at the cursor: all of the file's at once, where that is more than one finding.
  if (anachron > 0) {
    const all = fixAll();
    if (all && all.plan.fixed > 1) actions.push({ title: `Fix all ${all.plan.fixed} anachron findings in this file (${all.plan.summary.join('; ')})`, kind: CodeActionKind.QuickFix, edit: { changes: all.changes } });
  }
  return actions;
});

connection.onDidChangeWatchedFiles(() => recheckAll());
const editor = registerCustomRequests(connection, { documents, catalog: () => catalog, analyses: () => analyses, analysesReady: () => analysesReady, manifestFor, manifestCandidates, contextFor, placesFor, recheckAll });
registerAgentRequests(connection, {
  documents,
  catalog: () => catalog,
  roots: () => workspaceRoots,
  contextFor,
  manifestBase: (file) => manifestFor(file).base,
  readManifest: (file) => editorAwareReader.readText(file),
});
connection.onShutdown(() => {
  shutDown = true;
  idle.stop();
  for (const { timer } of pending.values()) clearTimeout(timer);
  pending.clear();
  for (const uri of [...waitingForAnalysis.keys()]) releaseWaiting(uri);
  catalog?.close();
});

const isManifest = (file: string | undefined) => !!file && isManifestName(basename(file));

documents.onDidOpen((e) => scheduleCheck(e.document, 0));
documents.onDidChangeContent((e) => {
  scheduleCheck(e.document);
  if (isManifest(filePath(e.document.uri))) recheckAll();
});
documents.onDidClose((e) => {
  if (isManifest(filePath(e.document.uri))) recheckAll(); // back to the text on disk
  analyses?.forget(e.document.uri);
  clearTimeout(pending.get(e.document.uri)?.timer);
  pending.delete(e.document.uri);
  releaseWaiting(e.document.uri);
  let kept = false;
  try {
    kept = !shutDown && !!analyses && editor.closed(e.document.uri);
  } catch (err) {
    connection.console.error(internalErrorReport(err, `anachron: checking ${e.document.uri} from disk after it closed`));
  }
  if (!kept) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

documents.listen(connection);
connection.listen();
