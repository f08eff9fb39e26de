// Names a module serves through __getattr__ with a DeprecationWarning still work: the probe records them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { writePackage } from './support/project.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const PROBE = join(__dirname, '..', 'python-probe', 'probe.py');

test('names in __deprecated_attrs__ are recorded, not exported', () => {
  const root = writePackage('deplib', `\
import warnings
__version__ = "1.0"
__all__ = ["kept"]
def kept(x):
    return x
__deprecated_attrs__ = {"old_alias": (kept, "old_alias is deprecated, use kept")}
def __getattr__(name):
    if name in __deprecated_attrs__:
        value, message = __deprecated_attrs__[name]
        warnings.warn(message, DeprecationWarning, stacklevel=2)
        return value
    raise AttributeError(name)
`, 'anachron-probe-deprecated-');
  const r = spawnSync(PYTHON, [PROBE, 'deplib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root } });
  assert.equal(r.status, 0, r.stderr);
  const surface = JSON.parse(r.stdout) as { apis: { path: string; kind: string; exported?: boolean }[] };
  const byPath = new Map(surface.apis.map((a) => [a.path, a]));
  assert.equal(byPath.get('deplib.kept')?.exported, true);
  assert.equal(byPath.get('deplib.old_alias')?.kind, 'function');
  assert.equal(byPath.get('deplib.old_alias')?.exported, false);
});

// numpy 2's np.chararray: __getattr__ compares its argument with a literal, warns and returns the class; dir() does
// not list it. Runtime probe and static reader both find it; a literal whose branch raises is not a name; a name the
// namespace holds but __dir__ hides is there too.
test('names __getattr__ serves by literal comparison are recorded by the runtime probe and the static reader alike', () => {
  const root = writePackage('servlib', `\
"""Serves names lazily."""
import warnings
__version__ = "1.0"
__all__ = ["kept"]
def kept(x):
    """Kept."""
    return x
class _Old:
    """Old container."""
def __getattr__(attr):
    if attr == "Old":
        warnings.warn("Old is deprecated", DeprecationWarning, stacklevel=2)
        return _Old
    if attr in ("math", "cmath"):
        import math
        return math
    if attr == "Gone":
        raise AttributeError("Gone was removed in 1.0")
    raise AttributeError(attr)
hidden_alias = kept  # in the namespace, hidden by __dir__ (scipy 1.10: scipy.array)
def __dir__():
    return ["kept"]
`, 'anachron-probe-served-');
  const runtime = spawnSync(PYTHON, [PROBE, 'servlib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root } });
  assert.equal(runtime.status, 0, runtime.stderr);
  const statik = spawnSync(PYTHON, [join(__dirname, '..', 'python-probe', 'static.py'), 'servlib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
  assert.equal(statik.status, 0, statik.stderr);
  for (const [label, out] of [['runtime', runtime.stdout], ['static', statik.stdout]] as const) {
    const paths = new Set((JSON.parse(out) as { apis: { path: string }[] }).apis.map((a) => a.path));
    assert.ok(paths.has('servlib.Old'), `${label}: servlib.Old`);
    assert.ok(paths.has('servlib.math') && paths.has('servlib.cmath'), `${label}: servlib.math and servlib.cmath`);
    assert.ok(!paths.has('servlib.Gone'), `${label}: a name whose branch raises is not there`);
    assert.ok(paths.has('servlib.hidden_alias'), `${label}: a name __dir__ hides still works`);
  }
});
