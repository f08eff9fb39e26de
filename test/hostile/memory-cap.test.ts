// Under a cap on virtual memory (ulimit -v) the CLI still works: V8's WebAssembly memories (the Python parser's,
// SQLite's) could not reserve their ~10 GB guard regions, and every command failed with "WebAssembly.Memory(): could
// not allocate memory" (bin/anachron.js runs the CLI with --disable-wasm-trap-handler there).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/cli.js';
import { writeProject } from '../support/project.js';

/** The CLI under `ulimit -v` (KiB), through bash. */
function underCap(kib: number, args: string[], cwd: string) {
  const cli = join(REPO_ROOT, 'bin', 'anachron.js');
  const quoted = [process.execPath, cli, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const r = spawnSync('bash', ['-c', `ulimit -v ${kib} && exec ${quoted}`], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: `${r.signal ? `killed by ${r.signal}\n` : ""}${r.stderr}` };
}

test('under ulimit -v of 11 GB and of 4 GB: check (one thread and several) and min-versions work', { skip: process.platform !== 'linux' }, () => {
  const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n', 'b.py': 'import numpy as np\nz = np.trapezoid([1])\n' });
  for (const kib of [11 * 1024 * 1024, 4 * 1024 * 1024]) {
    for (const jobs of ['1', '2']) {
      const r = underCap(kib, ['check', '--jobs', jobs], dir);
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
