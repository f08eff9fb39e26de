// Runs the test files under the given folders or the given files (default: test/, without test/gated) with node's test runner,
// TypeScript loaded through tsx. Exits non-zero when any test fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const roots = process.argv.slice(2);
const includeGated = roots.length > 0;
const files = [];
const visit = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name === 'fixtures' || name === 'node_modules' || (name === 'gated' && !includeGated)) continue;
      visit(full);
    } else if (name.endsWith('.test.ts')) files.push(relative(process.cwd(), full));
  }
};
for (const root of roots.length > 0 ? roots : ['test']) {
  if (statSync(root).isDirectory()) visit(root);
  else files.push(relative(process.cwd(), root));
}
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}
// Every temporary folder the tests (and the processes they start) make goes under one scratch folder, removed at
// the end: a test that fails before its cleanup leaves nothing behind in the system's temporary folder.
const scratch = mkdtempSync(join(tmpdir(), 'anachron-tests-'));
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-timeout', String(10 * 60_000), '--test-reporter', 'spec', ...files], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: scratch },
});
rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);
