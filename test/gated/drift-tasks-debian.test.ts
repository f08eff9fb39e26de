// Gated (ANACHRON_GATED=1): runs the drift-task validation (scripts/validate-drift-tasks.ts) for numpy in one pair of
// real environments, Debian bullseye (numpy 1.19.5) and sid (numpy 2.4.6), as built by scripts/debian-python.sh under
// ${ANACHRON_ENV_CACHE:-~/.cache/anachron/debian}. Skips when they are not there. About half a minute.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { discoverEnvironments } from '../../scripts/validate-drift-tasks';

const REPO_ROOT = join(__dirname, '..', '..');
const ENV_ROOT = process.env.ANACHRON_ENV_CACHE ?? join(homedir(), '.cache', 'anachron', 'debian');
const PAIR = ['bullseye', 'sid'];
const envs = discoverEnvironments(ENV_ROOT, 'numpy').filter((e) => PAIR.includes(e.name));
const SKIP =
  process.env.ANACHRON_GATED !== '1'
    ? 'set ANACHRON_GATED=1 to run the drift tasks in real Debian environments'
    : envs.length < 2
      ? `needs Debian bullseye and sid roots with python3-numpy under ${ENV_ROOT} (scripts/debian-python.sh SUITE python3-numpy)`
      : false;

interface RunJson {
  numpy: {
    environments: { name: string; version: string }[];
    tasks: {
      id: string;
      problems: string[];
      forward: boolean;
      backward: boolean;
      solutions: { versions: string; results: { environment: string; diagonal: boolean; outcome: string; error?: string }[] }[];
    }[];
  };
}

test('numpy drift tasks in Debian bullseye and sid', { skip: SKIP, timeout: 15 * 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'drift-gated-'));
  try {
    const out = join(dir, 'result.json');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'validate-drift-tasks.ts'), '--library', 'numpy', '--suites', PAIR.join(','), '--env-root', ENV_ROOT, '--check', '--quiet', '--json', out],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 14 * 60_000, maxBuffer: 64 << 20 },
    );
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const run = (JSON.parse(readFileSync(out, 'utf8')) as RunJson).numpy;
    assert.deepEqual(run.environments.map((e) => [e.name, e.version]), [['bullseye', '1.19.5'], ['sid', '2.4.6']]);
    assert.ok(run.tasks.length >= 40, `${run.tasks.length} tasks`);

    let newestFailsOld = 0;
    let oldestFailsNew = 0;
    for (const t of run.tasks) {
      assert.deepEqual(t.problems, [], t.id);
      // The version-aware solution passes in both environments, without warnings.
      const diagonal = t.solutions.flatMap((s) => s.results.filter((x) => x.diagonal));
      assert.equal(diagonal.length, 2, t.id);
      for (const d of diagonal) assert.equal(d.outcome, 'pass', `${t.id} in ${d.environment}: ${d.outcome} ${d.error ?? ''}`);
      const newest = t.solutions[0]!.results.find((x) => x.environment === 'bullseye')!;
      const oldest = t.solutions[t.solutions.length - 1]!.results.find((x) => x.environment === 'sid')!;
      if (newest.outcome !== 'pass') newestFailsOld++;
      if (oldest.outcome !== 'pass') oldestFailsNew++;
    }
    // Both directions of drift show between numpy 1.19.5 and 2.4.6.
    assert.ok(newestFailsOld >= 25, `the newest solution fails on 1.19.5 in only ${newestFailsOld} tasks`);
    assert.ok(oldestFailsNew >= 25, `the oldest solution fails on 2.4.6 in only ${oldestFailsNew} tasks`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
