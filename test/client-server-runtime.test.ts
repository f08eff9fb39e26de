// How the extension picks a runtime for the language server (client/src/server-runtime.ts): each candidate must
// really load the shipped better-sqlite3. Desktop VS Code's Electron runtime (another Node ABI) cannot be run here,
// so a stand-in executable that fails the way it would plays that part; plain Node plays a working runtime.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { chooseRuntime, findNodeExecutables, noRuntimeMessage, probeRuntime } from '../client/src/server-runtime.js';

const sqliteModule = dirname(require.resolve('better-sqlite3/package.json'));

/** An executable that answers the probe like an Electron whose ABI the addon was not built for. */
function fakeElectron(dir: string, abi = '128'): string {
  const file = join(dir, 'electron');
  const answer = JSON.stringify({ node: 'v20.18.3', abi, ok: false, error: `The module '${sqliteModule}/build/Release/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION ${abi}.` });
  writeFileSync(file, `#!/bin/sh\nprintf '%s' '${answer.replace(/'/g, "'\\''")}'\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('the language server runtime', () => {
  test('a runtime that loads better-sqlite3 passes the probe; a missing one fails with a reason', async () => {
    const ok = await probeRuntime({ kind: 'detected', path: process.execPath }, sqliteModule);
    assert.equal(ok.ok, true, ok.error);
    assert.equal(ok.abi, process.versions.modules);
    const missing = await probeRuntime({ kind: 'configured', path: '/nonexistent/node' }, sqliteModule);
    assert.equal(missing.ok, false);
    assert.match(missing.error!, /not found/);
  });

  test("VS Code's own runtime is used when it loads the addon", async () => {
    const choice = await chooseRuntime({ hostExecutable: process.execPath, hostAbi: process.versions.modules, sqliteModule, build: null });
    assert.ok(choice.ok);
    assert.equal(choice.runtime.kind, 'vscode');
    assert.equal(choice.attempts.length, 1);
  });

  test('an Electron of another ABI falls back to a Node.js found on PATH', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-runtime-'));
    const electron = fakeElectron(dir);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
    chmodSync(join(bin, 'node'), 0o755);
    const choice = await chooseRuntime({ hostExecutable: electron, hostAbi: '128', sqliteModule, build: null, env: { PATH: bin } });
    assert.ok(choice.ok, JSON.stringify(choice.attempts));
    assert.equal(choice.runtime.kind, 'detected');
    assert.equal(choice.runtime.path, join(bin, 'node'));
    assert.equal(choice.attempts[0]!.kind, 'vscode');
    assert.equal(choice.attempts[0]!.ok, false);
  });

  test('with the ABI recorded at packaging, a mismatched host is not even tried', async () => {
    const probed: string[] = [];
    const choice = await chooseRuntime({
      hostExecutable: '/electron',
      hostAbi: '128',
      sqliteModule,
      build: { abi: '115', node: 'v20.19.0', platform: 'linux', arch: 'x64' },
      env: { PATH: '' },
      probe: async (c) => {
        probed.push(c.path);
        return { ...c, ok: false, error: 'no' };
      },
    });
    assert.equal(probed.includes('/electron'), false);
    assert.equal(choice.ok, false);
    assert.match(choice.attempts[0]!.error!, /ABI 128; the shipped better-sqlite3 is built for ABI 115/);
  });

  test('the configured nodePath comes first; when nothing loads the addon the message says what to install', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-runtime-'));
    const electron = fakeElectron(dir);
    const choice = await chooseRuntime({ configured: '/opt/node18/bin/node', hostExecutable: electron, hostAbi: '128', sqliteModule, build: null, env: { PATH: '' }, maxDetected: 0 });
    assert.equal(choice.ok, false);
    assert.deepEqual(choice.attempts.map((a) => a.kind), ['configured', 'vscode']);
    if (choice.ok) return;
    const message = noRuntimeMessage(choice);
    assert.match(message, /built for Node\.js 20 \(ABI 115\)/);
    assert.match(message, /VS Code's runtime \(Node ABI 128\)/);
    assert.match(message, /anachron\.server\.nodePath \(\/opt\/node18\/bin\/node: not found\)/);
    assert.match(message, /Install Node\.js 20 and set "anachron\.server\.nodePath"/);
  });

  test('executables inside an untrusted workspace are never candidates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-runtime-'));
    const bin = join(dir, 'node_modules', '.bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'node'), '#!/bin/sh\n');
    chmodSync(join(bin, 'node'), 0o755);
    assert.ok(findNodeExecutables({ PATH: bin }).includes(join(bin, 'node')));
    assert.ok(!findNodeExecutables({ PATH: bin }, [dir]).includes(join(bin, 'node')));
  });
});
