// A real LSP session over stdio with the bundled server (dist/server.js), for tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { ServerInitializationInfo } from '../../server/src/lsp/protocol.js';

export const REPO = join(__dirname, '..', '..');

/** A path's file: URI, as the client sends it. */
export const fileUri = (file: string) => pathToFileURL(file).toString();

export class LspSession {
  private readonly child: ChildProcess;
  readonly connection: MessageConnection;
  private readonly waiters = new Map<string, ((d: PublishDiagnosticsParams) => void)[]>();
  readonly latest = new Map<string, PublishDiagnosticsParams>();
  readonly logs: string[] = [];
  /** $/progress values the server reported (work-done progress, when initialize asked for it). */
  readonly progress: { kind: string; title?: string; message?: string; cancellable?: boolean; token?: string | number }[] = [];

  /**
   * Starts dist/server.js with `env` added to this process's environment, on `node` (this Node by default); `nodeArgs`
   * before the script, and under `ulimit -v` of `addressSpaceKiB` where given.
   */
  constructor(env: NodeJS.ProcessEnv = {}, node = process.execPath, options: { nodeArgs?: string[]; addressSpaceKiB?: number } = {}) {
    const command = [node, ...(options.nodeArgs ?? []), join(REPO, 'dist', 'server.js'), '--stdio'];
    const [file, args] = options.addressSpaceKiB === undefined ? [command[0]!, command.slice(1)] : ['bash', ['-c', `ulimit -v ${options.addressSpaceKiB} && exec "$@"`, 'bash', ...command]];
    this.child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d) => this.logs.push(String(d)));
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.latest.set(params.uri, params);
      const list = this.waiters.get(params.uri) ?? [];
      this.waiters.delete(params.uri);
      list.forEach((w) => w(params));
    });
    this.connection.onNotification('window/logMessage', (p: { message: string }) => this.logs.push(p.message));
    this.connection.onNotification('window/showMessage', (p: { message: string }) => this.logs.push(`showMessage: ${p.message}`));
    this.connection.onRequest('window/showMessageRequest', (p: { message: string }) => {
      this.logs.push(`showMessage: ${p.message}`);
      return null;
    });
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('$/progress', (p: { token: string | number; value: LspSession['progress'][number] }) => this.progress.push({ ...p.value, token: p.token }));
    this.connection.listen();
  }

  /** Initializes the session; returns what the server says about itself (its matrix store). */
  async initialize(rootFolder: string, initializationOptions: object = {}, windowCapabilities: object = {}): Promise<ServerInitializationInfo> {
    const result = await this.connection.sendRequest<{ anachron: ServerInitializationInfo }>('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(rootFolder).toString(),
      workspaceFolders: [{ uri: pathToFileURL(rootFolder).toString(), name: 'test' }],
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } }, window: windowCapabilities },
      initializationOptions,
    });
    await this.connection.sendNotification('initialized', {});
    return result.anachron;
  }

  /** Opens a document and waits for its diagnostics. */
  async open(file: string, text: string, languageId = 'python', timeoutMs = 20000): Promise<Diagnostic[]> {
    const uri = pathToFileURL(file).toString();
    const next = this.nextDiagnostics(uri, timeoutMs);
    await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return (await next).diagnostics;
  }

  async change(file: string, version: number, text: string, timeoutMs = 20000): Promise<Diagnostic[]> {
    const uri = pathToFileURL(file).toString();
    const next = this.nextDiagnostics(uri, timeoutMs);
    await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    return (await next).diagnostics;
  }

  nextDiagnostics(uri: string, timeoutMs = 20000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; server said:\n${this.logs.join('\n')}`)), timeoutMs);
      const list = this.waiters.get(uri) ?? [];
      list.push((d) => {
        clearTimeout(timer);
        resolve(d);
      });
      this.waiters.set(uri, list);
    });
  }

  async close(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // the server may already be gone
    }
    this.connection.dispose();
    this.child.kill();
  }
}

/** FN with a session over DIR: initialized (with the initialization options given), then closed whatever FN does. */
export async function withSession<T>(dir: string, fn: (session: LspSession) => Promise<T>, initializationOptions: object = {}): Promise<T> {
  const session = new LspSession();
  try {
    await session.initialize(dir, initializationOptions);
    return await fn(session);
  } finally {
    await session.close();
  }
}
