// A docstring signature standing in for an introspected (*args, **kwargs): where it names nothing a keyword can
// pass (scipy 1.6's "Rbf(*args)", whose __init__ reads function=, epsilon= from **kwargs), the **kwargs stays, so
// no keyword is reported as unknown; where it names keywords, they are the signature. Runtime probe and static
// extractor alike.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { writePackage } from './support/project.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const PROBE = join(__dirname, '..', 'python-probe');

test('a docstring signature without keywords keeps the callable\'s **kwargs; one naming keywords is the signature', () => {
  const root = writePackage('oklib', `\
"""Interpolators."""
__version__ = "1.0"
__all__ = ["Rbf", "Tool"]
class Rbf:
    """
    Rbf(*args)

    A class for radial basis function interpolation.
    """
    def __init__(self, *args, **kwargs):
        self.function = kwargs.pop("function", "multiquadric")
class Tool:
    """
    Tool(x, tol=1.0)

    A tool.
    """
    def __init__(self, *args, **kwargs):
        pass
`, 'anachron-open-keywords-');
  const runtime = spawnSync(PYTHON, [join(PROBE, 'probe.py'), 'oklib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root } });
  assert.equal(runtime.status, 0, runtime.stderr);
  const statik = spawnSync(PYTHON, [join(PROBE, 'static.py'), 'oklib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
  assert.equal(statik.status, 0, statik.stderr);
  for (const [label, out] of [['runtime', runtime.stdout], ['static', statik.stdout]] as const) {
    const apis = new Map((JSON.parse(out) as { apis: { path: string; signature: { parameters: { name: string; kind: string }[] } | null }[] }).apis.map((a) => [a.path, a]));
    const params = (path: string) => apis.get(path)?.signature?.parameters.map((p) => `${p.kind}:${p.name}`);
    assert.deepEqual(params('oklib.Rbf'), ['var_positional:args', 'var_keyword:kwargs'], label);
    assert.deepEqual(params('oklib.Tool'), ['positional_or_keyword:x', 'positional_or_keyword:tol'], label);
  }
});
