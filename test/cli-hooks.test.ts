// The pre-commit hook definition, and its entry run the way pre-commit runs it: `anachron check FILE…`.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT, runCli } from './support/cli.js';

interface HookDefinition { id: string; name: string; entry: string; language: string; types: string[] }

describe('pre-commit hook', () => {
  test('.pre-commit-hooks.yaml defines the anachron hook on Python files with the package bin', () => {
    const hooks = parse(readFileSync(join(REPO_ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as HookDefinition[];
    assert.ok(Array.isArray(hooks));
    const hook = hooks.find((h) => h.id === 'anachron');
    assert.ok(hook);
    assert.equal(hook.entry, 'anachron check');
    assert.equal(hook.language, 'node');
    assert.deepEqual(hook.types, ['python']);
    assert.ok(hook.name);
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.equal(pkg.bin[hook.entry.split(' ')[0]!], 'bin/anachron.js');
  });

  test('the entry fails the commit on a finding in the files passed, and passes clean ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anachron-hook-'));
    writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
    writeFileSync(join(dir, 'bad.py'), 'import numpy as np\ny = np.trapezoid([1])\n');
    writeFileSync(join(dir, 'good.py'), 'import numpy as np\ny = np.trapz([1])\n');
    const bad = runCli(['check', 'good.py', 'bad.py'], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^bad\.py:2:5: error \[anachronistic-api\]/m);
    assert.equal(runCli(['check', 'good.py'], dir).code, 0);
  });
});
