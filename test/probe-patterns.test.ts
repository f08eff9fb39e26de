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

describe('a package whose __getattr__ imports its public names lazily from a table', () => {
  // pydantic 2.5+: the package binds none of __all__; __getattr__ looks the name up in a dict of
  // name -> (package, module) and imports it with importlib.import_module(module, package=package)
  const files = {
    'lazylib/__init__.py': [
      '__version__ = "1.0"',
      "__all__ = ('Model', 'validate', 'tools')",
      '_dynamic_imports = {',
      "    'Model': (__spec__.parent, '.main'),",
      "    'validate': (__package__, '.main'),",
      "    'tools': (__package__, '__module__'),",
      '}',
      '',
      'def __getattr__(attr_name):',
      '    dynamic_attr = _dynamic_imports.get(attr_name)',
      '    if dynamic_attr is None:',
      '        raise AttributeError(attr_name)',
      '    package, module_name = dynamic_attr',
      '    from importlib import import_module',
      "    if module_name == '__module__':",
      "        return import_module(f'.{attr_name}', package=package)",
      '    module = import_module(module_name, package=package)',
      '    return getattr(module, attr_name)',
      '',
      'def __dir__():',
      '    return list(__all__)',
      '',
    ].join('\n'),
    'lazylib/main.py': 'class Model:\n    """A model."""\n\n    def dump(self, mode="python"):\n        """Dump."""\n\ndef validate(value, strict=False):\n    """Validate."""\n    return value\n',
    'lazylib/tools.py': 'def helper(x):\n    """Help."""\n    return x\n',
  };
  const { runtime, static: st } = bothReaders('lazylib', files);
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: the names the table serves are the package's, with their signatures and members`, () => {
      assert.equal(surface.get('lazylib.Model')?.kind, 'class');
      assert.equal(params(surface.get('lazylib.Model.dump')), 'mode');
      assert.equal(params(surface.get('lazylib.validate')), 'value,strict');
      assert.equal(surface.get('lazylib.tools')?.kind, 'module');
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

describe('members and functions made by code that runs at import time', () => {
  // pandas 1.x: read_csv comes from a factory and is passed through a decorator class by hand; DataFrame.sum/max
  // are installed by a classmethod the module calls (through a helper that returns the function it renames).
  const files = {
    'paplib/__init__.py': '__version__ = "1.0"\nfrom .frame import Frame, read_csv\n',
    'paplib/_decorators.py': [
      'class Appender:',
      '    def __init__(self, addendum):',
      '        self.addendum = addendum',
      '    def __call__(self, func):',
      '        func.__doc__ = (func.__doc__ or "") + self.addendum',
      '        return func',
      'def set_function_name(f, name, cls):',
      '    f.__name__ = name',
      '    return f',
      '',
    ].join('\n'),
    'paplib/frame.py': [
      'from ._decorators import Appender, set_function_name',
      'def _make_reader(name, default_sep=","):',
      '    def reader(path, sep=default_sep, header="infer"):',
      '        return path',
      '    reader.__name__ = name',
      '    return reader',
      'read_csv = _make_reader("read_csv")',
      'read_csv = Appender("Read a file.")(read_csv)',
      'def _make_stat(cls, name):',
      '    def stat_func(self, axis=None, skipna=True, **kwargs):',
      '        return None',
      '    return set_function_name(stat_func, name, cls)',
      'class Frame:',
      '    """A frame."""',
      '    @classmethod',
      '    def _add_numeric_operations(cls):',
      '        cls.sum = _make_stat(cls, "sum")',
      '        cls.max = _make_stat(cls, "max")',
      '        def mad(self, axis=None):',
      '            return None',
      '        cls.mad = mad',
      'Frame._add_numeric_operations()',
      '',
    ].join('\n'),
  };
  const { runtime, static: st } = bothReaders('paplib', files);
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: a factory's function passed through a decorator instance keeps its signature`, () => {
      assert.equal(surface.get('paplib.read_csv')?.kind, 'function');
      assert.equal(params(surface.get('paplib.read_csv')), 'path,sep,header');
    });
    test(`${name}: members a classmethod installs are the class's`, () => {
      assert.equal(params(surface.get('paplib.Frame.sum')), 'axis,skipna,kwargs');
      assert.equal(params(surface.get('paplib.Frame.max')), 'axis,skipna,kwargs');
      assert.equal(params(surface.get('paplib.Frame.mad')), 'axis');
    });
  }
});

describe('members a class gets from a generic base and from a decorator factory', () => {
  // pandas 2: DataFrameGroupBy(GroupBy[DataFrame]) inherits through a subscripted generic base; DatetimeIndex gets
  // year, round, ... from @inherit_names([...], DatetimeArray), a factory whose decorator setattr()s each name.
  const { runtime, static: st } = bothReaders('genlib', {
    'genlib/__init__.py': '__version__ = "1.0"\nfrom .groupby import FrameGroupBy\nfrom .index import TimeIndex\n',
    'genlib/groupby.py': [
      'from typing import Generic, TypeVar',
      'T = TypeVar("T")',
      'class GroupBy(Generic[T]):',
      '    def all(self, skipna=True):',
      '        return None',
      'class FrameGroupBy(GroupBy[int]):',
      '    def agg(self, func=None):',
      '        return None',
      '',
    ].join('\n'),
    'genlib/extension.py': [
      'def _inherit(name, delegate, cache=False):',
      '    attr = getattr(delegate, name)',
      '    if isinstance(attr, property):',
      '        return property(lambda self: getattr(self._data, name))',
      '    def method(self, *args, **kwargs):',
      '        return attr(self._data, *args, **kwargs)',
      '    return method',
      'def inherit_names(names, delegate, cache=False, wrap=False):',
      '    def wrapper(cls):',
      '        for name in names:',
      '            setattr(cls, name, _inherit(name, delegate, cache=cache))',
      '        return cls',
      '    return wrapper',
      '',
    ].join('\n'),
    'genlib/index.py': [
      'from .extension import inherit_names',
      'class TimeArray:',
      '    _fields = ["year", "month"]',
      '    year = property(lambda self: 1)',
      '    month = property(lambda self: 1)',
      '    is_normalized = property(lambda self: True)',
      '    def round(self, freq):',
      '        return self',
      '@inherit_names(TimeArray._fields + ["round"], TimeArray, wrap=True)',
      '@inherit_names(["is_normalized"], TimeArray, cache=True)',
      'class TimeIndex:',
      '    pass',
      '',
    ].join('\n'),
  });
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: a subscripted generic base is the base`, () => {
      assert.equal(params(surface.get('genlib.FrameGroupBy.all')), 'skipna');
      assert.equal(params(surface.get('genlib.FrameGroupBy.agg')), 'func');
    });
    test(`${name}: the names a decorator factory's decorator sets are the class's`, () => {
      for (const member of ['year', 'month', 'round', 'is_normalized']) assert.ok(surface.has(`genlib.TimeIndex.${member}`), member);
      assert.ok(!surface.has('genlib.TimeIndex.tz'));
    });
  }
});

describe('Cython classes declared in a .pxd', () => {
  // pandas' offsets.pyx: BaseOffset's `cdef readonly: int64_t n` is in offsets.pxd; Cython reads the attributes of
  // a cdef class from there. Cython cannot run here: static reader only.
  test("static: the public attributes the .pxd declares are the .pyx class's", () => {
    const root = mkdtempSync(join(work, 'pxdlib-'));
    mkdirSync(join(root, 'pxdlib'));
    writeFileSync(join(root, 'pxdlib', '__init__.py'), '__version__ = "1.0"\nfrom ._offsets import Offset\n');
    writeFileSync(join(root, 'pxdlib', '_offsets.pxd'), 'cpdef to_offset(object obj)\n\ncdef class Offset:\n    cdef readonly:\n        int n\n        bint normalize\n    cdef int hidden\n');
    writeFileSync(join(root, 'pxdlib', '_offsets.pyx'), 'cdef class Offset:\n    """An offset."""\n    def __init__(self, n=1, normalize=False):\n        self.n = n\n    def rollback(self, dt):\n        return dt\n');
    const r = spawnSync(PYTHON, [STATIC, 'pxdlib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const st = new Map((JSON.parse(r.stdout) as { apis: Api[] }).apis.map((a) => [a.path, a]));
    for (const member of ['n', 'normalize', 'rollback']) assert.ok(st.has(`pxdlib.Offset.${member}`), member);
    assert.ok(!st.has('pxdlib.Offset.hidden'));
  });
});

describe('Cython parameters written as Python annotations', () => {
  // pandas' lib.pyx: `def is_bool(obj: object) -> bool` takes a parameter named obj, not one named object; a
  // memoryview type (`double[:] x`) is a C type before the name. Cython cannot run here: static reader only.
  test('static: the name before the annotation is the parameter', () => {
    const root = mkdtempSync(join(work, 'cylib-'));
    mkdirSync(join(root, 'cylib'));
    writeFileSync(join(root, 'cylib', '__init__.py'), '__version__ = "1.0"\nfrom ._lib import is_bool, is_list_like, total\n');
    writeFileSync(join(root, 'cylib', '_lib.pyx'), [
      'def is_bool(obj: object) -> bool:',
      '    """Bool."""',
      '    return True',
      'def is_list_like(obj: object, allow_sets: bool = True) -> bool:',
      '    """List."""',
      '    return True',
      'cpdef double total(double[:] values, int start=0):',
      '    """Sum."""',
      '    return 0',
      '',
    ].join('\n'));
    const r = spawnSync(PYTHON, [STATIC, 'cylib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const st = new Map((JSON.parse(r.stdout) as { apis: Api[] }).apis.map((a) => [a.path, a]));
    assert.equal(params(st.get('cylib.is_bool')), 'obj');
    assert.equal(params(st.get('cylib.is_list_like')), 'obj,allow_sets');
    assert.equal(params(st.get('cylib.total')), 'values,start');
  });
});

describe('what an sdist says about its layout', () => {
  function staticOf(library: string, files: Record<string, string>): Map<string, Api> {
    const root = mkdtempSync(join(work, `${library}-`));
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    const r = spawnSync(PYTHON, [STATIC, library, '--source', root, '--version', '1.0'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return new Map((JSON.parse(r.stdout) as { apis: Api[] }).apis.map((a) => [a.path, a]));
  }

  test("meson's install_subdir installs the whole folder, subpackages its meson.build does not name included", () => {
    const st = staticOf('meslib', {
      'pyproject.toml': '[build-system]\nbuild-backend = "mesonpy"\nrequires = ["meson-python"]\n',
      'meson.build': "project('meslib')\ninstall_subdir('meslib', install_dir: py.get_install_dir())\nsubdir('meslib')\n",
      'meslib/meson.build': "subdir('fast')\n",
      'meslib/__init__.py': '__version__ = "1.0"\n',
      'meslib/fast/__init__.py': 'def go():\n    return 1\n',
      'meslib/impute/__init__.py': 'def fill(x):\n    return x\n',
    });
    assert.equal(params(st.get('meslib.impute.fill')), 'x');
  });

  test('an egg-info beside the package (lib/ layout) names the requirements; a configured _version.py.in reads', () => {
    const st = staticOf('liblay', {
      'setup.py': 'from setuptools import setup\nsetup(name="liblay", package_dir={"": "lib"})\n',
      'lib/liblay.egg-info/requires.txt': 'numpy>=1.11\n',
      'lib/liblay/__init__.py': 'import numpy as np\nfrom ._version import version\n\ndef scale(x, factor=np.pi):\n    return x\n',
      'lib/liblay/_version.py.in': 'version = @VCS_TAG@\n',
    });
    assert.equal(params(st.get('liblay.scale')), 'x,factor');
    assert.ok(st.has('liblay.version'));
  });
});

describe('a decorator whose result shows more parameters than the function (the library file names it)', () => {
  // networkx 3.2+: @_dispatchable's instances give inspect.signature the function's parameters with
  // `*, backend=None, **backend_kwargs` added; static reading takes them from [static] decorator-parameters.
  const dispatch = [
    'import inspect',
    '',
    'class _dispatchable:',
    '    def __init__(self, func=None, **kw):',
    '        self.func = func',
    '    def __call__(self, *args, **kwargs):',
    '        return self.func(*args, **kwargs)',
    '    @property',
    '    def __signature__(self):',
    '        sig = inspect.signature(self.func)',
    '        ps = list(sig.parameters.values())',
    '        extra = inspect.Parameter("backend", inspect.Parameter.KEYWORD_ONLY, default=None)',
    '        if ps and ps[-1].kind == inspect.Parameter.VAR_KEYWORD:',
    '            return sig.replace(parameters=ps[:-1] + [extra, ps[-1]])',
    '        return sig.replace(parameters=ps + [extra, inspect.Parameter("backend_kwargs", inspect.Parameter.VAR_KEYWORD)])',
    '',
  ].join('\n');
  const files = {
    'displib/__init__.py': '__version__ = "1.0"\nfrom .backends import _dispatchable\nfrom .algos import rank, layout, plain\n',
    'displib/backends.py': dispatch,
    'displib/algos.py': [
      'from .backends import _dispatchable',
      '',
      '@_dispatchable',
      'def rank(G, alpha=0.85):',
      '    return G',
      '',
      '@_dispatchable',
      'def layout(G, **options):',
      '    return G',
      '',
      'def plain(G):',
      '    return G',
      '',
    ].join('\n'),
  };

  test('both readers see backend= and **backend_kwargs, in front of a **kwargs the function has', () => {
    const libraries = mkdtempSync(join(work, 'libraries-'));
    writeFileSync(join(libraries, 'displib.toml'), 'name = "displib"\n\n[static]\nfrom = "pypi"\ndecorator-parameters = { "displib.backends._dispatchable" = "backend=None, **backend_kwargs" }\n');
    const saved = process.env.ANACHRON_LIBRARIES;
    process.env.ANACHRON_LIBRARIES = libraries;
    try {
      const { runtime, static: st } = bothReaders('displib', files);
      for (const surface of [runtime, st]) {
        assert.equal(params(surface.get('displib.rank')), 'G,alpha,backend,backend_kwargs');
        assert.equal(params(surface.get('displib.layout')), 'G,backend,options');
        assert.equal(params(surface.get('displib.plain')), 'G');
      }
    } finally {
      if (saved === undefined) delete process.env.ANACHRON_LIBRARIES;
      else process.env.ANACHRON_LIBRARIES = saved;
    }
  });

  test('without the library file saying so, static reading keeps the function signature', () => {
    const { static: st } = bothReaders('displib', files);
    assert.equal(params(st.get('displib.rank')), 'G,alpha');
  });
});

describe('accessors: a class attribute whose descriptor stands for another class', () => {
  // pandas' CachedAccessor (Series.str, .dt, .cat, DataFrame.plot, .sparse): read on the class it gives the
  // accessor's class, read on an instance an instance of it; the accessor's members are the documented
  // Series.str.lower. Both readers walk them under the attribute; other descriptors are left as they are.
  const { runtime, static: st } = bothReaders('acclib', {
    'acclib/__init__.py': '__version__ = "1.0"\nfrom .frame import Column\nfrom .text import TextMethods\n',
    'acclib/_descr.py': [
      'class Accessor:',
      '    def __init__(self, label, accessor):',
      '        self._label = label',
      '        self._accessor = accessor',
      '    def __get__(self, obj, cls):',
      '        if obj is None:',
      '            return self._accessor',
      '        made = self._accessor(obj)',
      '        object.__setattr__(obj, self._label, made)',
      '        return made',
      'class Flag:',
      '    def __init__(self, value):',
      '        self.value = value',
      '    def __get__(self, obj, cls):',
      '        if obj is None:',
      '            return self',
      '        return self.value',
      '',
    ].join('\n'),
    'acclib/text.py': [
      'from ._descr import Accessor',
      'class TextMethods:',
      '    def __init__(self, data):',
      '        self._data = data',
      '    def upper(self):',
      '        return self',
      '    def pad(self, width, side="left"):',
      '        return self',
      '    @property',
      '    def size(self):',
      '        return 0',
      '',
    ].join('\n'),
    'acclib/frame.py': [
      'from ._descr import Accessor, Flag',
      'from .text import TextMethods',
      'import acclib.text',
      'class Column:',
      '    text = Accessor("text", TextMethods)',
      '    flag = Flag(TextMethods)',
      '    def head(self, n=5):',
      '        return self',
      '# an accessor that leads back to the class walked (walked once, not forever)',
      'acclib.text.TextMethods.column = Accessor("column", Column)',
      '',
    ].join('\n'),
  });
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: the accessor's members are the class's, under the attribute`, () => {
      assert.equal(surface.get('acclib.Column.text')?.kind, 'attribute');
      assert.equal(surface.get('acclib.Column.text.upper')?.kind, 'method');
      assert.equal(params(surface.get('acclib.Column.text.pad')), 'width,side');
      assert.equal(surface.get('acclib.Column.text.size')?.kind, 'property');
      assert.equal(params(surface.get('acclib.Column.head')), 'n');
    });
    test(`${name}: a descriptor that gives itself on the class has no members`, () => {
      assert.ok(surface.has('acclib.Column.flag'));
      assert.deepEqual([...surface.keys()].filter((p) => p.startsWith('acclib.Column.flag.')), []);
    });
  }
  test('both readers see the same paths', () => {
    const names = (m: Map<string, Api>) => [...m.keys()].filter((p) => p.startsWith('acclib.')).sort();
    assert.deepEqual(names(st), names(runtime));
  });
});

describe('members a classmethod delegates to another class, guarded by hasattr', () => {
  // pandas' @delegate_names(delegate, names, typ) (Series.dt.year, Series.cat.rename_categories, .sparse.*): a
  // decorator factory whose decorator calls the classmethod _add_delegate_accessors, which loops over the names and
  // setattr()s a property or a (*args, **kwargs) method for each, unless the class already has it
  // (`if overwrite or not hasattr(cls, name)`); the same classmethod called at module level.
  const { runtime, static: st } = bothReaders('dlglib', {
    'dlglib/__init__.py': [
      '__version__ = "1.0"',
      'from .series import Series',
      'from .accessors import TimeProperties, CatMethods',
      '',
    ].join('\n'),
    'dlglib/accessor.py': [
      'class Delegate:',
      '    def _delegate_property_get(self, name):',
      '        return getattr(self._data, name)',
      '',
      '    def _delegate_method(self, name, *args, **kwargs):',
      '        return getattr(self._data, name)(*args, **kwargs)',
      '',
      '    @classmethod',
      '    def _add_delegate_accessors(cls, delegate, accessors, typ, overwrite=False):',
      '        def _create_delegator_property(name):',
      '            def _getter(self):',
      '                return self._delegate_property_get(name)',
      '',
      '            _getter.__name__ = name',
      '            return property(fget=_getter, doc=getattr(delegate, name).__doc__)',
      '',
      '        def _create_delegator_method(name):',
      '            def f(self, *args, **kwargs):',
      '                return self._delegate_method(name, *args, **kwargs)',
      '',
      '            f.__name__ = name',
      '            f.__doc__ = getattr(delegate, name).__doc__',
      '            return f',
      '',
      '        for name in accessors:',
      '            if typ == "property":',
      '                f = _create_delegator_property(name)',
      '            else:',
      '                f = _create_delegator_method(name)',
      '            # don\'t overwrite existing methods/properties',
      '            if overwrite or not hasattr(cls, name):',
      '                setattr(cls, name, f)',
      '',
      '',
      'def delegate_names(delegate, accessors, typ, overwrite=False):',
      '    def add_delegate_accessors(cls):',
      '        cls._add_delegate_accessors(delegate, accessors, typ, overwrite=overwrite)',
      '        return cls',
      '',
      '    return add_delegate_accessors',
      '',
      '',
      'class Accessor:',
      '    def __init__(self, name, accessor):',
      '        self._name = name',
      '        self._accessor = accessor',
      '',
      '    def __get__(self, obj, cls):',
      '        if obj is None:',
      '            return self._accessor',
      '        return self._accessor(obj)',
      '',
    ].join('\n'),
    'dlglib/arrays.py': [
      'class TimeArray:',
      '    _field_ops = ["year", "month"]',
      '    _bool_ops = ["is_leap_year"]',
      '    _datetimelike_ops = _field_ops + _bool_ops + ["freq"]',
      '    _methods = ["round", "strftime"]',
      '',
      '    year = property(lambda self: 1)',
      '    month = property(lambda self: 1)',
      '    is_leap_year = property(lambda self: False)',
      '    freq = property(lambda self: None)',
      '',
      '    def round(self, freq):',
      '        return self',
      '',
      '    def strftime(self, date_format):',
      '        return ""',
      '',
      '',
      'class Categorical:',
      '    categories = property(lambda self: [])',
      '',
      '    def rename_categories(self, new_categories):',
      '        return self',
      '',
      '    def describe(self):',
      '        return None',
      '',
    ].join('\n'),
    'dlglib/accessors.py': [
      'from .accessor import Delegate, delegate_names',
      'from .arrays import Categorical, TimeArray',
      '',
      '',
      '@delegate_names(delegate=TimeArray, accessors=TimeArray._datetimelike_ops, typ="property")',
      '@delegate_names(delegate=TimeArray, accessors=TimeArray._methods, typ="method")',
      'class TimeProperties(Delegate):',
      '    def __init__(self, data):',
      '        self._data = data',
      '',
      '    def to_pydatetime(self):',
      '        return []',
      '',
      '',
      '@delegate_names(Categorical, ["categories"], "property")',
      '@delegate_names(Categorical, ["rename_categories", "describe"], "method")',
      'class CatMethods(Delegate):',
      '    def __init__(self, data):',
      '        self._data = data',
      '',
      '    def describe(self, percentiles=None):',
      '        return None',
      '',
      '',
      'class Plain(Delegate):',
      '    pass',
      '',
      '',
      'Plain._add_delegate_accessors(Categorical, ["categories"], "property")',
      '',
    ].join('\n'),
    'dlglib/series.py': [
      'from .accessor import Accessor',
      'from .accessors import CatMethods, TimeProperties',
      '',
      '',
      'class Series:',
      '    dt = Accessor("dt", TimeProperties)',
      '    cat = Accessor("cat", CatMethods)',
      '',
      '    def head(self, n=5):',
      '        return self',
      '',
    ].join('\n'),
  });
  for (const [name, surface] of [['runtime', runtime], ['static', st]] as const) {
    test(`${name}: the delegated names are the class's and its accessor's, properties and (*args, **kwargs) methods`, () => {
      for (const p of ['year', 'month', 'is_leap_year', 'freq']) assert.equal(surface.get(`dlglib.Series.dt.${p}`)?.kind, 'property', p);
      assert.equal(params(surface.get('dlglib.Series.dt.strftime')), 'args,kwargs');
      assert.equal(params(surface.get('dlglib.Series.cat.rename_categories')), 'args,kwargs');
      assert.equal(surface.get('dlglib.accessors.Plain.categories')?.kind, 'property');
    });
    test(`${name}: a name the class has already is not replaced (hasattr)`, () => {
      assert.equal(params(surface.get('dlglib.Series.cat.describe')), 'percentiles');
      assert.equal(params(surface.get('dlglib.Series.dt.to_pydatetime')), '');
    });
  }
  test('both readers see the same paths', () => {
    const names = (m: Map<string, Api>) => [...m.keys()].filter((p) => p.startsWith('dlglib.')).sort();
    assert.deepEqual(names(st), names(runtime));
  });
});
