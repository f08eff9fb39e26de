// The VS Code side of anachron: starts the bundled language server on VS Code's own runtime (or anachron.server.nodePath)
// with the bundled (and the user's) matrices, keeps it fed with the editor's settings and the selected interpreter's
// installed versions, shows the pins in force, and offers the commands. Only this folder knows the VS Code API.
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import {
  commands,
  Disposable,
  languages,
  Range,
  Selection,
  TextEditorRevealType,
  Uri,
  window,
  workspace,
  type ExtensionContext,
  type TextDocument,
} from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type NodeModule,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  DidChangeEditorSettings,
  DidChangeEnvironments,
  HistoryRequest,
  PinsRequest,
  type ClientInitializationOptions,
  type FolderEnvironment,
  type ServerInitializationInfo,
  type HistoryParams,
  type HistoryResponse,
  type PinsResult,
} from '../../server/src/lsp/protocol.js';
import { addMatrixColumn, removeUserMatrices } from './add-column.js';
import { AgentFeatures } from './agents.js';
import { openBenchmarkReports } from './eval/reports-command.js';
import { editorRunsFolders, runBenchmark } from './eval/run-command.js';
import { checkWorkspace } from './check-workspace.js';
import { chooseManifest } from './choose-manifest.js';
import { HistoryPanel } from './history-panel.js';
import { describeInterpreter, installedDistributions, Interpreters } from './interpreter.js';
import { createLogChannel, type LeveledChannel } from './log.js';
import { chooseRuntime, describeRuntime, type Runtime } from './server-runtime.js';
import { addressSpaceLimit } from '../../server/src/wasm-memory.js';
import { affectsAny, allFolderSettings, INTERPRETER_SETTINGS, nodePathSetting, RESTART_SETTINGS, SERVER_SETTINGS } from './settings.js';
import { coverageRequirement, describeCoverageReason } from '../../server/src/core/coverage-text.js';
import { isManifestName, MANIFEST_GLOB } from '../../server/src/core/manifests/names.js';
import { SEARCHED_MANIFEST_GLOBS } from '../../server/src/workspace/manifest-search.js';
import type { AnachronSession } from './session.js';
import { PinsStatus } from './status.js';
import { showRulePagesRendered } from './rule-pages.js';


/**
 * The language client logs every exit of the server process as an error, a normal stop (restart, reload, a
 * settings change that needs a new process) too: that one, code 0, is an info line.
 */
class AnachronLanguageClient extends LanguageClient {
  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    if (message === 'Server process exited with code 0.') this.info(message, data, false);
    else super.error(message, data, showNotification);
  }
}

/** Crashes within this window count towards giving up. */
const CRASH_WINDOW_MS = 3 * 60_000;
const MAX_CRASHES = 4;

export class Anachron implements Disposable, AnachronSession {
  client: LanguageClient | undefined;
  /** The runtime the server and the CLI run on. */
  runtime: Runtime | undefined;
  readonly log: LeveledChannel;
  readonly status = new PinsStatus();
  readonly interpreters: Interpreters;
  readonly history: HistoryPanel;
  private environments: FolderEnvironment[] = [];
  private crashes: number[] = [];
  private stopping = false;
  private starting: Promise<void> | undefined;
  private pinsTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly disposables: Disposable[] = [];

  constructor(readonly context: ExtensionContext) {
    this.log = createLogChannel();
    this.interpreters = new Interpreters((m) => this.log.info(m));
    this.history = new HistoryPanel(context, (params) => this.request<HistoryResponse | null>(HistoryRequest, params));
    this.status.setRestricted(!workspace.isTrusted);
  }

  /** Where users' matrix columns go (anachron: Add Matrix Column…): the extension's global storage. */
  get userMatricesFolder(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'matrices');
  }

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  async request<R>(method: string, params?: unknown): Promise<R | undefined> {
    if (!this.client || !this.running) {
      void window.showWarningMessage('anachron is not running. Run "anachron: Restart Server", or see the output for why.', 'Show Output').then((c) => c && this.log.show(true));
      return undefined;
    }
    return (await this.client.sendRequest(method, params)) as R;
  }

  start(): Promise<void> {
    if (!workspace.getConfiguration('anachron').get<boolean>('enable', true)) {
      this.status.setState({ kind: 'disabled' });
      this.log.info('anachron.enable is off: the server is not started');
      return Promise.resolve();
    }
    this.starting ??= this.doStart().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async doStart(): Promise<void> {
    this.status.setState({ kind: 'starting' });
    const extensionPath = this.context.extensionPath;
    const choice = await chooseRuntime({
      configured: nodePathSetting(),
      hostExecutable: process.execPath,
      hostNode: process.version,
      hostAccepts: (flag) => process.allowedNodeEnvironmentFlags.has(flag),
      addressSpaceLimit: addressSpaceLimit(),
    });
    if (choice.rejected) {
      const message = `anachron.server.nodePath (${choice.rejected.path}) cannot run the server: ${choice.rejected.reason}; using VS Code's own runtime instead.`;
      this.log.warn(message);
      void window.showWarningMessage(`anachron: ${message}`, 'Open Setting').then((c) => c && void commands.executeCommand('workbench.action.openSettings', 'anachron.server.nodePath'));
    }
    this.runtime = choice.runtime;
    const serverModule = path.join(extensionPath, 'dist', 'server.js');
    const node: NodeModule = { module: serverModule, transport: TransportKind.ipc, options: { execArgv: choice.runtime.nodeArgs } };
    if (choice.runtime.kind !== 'vscode') node.runtime = choice.runtime.path;
    const serverOptions: ServerOptions = { run: node, debug: { ...node, options: { execArgv: [...choice.runtime.nodeArgs, '--nolazy', '--inspect=6009'] } } };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'python' },
        { scheme: 'file', pattern: MANIFEST_GLOB },
      ],
      diagnosticCollectionName: 'anachron',
      outputChannel: this.log,
      traceOutputChannel: this.log.inner,
      markdown: { isTrusted: false, supportHtml: false },
      initializationOptions: (): ClientInitializationOptions => ({
        matricesFolder: path.join(extensionPath, 'matrices'),
        userMatricesFolder: this.userMatricesFolder,
        cacheFolder: path.join(this.context.globalStorageUri.fsPath, 'cache'),
        editorSettings: allFolderSettings(),
        environments: this.environments,
        trusted: workspace.isTrusted,
      }),
      initializationFailedHandler: (error) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.log.error(`the server failed to initialize: ${reason}`);
        this.status.setState({ kind: 'failed', reason });
        return false;
      },
      errorHandler: {
        error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown }),
        closed: () => {
          if (this.stopping) return { action: CloseAction.DoNotRestart, handled: true };
          const now = Date.now();
          this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
          const said = this.log.recentRaw.slice(-1)[0];
          const reason = `the language server stopped unexpectedly${said ? ` (${said})` : ''}`;
          this.log.error(reason);
          if (this.crashes.length > MAX_CRASHES) {
            this.status.setState({ kind: 'failed', reason: `${reason}; it stopped ${this.crashes.length} times in 3 minutes` });
            void window.showErrorMessage(`anachron: ${reason}, ${this.crashes.length} times in 3 minutes; it will not be restarted. Run "anachron: Restart Server" after fixing the cause.`, 'Show Output').then((c) => c && this.log.show(true));
            return { action: CloseAction.DoNotRestart, handled: true };
          }
          this.status.setState({ kind: 'restarting', reason });
          void window.showWarningMessage(`anachron: ${reason}; restarting it.`, 'Show Output').then((c) => c && this.log.show(true));
          return { action: CloseAction.Restart, handled: true };
        },
      },
    };
    const client = new AnachronLanguageClient('anachron', 'anachron', serverOptions, clientOptions);
    this.client = client;
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.status.setState({ kind: 'running' });
        this.schedulePins(0);
      }
    });
    try {
      await client.start();
    } catch (e) {
      const reason = (e as Error).message;
      this.log.error(`cannot start the language server: ${reason}`);
      this.status.setState({ kind: 'failed', reason });
      void window.showErrorMessage(`anachron cannot start its language server: ${reason}`, 'Show Output').then((c) => c && this.log.show(true));
      return;
    }
    const info = (client.initializeResult as { anachron?: ServerInitializationInfo } | undefined)?.anachron;
    this.log.info(`server running on ${describeRuntime(choice.runtime)}; matrices read with ${info?.storeLabel ?? 'an unknown store'}${info?.nativeUnavailable ? ` (${info.nativeUnavailable})` : ''}; ${workspace.isTrusted ? 'trusted workspace' : 'Restricted Mode: static checks only, no interpreter is run'}`);
    this.status.setStore(info?.storeLabel);
    this.status.setState({ kind: 'running' });
    this.schedulePins(0);
    void this.refreshEnvironments();
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    this.stopping = true;
    try {
      if (client.state !== State.Stopped) await client.stop(5000);
    } catch (e) {
      this.log.warn(`stopping the server: ${(e as Error).message}`);
    } finally {
      this.stopping = false;
      await client.dispose().catch(() => undefined);
    }
  }

  async restart(): Promise<void> {
    await this.starting;
    await this.stop();
    this.crashes = [];
    await this.start();
  }

  scheduleRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.restart(), 500);
  }

  sendSettings(): void {
    this.log.info('anachron settings changed: applying them');
    if (this.running) void this.client!.sendNotification(DidChangeEditorSettings, { folders: allFolderSettings() });
    this.schedulePins();
  }

  /** Lists what each folder's interpreter has installed (trusted workspaces only) and sends it to the server. */
  async refreshEnvironments(): Promise<void> {
    const environments: FolderEnvironment[] = [];
    if (workspace.isTrusted) {
      for (const folder of workspace.workspaceFolders ?? []) {
        if (!workspace.getConfiguration('anachron', folder.uri).get<boolean>('interpreter.useInstalledVersions', true)) continue;
        const interpreter = await this.interpreters.interpreterFor(folder.uri);
        if (!interpreter) {
          this.log.debug(`no interpreter for ${folder.name} (no Python extension and no anachron.interpreter.path)`);
          continue;
        }
        try {
          const found = await installedDistributions(interpreter, path.join(this.context.extensionPath, 'python-probe'));
          environments.push({ folder: folder.uri.toString(), interpreter: found.executable || describeInterpreter(interpreter), distributions: found.distributions });
          this.log.info(`interpreter for ${folder.name}: ${found.executable} (${interpreter.source}), ${Object.keys(found.distributions).length} installed distributions`);
        } catch (e) {
          this.log.warn(`cannot list what ${describeInterpreter(interpreter)} has installed: ${(e as Error).message}`);
        }
      }
    }
    this.environments = environments;
    if (this.running) void this.client!.sendNotification(DidChangeEnvironments, { environments });
    this.schedulePins();
  }

  /** Refreshes the status item with the pins of the active Python file. */
  schedulePins(delay = 300): void {
    clearTimeout(this.pinsTimer);
    this.pinsTimer = setTimeout(() => void this.updatePins(), delay);
  }

  private async updatePins(): Promise<void> {
    const doc = window.activeTextEditor?.document;
    if (!doc || doc.languageId !== 'python' || doc.uri.scheme !== 'file' || !this.running) return;
    try {
      const pins = (await this.client!.sendRequest(PinsRequest, { uri: doc.uri.toString() })) as PinsResult | null;
      this.status.setPins(pins);
    } catch (e) {
      this.log.debug(`pins for ${doc.uri.fsPath}: ${(e as Error).message}`);
    }
  }

  async pinsFor(doc: TextDocument | undefined): Promise<PinsResult | null | undefined> {
    if (!doc || doc.uri.scheme !== 'file') return undefined;
    return this.request<PinsResult | null>(PinsRequest, { uri: doc.uri.toString() });
  }

  dispose(): void {
    clearTimeout(this.pinsTimer);
    clearTimeout(this.restartTimer);
    this.disposables.forEach((d) => d.dispose());
    this.history.dispose();
    this.interpreters.dispose();
    this.status.dispose();
  }

  watch(...items: Disposable[]): void {
    this.disposables.push(...items);
  }
}

async function openPinSource(uri: string, line: number): Promise<void> {
  const editor = await window.showTextDocument(Uri.parse(uri), { preview: false });
  const text = editor.document.lineAt(Math.min(line, editor.document.lineCount - 1));
  editor.selection = new Selection(text.range.start, text.range.end);
  editor.revealRange(new Range(text.range.start, text.range.end), TextEditorRevealType.InCenterIfOutsideViewport);
}

async function showPins(anachron: Anachron): Promise<void> {
  const doc = window.activeTextEditor?.document;
  if (!doc || doc.languageId !== 'python') {
    void window.showInformationMessage('anachron: open a Python file to see the pins that apply to it.');
    return;
  }
  const pins = await anachron.pinsFor(doc);
  if (pins === undefined) return;
  // The tracked libraries the file imports that nothing pins (not every tracked library).
  const unpinned = [...new Set((pins?.coverage ?? []).filter((e) => e.reason === 'unpinned' && e.trackedVersions.length > 0 && e.distribution !== 'python').map((e) => e.library))];
  if (!pins || pins.pins.length === 0) {
    const choose = pins?.manifestCandidates.length ? 'Choose Manifest…' : undefined;
    const picked = await window.showInformationMessage(`anachron: no manifest pins anything for ${workspace.asRelativePath(doc.uri)}${unpinned.length ? `; ${unpinned.join(', ')} ${unpinned.length === 1 ? 'is' : 'are'} not checked` : ''}.`, ...(choose ? [choose] : []));
    if (picked) await commands.executeCommand('anachron.chooseManifest');
    return;
  }
  type Item = { label: string; description?: string; detail?: string; uri?: string; line?: number; kind?: number; command?: string };
  const items: Item[] = pins.pins.map((p) => ({
    label: `${p.library ? '$(history)' : '$(dash)'} ${p.distribution}${p.specifier}`,
    description: p.origin,
    detail: p.library
      ? `checked at ${p.checkedVersions.join(', ') || 'no tracked version'}${p.exactVersion && !p.trackedVersions.includes(p.exactVersion) ? ' (not tracked: inferred from the versions around it)' : ''} · tracked: ${p.trackedVersions.join(', ')}${p.overridden.length ? ` · overrides ${p.overridden.join(', ')}` : ''}`
      : `no matrix for ${p.distribution}: not checked${p.overridden.length ? ` · overrides ${p.overridden.join(', ')}` : ''}`,
    uri: p.originUri ?? undefined,
    line: p.originLine ?? undefined,
  }));
  if (unpinned.length) items.push({ label: `$(circle-slash) ${unpinned.join(', ')}`, description: 'imported and tracked, but nothing pins them: not checked' });
  if (pins.found) items.push({ label: `$(file-code) pins from ${pins.found.chosen.map((u) => workspace.asRelativePath(Uri.parse(u), false)).join(', ')}`, description: pins.found.how === 'configured' ? 'anachron.manifestPaths or [tool.anachron] manifests' : pins.found.ambiguous ? 'a guess: other manifests pin other versions' : 'found in the project' });
  if (pins.manifestCandidates.length) items.push({ label: '$(list-selection) Choose Manifest…', description: `${pins.manifestCandidates.length} found in the project`, command: 'anachron.chooseManifest' });
  for (const e of pins.coverage ?? []) {
    if (e.state === 'checked' || e.reason === 'unpinned') continue;
    items.push({ label: `$(warning) ${coverageRequirement(e)}`, description: `${e.state === 'inferred' ? 'not tracked' : 'not checked'}: ${describeCoverageReason(e)}`, detail: e.fetch ? `anachron matrix fetch ${e.fetch}` : undefined });
  }
  if (pins.manifestsOff.length) items.push({ label: `$(settings-gear) manifests switched off: ${pins.manifestsOff.join(', ')}`, description: 'anachron.manifests' });
  for (const p of pins.problems) items.push({ label: `$(warning) ${p}` });
  const picked = await window.showQuickPick(items, { title: `anachron: pins for ${workspace.asRelativePath(doc.uri)}`, placeHolder: 'Pick a pin to open where it is written', matchOnDescription: true, matchOnDetail: true });
  if (picked?.command) await commands.executeCommand(picked.command);
  else if (picked?.uri) await openPinSource(picked.uri, picked.line ?? 0);
}

async function showHistory(anachron: Anachron, api?: string): Promise<void> {
  const editor = window.activeTextEditor;
  const uri = editor?.document.uri.scheme === 'file' ? editor.document.uri.toString() : undefined;
  const params: HistoryParams = api ? { api, uri } : editor && editor.document.languageId === 'python' ? { uri, position: { line: editor.selection.active.line, character: editor.selection.active.character } } : {};
  if (!params.api && !params.position) {
    const typed = await window.showInputBox({ title: 'anachron: API history', prompt: 'A fully qualified API', placeHolder: 'numpy.trapezoid', ignoreFocusOut: true });
    if (!typed) return;
    params.api = typed.trim();
  }
  if (await anachron.history.show(params)) return;
  // Nothing tracked under the cursor: ask for a name.
  const typed = await window.showInputBox({ title: 'anachron: API history', prompt: 'No tracked API under the cursor. Which API?', placeHolder: 'numpy.trapezoid', ignoreFocusOut: true });
  if (typed) await anachron.history.show({ api: typed.trim(), uri });
}

let instance: Anachron | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  const anachron = new Anachron(context);
  instance = anachron;
  context.subscriptions.push(anachron, anachron.log);
  mkdirSync(context.globalStorageUri.fsPath, { recursive: true });

  context.subscriptions.push(
    commands.registerCommand('anachron.restartServer', () => anachron.restart()),
    commands.registerCommand('anachron.showOutput', () => anachron.log.show(true)),
    commands.registerCommand('anachron.showPins', () => showPins(anachron)),
    commands.registerCommand('anachron.chooseManifest', () => chooseManifest((uri) => anachron.request<PinsResult | null>(PinsRequest, { uri: uri.toString() }))),
    commands.registerCommand('anachron.openPinSource', (uri: string, line: number) => openPinSource(uri, line)),
    commands.registerCommand('anachron.showHistory', (api?: unknown) => showHistory(anachron, typeof api === 'string' ? api : undefined)),
    commands.registerCommand('anachron.checkWorkspace', () => checkWorkspace(anachron)),
    commands.registerCommand('anachron.addMatrixColumn', () => addMatrixColumn(anachron)),
    commands.registerCommand('anachron.removeUserMatrices', () => removeUserMatrices(anachron)),
    commands.registerCommand('anachron.openBenchmarkReports', () => openBenchmarkReports(editorRunsFolders(anachron))),
    commands.registerCommand('anachron.runBenchmark', () => runBenchmark(anachron)),
  );

  // A finding's code link opens its rule page rendered (client/src/rule-pages.ts).
  context.subscriptions.push(showRulePagesRendered(context.extensionPath));

  // The tools for AI assistants (Copilot's agent mode, @anachron, Review AI Suggestion): client/src/agents.ts.
  const agents = new AgentFeatures(anachron);
  agents.register(context);
  context.subscriptions.push(agents);

  anachron.watch(
    workspace.onDidChangeConfiguration((e) => {
      if (affectsAny(e, RESTART_SETTINGS) || e.affectsConfiguration('anachron.enable')) anachron.scheduleRestart();
      else if (affectsAny(e, SERVER_SETTINGS)) anachron.sendSettings();
      if (affectsAny(e, INTERPRETER_SETTINGS)) void anachron.refreshEnvironments();
    }),
    anachron.interpreters.onDidChange(() => {
      anachron.log.info('the selected interpreter changed: probing it again');
      void anachron.refreshEnvironments();
    }),
    workspace.onDidGrantWorkspaceTrust(() => {
      anachron.log.info('the workspace is trusted now: restarting with full support');
      anachron.status.setRestricted(false);
      anachron.scheduleRestart();
    }),
    // The server is told its workspace folders once; a new set needs a new server.
    workspace.onDidChangeWorkspaceFolders(() => anachron.scheduleRestart()),
    window.onDidChangeActiveTextEditor(() => anachron.schedulePins(0)),
    // New diagnostics for the active file follow new pins (a manifest found, chosen or changed): the status item too.
    languages.onDidChangeDiagnostics((e) => {
      const active = window.activeTextEditor?.document.uri.toString();
      if (active && e.uris.some((u) => u.toString() === active)) anachron.schedulePins();
    }),
    workspace.onDidChangeTextDocument((e) => {
      // A manifest changes the pins; the active Python file's imports change what is covered.
      if (isManifestName(path.basename(e.document.uri.fsPath))) anachron.schedulePins();
      else if (e.document === window.activeTextEditor?.document && e.document.languageId === 'python' && e.contentChanges.length) anachron.schedulePins(1000);
    }),
    workspace.onDidSaveTextDocument((d) => {
      if (isManifestName(path.basename(d.uri.fsPath))) anachron.schedulePins();
    }),
  );
  for (const glob of [MANIFEST_GLOB, ...SEARCHED_MANIFEST_GLOBS]) {
    const watcher = workspace.createFileSystemWatcher(glob);
    anachron.watch(watcher, watcher.onDidChange(() => anachron.schedulePins()), watcher.onDidCreate(() => anachron.schedulePins()), watcher.onDidDelete(() => anachron.schedulePins()));
  }

  void anachron.interpreters.subscribe();
  await anachron.start();
}

export async function deactivate(): Promise<void> {
  await instance?.stop();
  instance = undefined;
}

