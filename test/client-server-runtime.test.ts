// Where the extension runs its language server (client/src/server-runtime.ts): VS Code's own runtime unless
// anachron.server.nodePath names a usable Node.js. Real executables answer the probe: this Node, a missing path,
// and stand-ins for a Node too old and for something that is not Node at all.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { chooseRuntime, describeRuntime, probeNode } from '../client/src/server-runtime.js';

function script(body: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'anachron-runtime-')), 'node');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const host = { hostExecutable: '/opt/VSCode/code', hostNode: 'v20.18.3', hostAccepts: () => true, addressSpaceLimit: null };
const GiB = 2 ** 30;

describe('the language server runtime', () => {
  test('without nodePath the server runs on VS Code\'s own runtime, without probing anything', async () => {
    const choice = await chooseRuntime({ ...host, probe: () => assert.fail('nothing to probe') });
    assert.deepEqual(choice.runtime, { kind: 'vscode', path: '/opt/VSCode/code', node: 'v20.18.3', nodeArgs: [] });
    assert.equal(choice.rejected, undefined);
    assert.equal(describeRuntime(choice.runtime), "VS Code's own runtime (Node v20.18.3)");
  });

  test('a configured Node.js that answers is used', async () => {
    const choice = await chooseRuntime({ ...host, configured: process.execPath });
    assert.equal(choice.runtime.kind, 'configured');
    assert.equal(choice.runtime.path, process.execPath);
    assert.equal(choice.runtime.node, process.version);
  });

  test('under a cap on virtual memory every process gets the WebAssembly trap handler off, where its runtime takes the flag', async () => {
    const capped = { ...host, addressSpaceLimit: 3 * GiB };
    assert.deepEqual((await chooseRuntime(capped)).runtime.nodeArgs, ['--disable-wasm-trap-handler']);
    assert.deepEqual((await chooseRuntime({ ...capped, hostAccepts: (f) => f !== '--disable-wasm-trap-handler' })).runtime.nodeArgs, []);
    assert.deepEqual((await chooseRuntime({ ...host, addressSpaceLimit: 128 * GiB })).runtime.nodeArgs, [], 'room for the guard regions');
    // A configured Node is asked which flags it takes: this one does.
    const configured = await chooseRuntime({ ...capped, configured: process.execPath });
    assert.equal(configured.runtime.kind, 'configured');
    assert.deepEqual(configured.runtime.nodeArgs, process.allowedNodeEnvironmentFlags.has('--disable-wasm-trap-handler') ? ['--disable-wasm-trap-handler'] : []);
    const old = await chooseRuntime({ ...capped, configured: script(`printf '{"node":"v18.20.0","wasm":true}'`) });
    assert.deepEqual([old.runtime.kind, old.runtime.nodeArgs], ['configured', []], 'a runtime that does not say it takes the flag does not get it');
  });

  test('a configured path that is missing, too old or not Node falls back to VS Code\'s runtime, saying why', async () => {
    const cases: [string, RegExp][] = [
      ['/nonexistent/node', /not found/],
      [script(`printf '{"node":"v16.20.2","wasm":true}'`), /v16\.20\.2 is not Node\.js 18 or later/],
      [script(`echo 'Python 3.11.2'`), /unexpected output: Python 3\.11\.2/],
      [script('exit 3'), /Command failed/],
    ];
    for (const [configured, reason] of cases) {
      const choice = await chooseRuntime({ ...host, configured });
      assert.equal(choice.runtime.kind, 'vscode', configured);
      assert.equal(choice.rejected?.path, configured);
      assert.match(choice.rejected!.reason, reason);
    }
  });

  test('the probe runs the executable as the server is run (ELECTRON_RUN_AS_NODE set)', async () => {
    const probe = await probeNode(script(`printf '{"node":"v22.12.0","wasm":%s}' "$([ "$ELECTRON_RUN_AS_NODE" = 1 ] && echo true || echo false)"`));
    assert.deepEqual(probe, { ok: true, node: 'v22.12.0', flags: [] });
  });
});
