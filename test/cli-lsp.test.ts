// `anachron lsp [--stdio]`: the language server for any LSP client, spoken to over the CLI's own stdin/stdout.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { REPO_ROOT, runCli } from './support/cli.js';

interface Session {
  child: ChildProcess;
  connection: MessageConnection;
  /** Everything the server wrote to stdout, byte for byte. */
  raw: Buffer[];
  stderr: string[];
  exited: Promise<number | null>;
  diagnostics(uri: string): Promise<PublishDiagnosticsParams>;
}

function start(args: string[], cwd: string): Session {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'anachron.js'), ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const raw: Buffer[] = [];
  const stderr: string[] = [];
  child.stdout!.on('data', (d: Buffer) => raw.push(d));
  child.stderr!.on('data', (d) => stderr.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiting = new Map<string, (p: PublishDiagnosticsParams) => void>();
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => waiting.get(p.uri)?.(p));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/showMessageRequest', () => null);
  connection.listen();
  return {
    child,
    connection,
    raw,
    stderr,
    exited,
    diagnostics: (uri) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}; stderr: ${stderr.join('')}`)), 20000);
        waiting.set(uri, (p) => {
          clearTimeout(timer);
          resolve(p);
        });
      }),
  };
}

async function session(args: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-lsp-'));
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  const file = join(dir, 'a.py');
  const text = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';
  writeFileSync(file, text);
  const s = start(args, dir);
  try {
    const init = (await s.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(dir).toString(),
      workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'test' }],
      capabilities: {},
    })) as InitializeResult;
    assert.equal(init.serverInfo?.name, 'anachron');
    assert.ok(init.capabilities.textDocumentSync !== undefined);
    await s.connection.sendNotification('initialized', {});
    const uri = pathToFileURL(file).toString();
    const published = s.diagnostics(uri);
    await s.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    const { diagnostics } = await published;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.source, d.range.start.line, d.range.start.character, d.severity]),
      [['anachronistic-api', 'anachron', 1, 4, 1]],
    );
    assert.match(diagnostics[0]!.message, /^`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)$/);
    await s.connection.sendRequest('shutdown');
    await s.connection.sendNotification('exit');
    assert.equal(await s.exited, 0);
    // Nothing but LSP messages on stdout: it starts with a header and every message is framed.
    const out = Buffer.concat(s.raw).toString('utf8');
    assert.match(out, /^Content-Length: \d+\r\n/);
    let rest = out;
    while (rest.length > 0) {
      const m = /^Content-Length: (\d+)\r\n(?:[^\r\n]+\r\n)*\r\n/.exec(rest);
      assert.ok(m, `stdout holds something that is not an LSP message: ${JSON.stringify(rest.slice(0, 80))}`);
      const body = Buffer.from(rest.slice(m[0].length), 'utf8').subarray(0, Number(m[1])).toString('utf8');
      JSON.parse(body);
      rest = rest.slice(m[0].length + body.length);
    }
  } finally {
    s.connection.dispose();
    s.child.kill();
  }
}

describe('anachron lsp', () => {
  test('--stdio answers initialize and publishes a diagnostic for numpy.trapezoid at numpy 1.24.2', async () => {
    await session(['lsp', '--stdio']);
  });

  test('with no flag it speaks stdio too', async () => {
    await session(['lsp']);
  });

  test('--clientProcessId, which some clients add, is passed on to the server', async () => {
    await session(['lsp', '--stdio', `--clientProcessId=${process.pid}`]);
  });

  test('closing stdin ends the server', async () => {
    const s = start(['lsp', '--stdio'], REPO_ROOT);
    s.child.stdin!.end();
    const code = await Promise.race([s.exited, new Promise<string>((r) => setTimeout(() => r('still running'), 10000))]);
    s.child.kill();
    assert.notEqual(code, 'still running');
  });

  test('other transports and arguments are usage errors', () => {
    for (const args of [['lsp', '--socket=2087'], ['lsp', 'extra']]) {
      const r = runCli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /anachron: /);
      assert.equal(r.stdout, '');
    }
  });
});
