// Under a cap on virtual memory (ulimit -v) the CLI and the language server still work: V8's WebAssembly memories
// (the Python parser's, SQLite's) could not reserve their ~10 GB guard regions, and every command failed with
// "WebAssembly.Memory(): could not allocate memory"; with the trap handler off, their 2 GiB maxima left no room for
// thread stacks below about 2 GB (the process aborted). server/src/wasm-memory.ts: the flag, memories sized to the cap,
// threads that fit, and a clear refusal below the least that works.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/cli.js';
import { fileUri, LspSession } from '../support/lsp-session.js';
import { writeProject } from '../support/project.js';

/** The CLI under `ulimit -v` (KiB), through bash. */
function underCap(kib: number, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const cli = join(REPO_ROOT, 'bin', 'anachron.js');
  const r = spawnSync('bash', ['-c', `ulimit -v ${kib} && exec "$@"`, 'bash', process.execPath, cli, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: `${r.signal ? `killed by ${r.signal}\n` : ""}${r.stderr}` };
}

test('under ulimit -v of 11, 4, 3, 2 and 1.2 GB: check (one thread and several, native and WebAssembly SQLite) and min-versions work', { skip: process.platform !== 'linux' }, () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n', 'b.py': 'import numpy as np\nz = np.trapezoid([1])\n' });
  for (const kib of [11, 4, 3, 2, 1.2].map((gb) => Math.ceil(gb * 1024 * 1024))) {
    for (const [jobs, sqlite] of [['1', 'native'], ['2', 'native'], ['2', 'wasm']] as const) {
      const r = underCap(kib, ['check', '--jobs', jobs], dir, { ANACHRON_SQLITE: sqlite });
      assert.doesNotMatch(r.stderr, /could not allocate memory|internal error/, `ulimit -v ${kib}: ${r.stderr.slice(0, 400)}`);
      assert.equal(r.code, 1, `ulimit -v ${kib} --jobs ${jobs}: ${r.stdout}${r.stderr.slice(0, 400)}`);
      assert.match(r.stdout, /a\.py:2:5: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\)/);
      assert.match(r.stdout, /2 findings in 2 of 2 files/);
    }
    const m = underCap(kib, ['min-versions', '--format', 'json'], dir);
    assert.doesNotMatch(m.stderr, /could not allocate memory|internal error/, m.stderr.slice(0, 400));
    assert.ok([0, 1].includes(m.code ?? -1), `min-versions exit ${m.code}: ${m.stderr.slice(0, 400)}`);
    assert.ok(JSON.parse(m.stdout));
  }
});

test('below the least address space that works the CLI says so and exits 2 (it aborted with no word)', { skip: process.platform !== 'linux' }, () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': 'import numpy as np\n' });
  const r = underCap(1024 * 1024, ['check'], dir);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^anachron: the address-space limit of this process \(ulimit -v: 1\.0 GB\) is below the 1\.2 GB anachron needs .*raise it \(ulimit -v \d+\)\n$/);
});

describe('the language server under ulimit -v', { skip: process.platform !== 'linux' }, () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': '' });
  const code = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';
  // Started over stdio it runs itself again without the trap handler; the VS Code client passes the flag itself
  // (client/src/server-runtime.ts nodeArgs). The WebAssembly SQLite is what the .vsix runs on.
  for (const gb of [3, 2, 1.5, 1.2]) {
    for (const nodeArgs of [[], ['--disable-wasm-trap-handler']]) {
      test(`${gb} GB, ${nodeArgs.length ? 'the flag passed as the client does' : 'started bare'}: diagnostics and a hover`, async () => {
        const session = new LspSession({ ANACHRON_SQLITE: 'wasm' }, process.execPath, { nodeArgs, addressSpaceKiB: Math.ceil(gb * 1024 * 1024) });
        try {
          const info = await session.initialize(dir);
          assert.match(info.storeLabel, /WebAssembly/);
          const diagnostics = await session.open(join(dir, 'a.py'), code);
          assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]), [[1, 'anachronistic-api']], session.logs.join('\n'));
          const hover = await session.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: fileUri(join(dir, 'a.py')) }, position: { line: 1, character: 8 } });
          assert.match(hover?.contents.value ?? '', /trapezoid/);
        } finally {
          await session.close();
        }
      });
    }
  }
});
