// Names a module serves through __getattr__ with a DeprecationWarning still work: the probe records them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const PROBE = join(__dirname, '..', 'python-probe', 'probe.py');

test('names in __deprecated_attrs__ are recorded, not exported', () => {
  const root = mkdtempSync(join(tmpdir(), 'anachron-probe-deprecated-'));
  mkdirSync(join(root, 'deplib'));
  writeFileSync(join(root, 'deplib', '__init__.py'), [
    'import warnings',
    '__version__ = "1.0"',
    '__all__ = ["kept"]',
    'def kept(x):',
    '    return x',
    '__deprecated_attrs__ = {"old_alias": (kept, "old_alias is deprecated, use kept")}',
    'def __getattr__(name):',
    '    if name in __deprecated_attrs__:',
    '        value, message = __deprecated_attrs__[name]',
    '        warnings.warn(message, DeprecationWarning, stacklevel=2)',
    '        return value',
    '    raise AttributeError(name)',
    '',
  ].join('\n'));
  const r = spawnSync(PYTHON, [PROBE, 'deplib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root } });
  assert.equal(r.status, 0, r.stderr);
  const surface = JSON.parse(r.stdout) as { apis: { path: string; kind: string; exported?: boolean }[] };
  const byPath = new Map(surface.apis.map((a) => [a.path, a]));
  assert.equal(byPath.get('deplib.kept')?.exported, true);
  assert.equal(byPath.get('deplib.old_alias')?.kind, 'function');
  assert.equal(byPath.get('deplib.old_alias')?.exported, false);
});
