// Patterns many libraries share, handled once in both readers: each case is a small library written here, read by
// the runtime probe (imported) and by the static extractor (never imported), and both must see the same names and
// parameters.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const PROBE = join(__dirname, '..', 'python-probe', 'probe.py');
const STATIC = join(__dirname, '..', 'python-probe', 'static.py');
const work = mkdtempSync(join(tmpdir(), 'anachron-patterns-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Api { path: string; kind: string; signature: { parameters: { name: string; kind: string }[] } | null }

/** Both surfaces of a library made of `files` (paths relative to the source root). */
function bothReaders(library: string, files: Record<string, string>): { runtime: Map<string, Api>; static: Map<string, Api> } {
  const root = mkdtempSync(join(work, `${library}-`));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const rt = spawnSync(PYTHON, [PROBE, library], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root, PYTHONDONTWRITEBYTECODE: '1' } });
  assert.equal(rt.status, 0, rt.stderr);
  const st = spawnSync(PYTHON, [STATIC, library, '--source', root, '--version', '1.0'], { encoding: 'utf8' });
  assert.equal(st.status, 0, st.stderr);
  const index = (out: string) => new Map((JSON.parse(out) as { apis: Api[] }).apis.map((a) => [a.path, a]));
  return { runtime: index(rt.stdout), static: index(st.stdout) };
}

const params = (a: Api | undefined) => a?.signature?.parameters.map((p) => p.name).join(',');

describe('a module __getattr__ that forwards to another module', () => {
  // numpy 2's numpy.linalg.linalg and numpy.core.*: renamed private modules left as shims that serve every name of
  // the module they became, with a DeprecationWarning; dir() lists none of them.
  const files = {
    'shimlib/__init__.py': '__version__ = "1.0"\nfrom . import _impl, old, core\n',
    'shimlib/_impl.py': 'class LinAlgError(Exception):\n    """Raised."""\n\ndef solve(a, b=None):\n    """Solve."""\n    return a\n\n_hidden = 1\n',
    'shimlib/old.py': [
      'def __getattr__(attr_name):',
      '    import warnings',
      '    from shimlib import _impl',
      '    ret = getattr(_impl, attr_name, None)',
      '    if ret is None:',
      '        raise AttributeError(attr_name)',
      '    warnings.warn("shimlib.old is private now", DeprecationWarning, stacklevel=2)',
      '    return ret',
      '',
    ].join('\n'),
    'shimlib/core/__init__.py': 'from shimlib import _impl as _core\n\ndef __getattr__(name):\n    attr = getattr(_core, name)\n    return attr\n',
  };
  const { runtime, static: st } = bothReaders('shimlib', files);
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: every public name of the target module is served, with its signature`, () => {
      assert.equal(surface.get('shimlib.old.LinAlgError')?.kind, 'class');
      assert.equal(params(surface.get('shimlib.old.solve')), 'a,b');
      assert.equal(params(surface.get('shimlib.core.solve')), 'a,b');
      assert.ok(!surface.has('shimlib.old._hidden') && !surface.has('shimlib.old.hidden'));
    });
  }
});

describe('decorators that rename or retire a keyword', () => {
  // The wrapper (functools.wraps: inspect shows the new name only) looks the old name up in **kwargs, warns and
  // passes it on: the old keyword works at that version. pandas' deprecate_kwarg factory, matplotlib's
  // rename_parameter (functools.partial of itself until it gets the function), a class method, a removal.
  const files = {
    'renlib/__init__.py': '__version__ = "1.0"\nfrom .api import pivot, scatter, Frame\n',
    'renlib/_decorators.py': [
      'import functools, warnings',
      'def deprecate_kwarg(old_arg_name, new_arg_name, mapping=None):',
      '    def _deprecate_kwarg(func):',
      '        @functools.wraps(func)',
      '        def wrapper(*args, **kwargs):',
      '            old_arg_value = kwargs.pop(old_arg_name, None)',
      '            if old_arg_value is not None:',
      '                warnings.warn("use " + str(new_arg_name), FutureWarning)',
      '                if new_arg_name is not None:',
      '                    if kwargs.get(new_arg_name) is not None:',
      '                        raise TypeError("both")',
      '                    kwargs[new_arg_name] = old_arg_value',
      '            return func(*args, **kwargs)',
      '        return wrapper',
      '    return _deprecate_kwarg',
      'def rename_parameter(since, old, new, func=None):',
      '    decorator = functools.partial(rename_parameter, since, old, new)',
      '    if func is None:',
      '        return decorator',
      '    @functools.wraps(func)',
      '    def wrapper(*args, **kwargs):',
      '        if old in kwargs:',
      '            warnings.warn("renamed", DeprecationWarning)',
      '            kwargs[new] = kwargs.pop(old)',
      '        return func(*args, **kwargs)',
      '    return wrapper',
      '',
    ].join('\n'),
    'renlib/api.py': [
      'from ._decorators import deprecate_kwarg, rename_parameter',
      '@deprecate_kwarg(old_arg_name="cols", new_arg_name="columns")',
      'def pivot(data, columns=None, values=None):',
      '    """Pivot."""',
      '    return data',
      '@rename_parameter("3.6", "s", "text")',
      'def scatter(x, y, text=None, **kwargs):',
      '    """Scatter."""',
      '    return x',
      'class Frame:',
      '    """A frame."""',
      '    @deprecate_kwarg("how", None)',
      '    def fill(self, value=None):',
      '        """Fill."""',
      '        return value',
      '    @deprecate_kwarg("axis_", "axis")',
      '    def take(self, indices, axis=0):',
      '        """Take."""',
      '        return indices',
      '',
    ].join('\n'),
  };
  const { runtime, static: st } = bothReaders('renlib', files);
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: the old keyword is accepted next to the new one`, () => {
      assert.equal(params(surface.get('renlib.pivot')), 'data,columns,values,cols');
      assert.equal(params(surface.get('renlib.scatter')), 'x,y,text,s,kwargs');
      assert.equal(params(surface.get('renlib.Frame.take')), 'indices,axis,axis_');
      assert.equal(surface.get('renlib.pivot')?.signature?.parameters.at(-1)?.kind, 'keyword_only');
    });
    test(`${name}: a keyword retired without a successor (new name None) is still accepted`, () => {
      assert.equal(params(surface.get('renlib.Frame.fill')), 'value,how');
    });
  }
});
