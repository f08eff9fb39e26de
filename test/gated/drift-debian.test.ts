// Gated (ANACHRON_GATED=1): a reduced drift run against two real Debian environments, numpy 1.24.2 (bookworm) and
// numpy 2.2.4 (trixie), built with scripts/debian-python.sh when they are not in ${ANACHRON_ENV_CACHE:-~/.cache/
// anachron/debian} (needs the Debian mirror, ~100 MB each), through the bundled CLI (`npm run build` first) with both
// reference models: six numpy tasks whose API changed between the two versions, 2 samples per prompt, repair with
// migration notes from the bundled matrix. .ci/run runs it.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { debianEnvironment } from '../../server/src/environments/providers.js';
import { runCli } from '../support/cli.js';
import { passMatrix, runReferenceModels } from '../support/drift-runs.js';

const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = GATED ? false : 'set ANACHRON_GATED=1 to run a reduced drift run in Debian bookworm and trixie numpy environments';

const TASKS = ['numpy/integrate-trapezoid', 'numpy/nan-alias', 'numpy/in1d', 'numpy/concat', 'numpy/std-correction', 'numpy/row-stack'];

test('a reduced drift run: numpy 1.24.2 (bookworm) and 2.2.4 (trixie), both reference models', { skip: SKIP, timeout: 40 * 60_000 }, async () => {
  const started = Date.now();
  const log = (l: string) => process.stderr.write(`  ${l}\n`);
  const old = await debianEnvironment('numpy', '1.24.2', 'bookworm', { onOutput: log });
  const current = await debianEnvironment('numpy', '2.2.4', 'trixie', { onOutput: log });
  const envReady = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'anachron-drift-debian-'));
  const results = runReferenceModels(dir, (model) => ({
    name: model,
    suite: 'drift',
    libraries: ['numpy'],
    versions: { numpy: ['1.24.2', '2.2.4'] },
    model: { provider: 'builtin', model },
    seed: 1,
    drift: { taskIds: TASKS, samplesPerPrompt: 2, repairRounds: 2, environments: { numpy: { '1.24.2': old.python, '2.2.4': current.python } } },
  }));
  const d = (model: string) => passMatrix(results[model]!);
  // 6 tasks × 2 versions × 2 samples, each run in both environments.
  assert.equal(results['version-aware']!.counts.samples, 24);
  assert.equal(results['version-aware']!.counts.executions, 48);
  // The version-aware model passes on every version it is asked for, and its 1.24.2 code breaks on 2.2.4.
  const aware = d('version-aware');
  assert.deepEqual([aware[0]![0], aware[1]![1]], [1, 1]);
  assert.ok(aware[0]![1]! < 1, `version-aware 1.24.2 code on 2.2.4: ${aware[0]![1]}`);
  assert.ok(aware[1]![0]! < 1, `version-aware 2.2.4 code on 1.24.2: ${aware[1]![0]}`);
  // The version-oblivious model writes 2.x code whatever it is asked: off the diagonal of 1.24.2.
  const oblivious = d('version-oblivious');
  assert.ok(oblivious[0]![0]! < 1, `version-oblivious fidelity on 1.24.2: ${oblivious[0]![0]}`);
  assert.equal(oblivious[1]![1], 1);
  assert.equal(oblivious[0]![1], 1, 'its "1.24.2" code is 2.x code: it runs on 2.2.4');
  // Repair of the version-aware model's 1.24.2 samples that break on 2.2.4: the prompts carry the matrix's notes.
  const repair = results['version-aware']!.results[0]!.repair.find((f) => f.target === '2.2.4')!;
  assert.ok(repair.attempts > 0);
  assert.equal(repair.byRound[0]!.repaired.value, 1);
  const db = new Database(join(dir, 'version-aware', 'run.sqlite'), { readonly: true });
  try {
    const prompts = (db.prepare("SELECT prompt FROM samples WHERE id LIKE 'repair:%'").all() as { prompt: string }[]).map((r) => r.prompt);
    assert.ok(prompts.length > 0 && prompts.every((p) => p.includes('Migration notes for this code, numpy 1.24.2 → 2.2.4')));
    assert.ok(prompts.some((p) => /Use `np\.[a-z_]+` instead/.test(p)), 'some note names a replacement');
  } finally {
    db.close();
  }
  const cmp = runCli(['bench', 'report', join(dir, 'version-aware'), join(dir, 'version-oblivious'), '--out', join(dir, 'compare')]);
  assert.equal(cmp.code, 0, cmp.stderr);
  process.stderr.write(`  environments ready in ${((envReady - started) / 1000).toFixed(1)} s, runs and report in ${((Date.now() - envReady) / 1000).toFixed(1)} s\n`);
});
