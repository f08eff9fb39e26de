// scripts/matrices.mjs's own options: refused before any work starts (the library's surfaces are not touched).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const SCRIPT = join(__dirname, '..', 'scripts', 'matrices.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

for (const [args, message] of [
  [['pandas', '--jobs', '0'], /--jobs takes a number of releases at once \(1 or more\), not '0'/],
  [['pandas', '--jobs', 'two'], /not 'two'/],
  [['pandas', '--jobs'], /not ''/],
] as const) {
  test(`matrices ${args.join(' ')} is refused`, () => {
    const r = run(...args);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /usage: npm run matrices -- LIBRARY .*\[--jobs N\]/);
  });
}
