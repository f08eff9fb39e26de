// The static extractor (python-probe/static.py) on a small package of its own, read from a directory and from a
// bare git repository at a tag: public names from __all__ in its shapes, star-import chains, del, conditional and
// optional imports, lazy __getattr__, decorators, signatures, Cython, stubs of compiled modules, generated files,
// recorded errors, determinism and gzip output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';

const REPO_ROOT = join(__dirname, '..');
const STATIC = join(REPO_ROOT, 'python-probe', 'static.py');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const LIB = 'sfixture';

// The fixture package (Python text verbatim).
const FILES: Record<string, string> = {
  [`${LIB}/__init__.py`]: String.raw`"""Static fixture package.

Second paragraph."""
import sys
from . import core
from .core import *
from .helpers import helper, Widget as Gadget
from . import _compiled
from ._compiled import *
from .version import version as __version__

__all__ = ["Gadget", "helper", "optional_thing", "later"]
__all__ += core.__all__
__all__.extend(["sub"])
__all__.append("fast")
__all__.remove("remove_me")

if sys.platform == "win32":
    def platform_only():
        pass
else:
    def platform_linux():
        """Only on Linux."""

if sys.version_info >= (3, 8):
    new_style = True
else:
    old_style = True

try:
    from some_missing_dependency import optional_thing
except ImportError:
    def optional_thing(x, y=2):
        """Fallback."""

try:
    import os.path as _osp
except ImportError:
    _osp = None

later = 3
scratch = 1
del scratch


def __getattr__(name):
    if name == "lazy_sub":
        import sfixture.sub as sub
        return sub
    raise AttributeError(name)
`,
  [`${LIB}/core.py`]: String.raw`"""Core."""
import functools

from .helpers import set_module, wrapping, replacing

__all__ = ["api", "Widget", "remove_me", "RATIO", "wrapped", "replaced", "Positional"]
__all__ = __all__ + ["plus"]

RATIO = 0.5
_SENTINEL = object()


@set_module("sfixture")
def api(a, b, /, c, d=1, *args, e, f=None, **kw):
    """Combine things.

    More text."""


def remove_me():
    pass


def plus(x):
    return x


@wrapping
def wrapped(alpha, beta=3):
    """Wrapped keeps its signature."""


@replacing
def replaced(alpha, beta=3):
    """Replaced by the wrapper."""


class Widget:
    """A widget."""

    kind = "w"
    __slots__ = ("size",)

    def __init__(self, size, *, color="red"):
        self.size = size

    def resize(self, factor, minimum=None):
        """Resize."""

    @classmethod
    def build(cls, spec, /, strict=False):
        pass

    @staticmethod
    def helper(z, *, flag=False):
        pass

    @property
    def area(self):
        return 0

    def _private(self):
        pass


class Positional(Widget):
    def resize(self, factor):
        """Narrower."""
`,
  [`${LIB}/helpers.py`]: String.raw`import functools


def set_module(module):
    def decorator(func):
        if module is not None:
            func.__module__ = module
        return func
    return decorator


def wrapping(func):
    @functools.wraps(func)
    def inner(*args, **kwargs):
        return func(*args, **kwargs)
    return inner


def replacing(func):
    def inner(value, *, mode="x"):
        return func(value)
    return inner


def helper(n):
    """Help."""


class Widget:
    pass
`,
  [`${LIB}/sub/__init__.py`]: String.raw`"""Sub package without __all__."""
import os
from .leaf import *
from .. import core
LIMIT = 10
registry = {}
`,
  [`${LIB}/sub/leaf.py`]: String.raw`__all__ = ["leaf_fn"] + ["leaf_const"]
leaf_const = "c"


def leaf_fn(q):
    pass


def not_exported(q):
    pass
`,
  [`${LIB}/_compiled.pyi`]: String.raw`from typing import overload

__all__ = ["fast", "Engine"]

@overload
def fast(x: int, *, mode: str = ...) -> int: ...
@overload
def fast(x: str, y: str = "a", *, mode: str = ...) -> str: ...

class Engine:
    def __init__(self, n: int) -> None: ...
    def run(self, steps: int = 1) -> None: ...
`,
  [`${LIB}/cyth.pyx`]: String.raw`# cython: binding=True
cimport numpy as cnp
from libc.math cimport sqrt

DEF SIZE = 3

cdef double _hidden(double x) nogil:
    return x


def cy_func(int n, double[:, ::1] data not None, object mode=None, *, bint flag=False):
    """cy_func(n, data, mode=None, *, flag=False)

    A Cython function."""
    cdef int i
    for i in range(n):
        pass
    return n


cpdef double cp_func(double x, double y=1.0):
    return x + y


cdef class Engine2:
    """Engine2(size)

    An extension type."""
    cdef public double speed
    cdef readonly int size
    cdef object _private

    def __init__(self, int size):
        self.size = size

    def go(self, double distance, *, bint fast=False):
        """Go."""
        pass

    property label:
        def __get__(self): return "x"
`,
  [`${LIB}/legacy.py`]: 'print "python 2 only"\n',
  [`${LIB}/tests/__init__.py`]: 'raise RuntimeError("never read")\n',
  [`${LIB}/tests/test_x.py`]: 'def test_x():\n    pass\n',
  'setup.py': String.raw`from setuptools import setup
setup(
    name="sfixture",
    classifiers=["Programming Language :: Python :: 3.11"],
    install_requires=[],
)
`,
};

let work = '';
let srcDir = '';
let gitDir = '';

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, [STATIC, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Api {
  path: string;
  kind: string;
  defined_in: string | null;
  exported: boolean;
  signature: { parameters: { name: string; kind: string; default: string | null }[]; returns: string | null; source: string } | null;
  doc: string | null;
}
interface Surf {
  schema: string;
  library: string;
  version: string;
  provenance: Record<string, string>;
  modules: { name: string; imported: boolean }[];
  apis: Api[];
  errors: { module: string; error: string }[];
  stats: Record<string, unknown>;
}

let surface: Surf;
let byPath: Map<string, Api>;
const params = (p: string) => byPath.get(p)?.signature?.parameters.map((x) => x.name);

before(() => {
  work = mkdtempSync(join(tmpdir(), 'anachron-static-'));
  srcDir = join(work, 'src');
  for (const [rel, text] of Object.entries(FILES)) {
    const full = join(srcDir, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  // version.py is generated at build time: no file, the module is recorded as not in the tree
  const r = run([LIB, '--source', srcDir, '--version', '0.1.0']);
  assert.equal(r.status, 0, r.stderr);
  surface = JSON.parse(r.stdout);
  byPath = new Map(surface.apis.map((a) => [a.path, a]));
  // the same tree as a bare git repository with a tag
  gitDir = join(work, 'repo.git');
  const g = (args: string[], cwd: string) => {
    const res = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    assert.equal(res.status, 0, res.stderr);
    return res.stdout;
  };
  g(['init', '-q'], srcDir);
  g(['add', '-A'], srcDir);
  g(['commit', '-q', '-m', 'fixture'], srcDir);
  g(['tag', 'v0.2.0'], srcDir);
  g(['clone', '-q', '--bare', srcDir, gitDir], work);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('static extractor: names', () => {
  test('schema, library, version, no python', () => {
    assert.equal(surface.schema, 'anachron-surface/1');
    assert.equal(surface.library, LIB);
    assert.equal(surface.version, '0.1.0');
    assert.equal(surface.provenance.source, 'static');
    assert.ok(surface.provenance.extractor);
  });

  test('__all__: literal, +=, extend, append, remove, concatenation of another module __all__', () => {
    for (const name of ['Gadget', 'helper', 'optional_thing', 'later', 'api', 'Widget', 'RATIO', 'plus', 'sub', 'fast']) {
      assert.equal(byPath.get(`${LIB}.${name}`)?.exported, true, name);
    }
    assert.equal(byPath.get(`${LIB}.remove_me`)?.exported ?? false, false);
  });

  test('star imports chained through a subpackage; names without __all__', () => {
    assert.equal(byPath.get(`${LIB}.sub.leaf_fn`)?.exported, true);
    assert.equal(byPath.get(`${LIB}.sub.leaf_const`)?.kind, 'attribute');
    assert.equal(byPath.get(`${LIB}.sub.LIMIT`)?.exported, true);
    assert.equal(byPath.get(`${LIB}.sub.not_exported`), undefined);
    // a list display is not a constant: listed, not exported; a foreign module is an opaque attribute
    assert.equal(byPath.get(`${LIB}.sub.registry`)?.exported, false);
    assert.equal(byPath.get(`${LIB}.sub.os`)?.kind, 'attribute');
    assert.equal(byPath.get(`${LIB}.sub.os`)?.exported, false);
  });

  test('conditions decided for CPython on Linux; try/except ImportError; del', () => {
    assert.ok(byPath.has(`${LIB}.platform_linux`));
    assert.ok(!byPath.has(`${LIB}.platform_only`));
    assert.ok(byPath.has(`${LIB}.new_style`));
    assert.ok(!byPath.has(`${LIB}.old_style`));
    assert.deepEqual(params(`${LIB}.optional_thing`), ['x', 'y']);
    assert.ok(!byPath.has(`${LIB}.scratch`));
  });

  test('tests, private modules and unparsable modules', () => {
    const mods = new Map(surface.modules.map((m) => [m.name, m.imported]));
    assert.ok(!mods.has(`${LIB}.tests`));
    assert.ok(!mods.has(`${LIB}._compiled`));
    assert.equal(mods.get(`${LIB}.legacy`), false);
    assert.ok(surface.errors.some((e) => e.module === `${LIB}.legacy` && /SyntaxError/.test(e.error)));
    assert.ok(surface.errors.some((e) => e.module === `${LIB}.version` && /not in the source tree/.test(e.error)));
  });
});

describe('static extractor: signatures', () => {
  test('positional-only, keyword-only, defaults, *args/**kwargs; module set by a decorator', () => {
    const api = byPath.get(`${LIB}.api`)!;
    assert.deepEqual(
      api.signature!.parameters.map((p) => [p.name, p.kind, p.default]),
      [
        ['a', 'positional_only', null],
        ['b', 'positional_only', null],
        ['c', 'positional_or_keyword', null],
        ['d', 'positional_or_keyword', '1'],
        ['args', 'var_positional', null],
        ['e', 'keyword_only', null],
        ['f', 'keyword_only', 'None'],
        ['kw', 'var_keyword', null],
      ],
    );
    assert.equal(api.defined_in, 'sfixture');
    assert.equal(api.doc, 'Combine things.');
  });

  test('functools.wraps keeps the signature, a plain wrapper replaces it', () => {
    assert.deepEqual(params(`${LIB}.wrapped`), ['alpha', 'beta']);
    assert.deepEqual(params(`${LIB}.replaced`), ['value', 'mode']);
  });

  test('classes: constructor, members without self/cls, kinds, inherited members', () => {
    assert.deepEqual(params(`${LIB}.Widget`), ['size', 'color']);
    assert.deepEqual(params(`${LIB}.Widget.resize`), ['factor', 'minimum']);
    assert.deepEqual(params(`${LIB}.Widget.build`), ['spec', 'strict']);
    assert.deepEqual(params(`${LIB}.Widget.helper`), ['z', 'flag']);
    assert.equal(byPath.get(`${LIB}.Widget.area`)?.kind, 'property');
    assert.equal(byPath.get(`${LIB}.Widget.size`)?.kind, 'property');
    assert.equal(byPath.get(`${LIB}.Widget.kind`)?.kind, 'attribute');
    assert.ok(!byPath.has(`${LIB}.Widget._private`));
    assert.deepEqual(params(`${LIB}.Positional.resize`), ['factor']);
    assert.equal(byPath.get(`${LIB}.Positional.build`)?.defined_in, 'sfixture.core');
  });

  test('compiled module described by its stub: overloads merged', () => {
    const fast = byPath.get(`${LIB}.fast`)!;
    assert.equal(fast.signature!.source, 'stub');
    assert.deepEqual(params(`${LIB}.fast`), ['x', 'y', 'mode']);
    assert.deepEqual(params(`${LIB}.Engine`), ['n']);
    assert.deepEqual(params(`${LIB}.Engine.run`), ['steps']);
  });

  test('Cython: def/cpdef with C types stripped, cdef class, public/readonly attributes, old property', () => {
    assert.deepEqual(params(`${LIB}.cyth.cy_func`), ['n', 'data', 'mode', 'flag']);
    assert.deepEqual(params(`${LIB}.cyth.cp_func`), ['x', 'y']);
    assert.ok(!byPath.has(`${LIB}.cyth._hidden`));
    assert.deepEqual(params(`${LIB}.cyth.Engine2`), ['size']);
    assert.deepEqual(params(`${LIB}.cyth.Engine2.go`), ['distance', 'fast']);
    assert.equal(byPath.get(`${LIB}.cyth.Engine2.speed`)?.kind, 'property');
    assert.equal(byPath.get(`${LIB}.cyth.Engine2.size`)?.kind, 'property');
    assert.equal(byPath.get(`${LIB}.cyth.Engine2.label`)?.kind, 'property');
  });
});

describe('static extractor: git, output', () => {
  test('--git-dir/--tag: provenance, version from the tag, deterministic gzip with mtime 0', () => {
    const out1 = join(work, 'a.json.gz');
    const out2 = join(work, 'b.json.gz');
    for (const out of [out1, out2]) {
      const r = run([LIB, '--git-dir', gitDir, '--tag', 'v0.2.0', '--out', out, '--provenance', 'note=x']);
      assert.equal(r.status, 0, r.stderr);
    }
    const a = readFileSync(out1);
    const b = readFileSync(out2);
    assert.ok(a.equals(b), 'byte-identical across runs');
    assert.equal(a.readUInt32LE(4), 0, 'gzip mtime 0');
    const s = JSON.parse(gunzipSync(a).toString('utf8')) as Surf;
    assert.equal(s.version, '0.2.0');
    assert.equal(s.provenance.tag, 'v0.2.0');
    assert.match(s.provenance.commit ?? '', /^[0-9a-f]{40}$/);
    assert.equal(s.provenance.note, 'x');
    assert.equal(s.provenance.source, 'static');
    const paths = s.apis.map((x) => x.path);
    assert.deepEqual(paths, [...paths].sort());
    assert.ok(paths.includes(`${LIB}.api`));
  });

  test('unknown tag fails cleanly', () => {
    const r = run([LIB, '--git-dir', gitDir, '--tag', 'v9.9.9']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /unknown tag/);
  });
});
