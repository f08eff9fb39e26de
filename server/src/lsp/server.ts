// The language server: open Python documents in, diagnostics out. All analysis is the shared core's.
import { basename, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { checkPythonSource } from '../check-source.js';
import { parseRequirementsTxt } from '../core/pins.js';
import { loadPythonParser, type PythonParser } from '../parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { diskReader, pinsForFile, type ManifestReader } from '../workspace/manifests.js';
import { findingToDiagnostic, manifestProblemToDiagnostic } from './to-diagnostic.js';

interface InitializationOptions {
  matricesFolder?: string;
}

const REQUIREMENTS = /^requirements.*\.txt$/i;
const CHECK_DELAY_MS = 150;

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let catalog: LoadedCatalog | undefined;
let parser: PythonParser | undefined;
let workspaceRoots: string[] = [];
let canWatchFiles = false;
const startedAt = Date.now();
let firstPublish = true;
const pending = new Map<string, NodeJS.Timeout>();
/** Pins per folder of a checked file; dropped whenever a requirements file changes (watched or edited). */
const pinsByFolder = new Map<string, ReturnType<typeof pinsForFile>>();

function filePath(uri: string): string | undefined {
  return uri.startsWith('file:') ? fileURLToPath(uri) : undefined;
}

/** Manifests open in the editor count with their unsaved text. */
const editorAwareReader: ManifestReader = {
  listDir: (dir) => diskReader.listDir(dir),
  readText: (file) => documents.get(pathToFileURL(file).toString())?.getText() ?? diskReader.readText(file),
};

function rootFor(file: string): string | undefined {
  return workspaceRoots.filter((r) => file === r || file.startsWith(r.endsWith('/') ? r : r + '/')).sort((a, b) => b.length - a.length)[0];
}

function checkDocument(doc: TextDocument): void {
  const file = filePath(doc.uri);
  if (!file) return;
  if (REQUIREMENTS.test(basename(file))) {
    const lines = doc.getText().split(/\r?\n/);
    const { problems } = parseRequirementsTxt(doc.getText(), basename(file));
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: problems.map((p) => manifestProblemToDiagnostic(p, lines[p.line - 1] ?? '')) });
    return;
  }
  if (doc.languageId !== 'python' || !catalog || !parser) return;
  const folder = dirname(file);
  let manifest = pinsByFolder.get(folder);
  if (!manifest) {
    const root = rootFor(file);
    manifest = pinsForFile(file, { root, displayBase: root ?? folder, reader: editorAwareReader });
    pinsByFolder.set(folder, manifest);
  }
  const { pins } = manifest;
  const diagnostics = checkPythonSource(parser, doc.getText(), { catalog, pins }).map(findingToDiagnostic);
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  if (firstPublish) {
    firstPublish = false;
    connection.console.info(`anachron: first diagnostics ${Date.now() - startedAt} ms after start`);
  }
}

function scheduleCheck(doc: TextDocument, delay = CHECK_DELAY_MS): void {
  clearTimeout(pending.get(doc.uri));
  pending.set(
    doc.uri,
    setTimeout(() => {
      pending.delete(doc.uri);
      const current = documents.get(doc.uri);
      if (!current) return;
      try {
        checkDocument(current);
      } catch (e) {
        connection.console.error(`anachron: checking ${doc.uri} failed: ${(e as Error).stack ?? e}`);
      }
    }, delay),
  );
}

function recheckAll(): void {
  pinsByFolder.clear();
  for (const doc of documents.all()) scheduleCheck(doc, 0);
}

connection.onInitialize((params: InitializeParams) => {
  const options = (params.initializationOptions ?? {}) as InitializationOptions;
  workspaceRoots = (params.workspaceFolders ?? []).map((f) => filePath(f.uri)).filter((p): p is string => p !== undefined);
  if (workspaceRoots.length === 0 && params.rootUri) {
    const root = filePath(params.rootUri);
    if (root) workspaceRoots = [root];
  }
  canWatchFiles = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
  const folder = options.matricesFolder ?? defaultMatricesFolder();
  catalog = openMatrixCatalog(folder);
  return {
    capabilities: { textDocumentSync: TextDocumentSyncKind.Incremental },
    serverInfo: { name: 'anachron', version: '0.1.0' },
  };
});

connection.onInitialized(async () => {
  for (const problem of catalog?.problems ?? []) {
    connection.console.error(`anachron: ${problem}`);
    void connection.window.showErrorMessage(`anachron: ${problem}. Reinstall the extension or rebuild the matrices (npm run build:matrices).`);
  }
  if (canWatchFiles) {
    void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/requirements*.txt' }] });
  }
  try {
    parser = await loadPythonParser();
  } catch (e) {
    connection.console.error(`anachron: cannot load the Python parser: ${(e as Error).message}`);
    void connection.window.showErrorMessage(`anachron cannot load its Python parser (${(e as Error).message}); diagnostics are off.`);
    return;
  }
  connection.console.info(`anachron: ready in ${Date.now() - startedAt} ms; matrices: ${catalog?.matrices.map((m) => `${m.library} (${m.versions.join(', ')})`).join('; ') || 'none'}`);
  recheckAll();
});

connection.onDidChangeWatchedFiles(() => recheckAll());
connection.onShutdown(() => catalog?.close());

documents.onDidOpen((e) => scheduleCheck(e.document, 0));
documents.onDidChangeContent((e) => {
  scheduleCheck(e.document);
  const file = filePath(e.document.uri);
  if (file && REQUIREMENTS.test(basename(file))) recheckAll();
});
documents.onDidClose((e) => {
  const file = filePath(e.document.uri);
  if (file && REQUIREMENTS.test(basename(file))) recheckAll(); // back to the text on disk
  clearTimeout(pending.get(e.document.uri));
  pending.delete(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

documents.listen(connection);
connection.listen();
