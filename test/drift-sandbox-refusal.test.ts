// A drift run on a machine that cannot give the sandbox's OS boundary (simulated with ANACHRON_SANDBOX_BOUNDARY=0):
// the CLI refuses before asking any model, saying why and how to enable it; with --allow-unsandboxed it runs, warns,
// and every execution records that it ran unsandboxed.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DriftStore } from '../server/src/eval/drift/store.js';
import { REPO_ROOT, runCli } from './support/cli.js';
import { makeDriftFixture, PYTHON } from './support/drift-fixture.js';

const SKIP = !existsSync(PYTHON) ? `${PYTHON} not found` : !existsSync(join(REPO_ROOT, 'dist', 'cli.js')) ? 'run npm run build first' : false;

test('no OS boundary: the drift run is refused, unless --allow-unsandboxed', { skip: SKIP, timeout: 120_000 }, () => {
  const fx = makeDriftFixture();
  const file = fx.writeConfig(join(fx.dir, 'run.json'), fx.config('version-aware', { samplesPerPrompt: 1, repairRounds: 0 }));
  const out = mkdtempSync(join(tmpdir(), 'anachron-drift-refusal-'));
  const refused = runCli(['bench', 'run', file, '--out', out, '--quiet'], REPO_ROOT, { ANACHRON_SANDBOX_BOUNDARY: '0' });
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /generated code runs only inside an OS sandbox/);
  assert.match(refused.stderr, /install bubblewrap/);
  assert.match(refused.stderr, /--allow-unsandboxed/);
  assert.equal(existsSync(join(out, 'run.sqlite')), false, 'nothing was started');

  const allowed = runCli(['bench', 'run', file, '--out', out, '--quiet', '--allow-unsandboxed'], REPO_ROOT, { ANACHRON_SANDBOX_BOUNDARY: '0' });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stderr, /WARNING: generated code runs without an OS sandbox/);
  const store = DriftStore.open(join(out, 'run.sqlite'), { readonly: true });
  try {
    const executions = store.executions();
    assert.ok(executions.length > 0);
    for (const e of executions) assert.ok(e.isolation.includes('unsandboxed') && !e.isolation.includes('bubblewrap'), e.isolation.join(','));
  } finally {
    store.close();
  }
});
