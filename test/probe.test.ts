// The runtime probe (python-probe/probe.py) on a small package of its own: public paths, kinds, structured
// signatures from inspect / docstrings / stubs, recorded errors, isolation from noisy modules, determinism.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

const REPO_ROOT = join(__dirname, '..');
const PROBE = join(REPO_ROOT, 'python-probe', 'probe.py');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const LIB = 'anachron_fixture_pkg';

// The fixture package. Python source kept verbatim (String.raw: backslashes reach Python unchanged).
const FILES: Record<string, string> = {
  '__init__.py': String.raw`"""Fixture package for the anachron probe.

This second paragraph is not part of the summary."""
from . import core
from .core import Widget, api_function, builtin_like, stubbed

__all__ = ["CONSTANT", "Widget", "api_function", "builtin_like", "core", "missing_name", "stubbed"]
CONSTANT = 42
__version__ = "0.3.1"
`,
  'core.py': String.raw`"""Core implementation."""
import functools
import os

__all__ = ("RATIO", "BadRepr", "Widget", "api_function", "builtin_like", "passthrough", "stubbed", "torch_like", "uses_awkward_defaults")

_SENTINEL = object()
RATIO = 0.5


def api_function(a, b, /, c, d=1, *args, e, f=_SENTINEL, g=lambda x: x, **kw):
    """Combine things.

    Longer description that is not part of the summary."""
    return a


class Widget:
    """A widget with a size."""

    kind = "w"

    def __init__(self, size, *, color="red"):
        self.size = size

    def resize(self, factor, minimum=None):
        """Resize the widget."""

    @classmethod
    def build(cls, spec, /, strict=False):
        """Build a widget from a spec."""

    @staticmethod
    def helper(z, *, flag=False):
        """A static helper."""

    @property
    def area(self):
        """The area (never evaluated by the probe)."""
        raise RuntimeError("property evaluated")

    def _private(self):
        pass

    def stub_method(self, *args, **kwargs):
        """Only the stub knows the parameters."""

    class Inner:
        """Nested class."""

        def __init__(self, q):
            self.q = q

        def deep(self):
            pass


class _BuiltinLikeType:
    """Type of builtin_like: callable, no signature, a docstring like a C function's."""

    def __init__(self, doc):
        self.__doc__ = doc

    @property
    def __signature__(self):
        raise ValueError("no signature found for builtin")

    def __call__(self, *args, **kwargs):
        return None


builtin_like = _BuiltinLikeType(
    "builtin_like(x1, x2, /, out=None, *, where=True, dtype=None[, signature, extobj])\n\n"
    "Add arguments element-wise."
)


def stubbed(*args, **kwargs):
    return None


def passthrough(*args, **kwargs):
    return None


def torch_like(*args, **kwargs):
    return None


# Like torch.add: a function that says it comes from a C extension submodule; its stub is one of the .pyi files in
# the extension's folder (_C/__init__.pyi here, torch/_C/_VariableFunctions.pyi there).
torch_like.__module__ = "anachron_fixture_pkg._C._VariableFunctions"


class BadRepr:
    def __repr__(self):
        raise ValueError("no repr")


def uses_awkward_defaults(value=BadRepr(), items=frozenset({"b", "a", "c"}), text="x" * 100):
    """Defaults whose repr raises, is unordered, or is long."""
`,
  'core.pyi': String.raw`from typing import overload

@overload
def stubbed(x: int, *, mode: str = ...) -> int: ...
@overload
def stubbed(x: str, y: str = "a", *, mode: str = ..., strict: bool = False) -> str: ...

class Widget:
    def stub_method(self, count: int, /, *, scale: float = 1.0) -> None: ...
`,
  '_C/__init__.pyi': String.raw`from typing import Optional

class Tensor: ...

def torch_like(input: Tensor, other: Tensor, *, alpha: float = 1, out: Optional[Tensor] = None) -> Tensor: ...
`,
  'noisy.py': String.raw`"""Prints, warns and changes the process state on import."""
import os
import sys
import warnings

print("noise on stdout")
sys.stderr.write("noise on stderr\n")
os.write(1, b"raw noise on fd 1\n")
os.write(2, b"raw noise on fd 2\n")
warnings.warn("import-time warning")
os.chdir(os.path.dirname(os.path.abspath(__file__)))
sys.argv = ["hijacked"]
sys.stdout = sys.stderr


def quiet():
    """Quiet function."""
`,
  'broken.py': 'raise RuntimeError("boom at import")\n',
  'exits.py': 'import sys\nsys.exit(3)\n',
  'slow.py': 'import time\ntime.sleep(60)\n',
  'lazy.py': String.raw`__all__ = ["ghost", "real", "unknown"]
from ._private import Hidden  # also in extras, not exported by either


def real():
    """Real function."""


def __getattr__(name):
    if name == "ghost":
        raise RuntimeError("lazy failure for " + name)
    raise AttributeError(name)
`,
  '_private.py': 'def secret():\n    pass\n\n\nclass Hidden:\n    """Exported by no module."""\n\n    def peek(self, n):\n        pass\n',
  'tests/__init__.py': 'raise RuntimeError("tests must never be imported")\n',
  'tests/test_core.py': 'def test_nothing():\n    pass\n',
  'conftest.py': 'raise RuntimeError("conftest must never be imported")\n',
  'setup.py': 'raise RuntimeError("setup must never be imported")\n',
  'sub/__init__.py': String.raw`"""Sub package without __all__."""
import os
from functools import wraps

from anachron_fixture_pkg.core import Widget

from . import leaf

LIMIT = 10
NAMES = ("a", "b")
registry = {}
_hidden = 1


def local_fn(x, *, ratio=0.5):
    """Local function."""
`,
  'sub/leaf.py': '"""Leaf module."""\n\n\ndef leaf_fn():\n    pass\n',
  // __all__ plus names kept out of it: library objects (normal kinds), outside objects (opaque attributes), return types.
  'extras.py': String.raw`"""__all__ and the names it leaves out."""
import json
import pickle
from collections import OrderedDict

from .core import Widget, api_function
from .sub import local_fn as _local
from ._private import Hidden

__all__ = ["OrderedDict", "Rng", "annotated", "array_like", "exported_fn", "json", "make_rng", "two_returns", "union_returns"]

int = int  # a deprecated alias of a builtin, kept out of __all__
max = api_function  # a library function under another name, kept out of __all__


def exported_fn(a):
    """Exported."""


def hidden_fn(a, b=2):
    """Kept out of __all__ on purpose."""


class Rng:
    """A generator."""

    def integers(self, low, high=None):
        """Random integers.

        Parameters
        ----------
        low : int
            Lowest.

        Returns
        -------
        out : :class:${'`'}~numpy.ndarray${'`'} of ints, shape (n,)
            The integers.
        """

    def random(self) -> float:
        """Annotated."""


def make_rng(seed=None):
    """Construct a generator.

    Parameters
    ----------
    seed : int, optional
        Seed.

    Returns
    -------
    Rng
        The generator.

    See Also
    --------
    exported_fn
    """


def union_returns(x):
    """Union.

    Returns
    -------
    out : ndarray or scalar
        Either.
    """


def two_returns(x):
    """Two entries.

    Returns
    -------
    a : ndarray
        First.
    b : ndarray
        Second.
    """


def annotated(x) -> "Widget":
    """Annotated; the docstring says otherwise.

    Returns
    -------
    out : ndarray
    """


def array_like(*args, **kwargs) -> "Rng":
    """array_like(shape, dtype=None)

    inspect says only (*args, **kwargs) -> Rng; the docstring names the parameters."""
`,
  'extras.pyi': String.raw`from typing import Any, overload
from numpy.typing import NDArray

@overload
def exported_fn(a: int) -> NDArray[Any]: ...
@overload
def exported_fn(a: float) -> NDArray[float]: ...
`,
};

interface Param { name: string; kind: string; default: string | null }
interface Signature { parameters: Param[]; returns: string | null; source: string }
interface Api {
  path: string; kind: string; defined_in: string; signature: Signature | null; doc: string | null; exported: boolean;
  members_at?: string;
}
interface Surface {
  schema: string; library: string; version: string | null; python: string; platform: string;
  provenance: Record<string, string>;
  modules: { name: string; imported: boolean }[];
  apis: Api[];
  errors: { module: string; error: string }[];
  stats: Record<string, unknown>;
}

const p = (name: string, kind: string, dflt: string | null = null): Param => ({ name, kind, default: dflt });
const sig = (source: string, parameters: Param[], returns: string | null = null): Signature => ({ parameters, returns, source });

let work = '';
let outRun: { status: number | null; stdout: string; stderr: string; file: string } | undefined;
let stdoutRun: { status: number | null; stdout: string; stderr: string } | undefined;
let surface: Surface | undefined;
let byPath = new Map<string, Api>();

function runProbe(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(PYTHON, [PROBE, LIB, '--timeout-per-module', '1', ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: work, PYTHONDONTWRITEBYTECODE: '1' },
    timeout: 60_000,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function api(path: string): Api {
  const a = byPath.get(path);
  assert.ok(a, `missing API record ${path}`);
  return a;
}

describe('python probe on a fixture package', () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'anachron-probe-'));
    for (const [name, text] of Object.entries(FILES)) {
      const full = join(work, LIB, name);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, text);
    }
    // A relative --out: the noisy module changes the cwd on import; the probe must restore it.
    const r1 = runProbe(['--out', 'surface.json', '--provenance', 'source=test', '--provenance', 'note=a=b']);
    outRun = { ...r1, file: join(work, 'surface.json') };
    stdoutRun = runProbe(['--provenance', 'source=test', '--provenance', 'note=a=b']);
    if (existsSync(outRun.file)) {
      surface = JSON.parse(readFileSync(outRun.file, 'utf8')) as Surface;
      byPath = new Map(surface.apis.map((a) => [a.path, a]));
    }
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('runs cleanly: exit 0, nothing leaks to stdout or stderr, relative --out lands in the original cwd', () => {
    assert.ok(outRun && stdoutRun);
    assert.equal(outRun.status, 0, outRun.stderr);
    assert.equal(outRun.stdout, '');
    assert.equal(outRun.stderr, '');
    assert.ok(existsSync(outRun.file));
    assert.equal(stdoutRun.status, 0, stdoutRun.stderr);
    assert.equal(stdoutRun.stderr, '');
    assert.doesNotMatch(stdoutRun.stdout, /noise/);
  });

  test('is byte-identical across runs (stdout and --out), compact JSON on one line', () => {
    assert.ok(outRun && stdoutRun);
    const fromFile = readFileSync(outRun.file, 'utf8');
    assert.equal(stdoutRun.stdout, fromFile);
    assert.equal(fromFile.split('\n').length, 2);
    assert.ok(fromFile.endsWith('\n'));
    assert.doesNotMatch(fromFile, /0x[0-9a-f]{6,}/);
  });

  test('header, provenance, modules and errors', () => {
    assert.ok(surface);
    assert.equal(surface.schema, 'anachron-surface/1');
    assert.equal(surface.library, LIB);
    assert.equal(surface.version, '0.3.1');
    assert.match(surface.python, /^3\.\d+\.\d+/);
    assert.equal(typeof surface.platform, 'string');
    assert.deepEqual(surface.provenance, { source: 'test', note: 'a=b' });
    assert.deepEqual(surface.modules, [
      { name: LIB, imported: true },
      { name: `${LIB}.broken`, imported: false },
      { name: `${LIB}.core`, imported: true },
      { name: `${LIB}.exits`, imported: false },
      { name: `${LIB}.extras`, imported: true },
      { name: `${LIB}.lazy`, imported: true },
      { name: `${LIB}.noisy`, imported: true },
      { name: `${LIB}.slow`, imported: false },
      { name: `${LIB}.sub`, imported: true },
      { name: `${LIB}.sub.leaf`, imported: true },
    ]);
    assert.deepEqual(surface.errors, [
      { module: LIB, error: 'unresolved __all__ entry: missing_name' },
      { module: `${LIB}.broken`, error: 'RuntimeError: boom at import' },
      { module: `${LIB}.exits`, error: 'SystemExit: 3' },
      { module: `${LIB}.lazy`, error: '__all__ entry ghost: RuntimeError: lazy failure for ghost' },
      { module: `${LIB}.lazy`, error: 'unresolved __all__ entry: unknown' },
      { module: `${LIB}.slow`, error: 'Timeout: more than 1 s' },
    ]);
  });

  test('public paths: __all__ (list and tuple) and the rest of dir(), no private or test modules, every alias path', () => {
    assert.ok(surface);
    const widget = (prefix: string) =>
      ['', '.Inner', '.area', '.build', '.helper', '.kind', '.resize', '.stub_method'].map((m) => `${prefix}.Widget${m}`);
    const expected = [
      LIB,
      `${LIB}.CONSTANT`,
      ...widget(LIB),
      `${LIB}.api_function`,
      `${LIB}.builtin_like`,
      `${LIB}.core`,
      `${LIB}.core.BadRepr`,
      `${LIB}.core.RATIO`,
      ...widget(`${LIB}.core`),
      `${LIB}.core.api_function`,
      `${LIB}.core.builtin_like`,
      `${LIB}.core.functools`,
      `${LIB}.core.os`,
      `${LIB}.core.passthrough`,
      `${LIB}.core.stubbed`,
      `${LIB}.core.torch_like`,
      `${LIB}.core.uses_awkward_defaults`,
      `${LIB}.extras`,
      `${LIB}.extras.Hidden`,
      `${LIB}.extras.Hidden.peek`,
      `${LIB}.extras.OrderedDict`,
      `${LIB}.extras.Rng`,
      `${LIB}.extras.Rng.integers`,
      `${LIB}.extras.Rng.random`,
      `${LIB}.extras.Widget`, // members at LIB.Widget
      `${LIB}.extras.annotated`,
      `${LIB}.extras.api_function`,
      `${LIB}.extras.array_like`,
      `${LIB}.extras.exported_fn`,
      `${LIB}.extras.hidden_fn`,
      `${LIB}.extras.int`,
      `${LIB}.extras.json`,
      `${LIB}.extras.make_rng`,
      `${LIB}.extras.max`,
      `${LIB}.extras.pickle`,
      `${LIB}.extras.two_returns`,
      `${LIB}.extras.union_returns`,
      `${LIB}.lazy`,
      `${LIB}.lazy.Hidden`, // members at extras.Hidden
      `${LIB}.lazy.real`,
      `${LIB}.noisy`,
      `${LIB}.noisy.os`,
      `${LIB}.noisy.quiet`,
      `${LIB}.noisy.sys`,
      `${LIB}.noisy.warnings`,
      `${LIB}.stubbed`,
      `${LIB}.sub`,
      `${LIB}.sub.LIMIT`,
      `${LIB}.sub.NAMES`,
      ...widget(`${LIB}.sub`),
      `${LIB}.sub.leaf`,
      `${LIB}.sub.leaf.leaf_fn`,
      `${LIB}.sub.local_fn`,
      `${LIB}.sub.os`,
      `${LIB}.sub.registry`,
      `${LIB}.sub.wraps`,
    ];
    assert.deepEqual(surface.apis.map((a) => a.path), expected);
  });

  test('kinds, defined_in and docs', () => {
    assert.deepEqual(api(LIB), { path: LIB, kind: 'module', defined_in: LIB, signature: null, exported: true, doc: 'Fixture package for the anachron probe.' });
    assert.deepEqual(api(`${LIB}.CONSTANT`), { path: `${LIB}.CONSTANT`, kind: 'attribute', defined_in: LIB, signature: null, exported: true, doc: null });
    assert.deepEqual(api(`${LIB}.sub.NAMES`), { path: `${LIB}.sub.NAMES`, kind: 'attribute', defined_in: `${LIB}.sub`, signature: null, exported: true, doc: null });
    assert.deepEqual(api(`${LIB}.core`), { path: `${LIB}.core`, kind: 'module', defined_in: `${LIB}.core`, signature: null, exported: true, doc: 'Core implementation.' });
    assert.deepEqual(api(`${LIB}.sub.Widget.area`), {
      exported: true, path: `${LIB}.sub.Widget.area`, kind: 'property', defined_in: `${LIB}.core`, signature: null,
      doc: 'The area (never evaluated by the probe).',
    });
    assert.deepEqual(api(`${LIB}.Widget.kind`), { path: `${LIB}.Widget.kind`, kind: 'attribute', defined_in: `${LIB}.core`, signature: null, exported: true, doc: null });
    assert.equal(api(`${LIB}.api_function`).doc, 'Combine things.');
    assert.equal(api(`${LIB}.api_function`).defined_in, `${LIB}.core`);
  });

  test('inspect signatures: parameter kinds, normalised defaults, classes and methods as called', () => {
    assert.deepEqual(api(`${LIB}.api_function`).signature, sig('inspect', [
      p('a', 'positional_only'),
      p('b', 'positional_only'),
      p('c', 'positional_or_keyword'),
      p('d', 'positional_or_keyword', '1'),
      p('args', 'var_positional'),
      p('e', 'keyword_only'),
      p('f', 'keyword_only', '<object>'),
      p('g', 'keyword_only', '<function <lambda>>'),
      p('kw', 'var_keyword'),
    ]));
    assert.deepEqual(api(`${LIB}.Widget`), {
      exported: true, path: `${LIB}.Widget`, kind: 'class', defined_in: `${LIB}.core`, doc: 'A widget with a size.',
      signature: sig('inspect', [p('size', 'positional_or_keyword'), p('color', 'keyword_only', "'red'")]),
    });
    assert.deepEqual(api(`${LIB}.Widget.resize`), {
      exported: true, path: `${LIB}.Widget.resize`, kind: 'method', defined_in: `${LIB}.core`, doc: 'Resize the widget.',
      signature: sig('inspect', [p('factor', 'positional_or_keyword'), p('minimum', 'positional_or_keyword', 'None')]),
    });
    assert.deepEqual(api(`${LIB}.Widget.build`), {
      exported: true, path: `${LIB}.Widget.build`, kind: 'method', defined_in: `${LIB}.core`, doc: 'Build a widget from a spec.',
      signature: sig('inspect', [p('spec', 'positional_only'), p('strict', 'positional_or_keyword', 'False')]),
    });
    assert.deepEqual(api(`${LIB}.Widget.helper`), {
      exported: true, path: `${LIB}.Widget.helper`, kind: 'method', defined_in: `${LIB}.core`, doc: 'A static helper.',
      signature: sig('inspect', [p('z', 'positional_or_keyword'), p('flag', 'keyword_only', 'False')]),
    });
    // A nested class is a member of kind class with its own signature; its members are not walked.
    assert.deepEqual(api(`${LIB}.Widget.Inner`), {
      exported: true, path: `${LIB}.Widget.Inner`, kind: 'class', defined_in: `${LIB}.core`, doc: 'Nested class.',
      signature: sig('inspect', [p('q', 'positional_or_keyword')]),
    });
    assert.equal(byPath.has(`${LIB}.Widget.Inner.deep`), false);
    assert.deepEqual(api(`${LIB}.core.uses_awkward_defaults`).signature, sig('inspect', [
      p('value', 'positional_or_keyword', `<unrepresentable ${LIB}.core.BadRepr>`),
      p('items', 'positional_or_keyword', "frozenset({'a', 'b', 'c'})"),
      p('text', 'positional_or_keyword', `'${'x'.repeat(78)}\u2026`),
    ]));
    // (*args, **kwargs) with nothing better to go on stays as inspect gave it.
    assert.deepEqual(api(`${LIB}.core.passthrough`).signature, sig('inspect', [p('args', 'var_positional'), p('kwargs', 'var_keyword')]));
  });

  test('docstring fallback: first-line signature with [, optional] parts', () => {
    assert.deepEqual(api(`${LIB}.builtin_like`), {
      exported: true, path: `${LIB}.builtin_like`, kind: 'function', defined_in: `${LIB}.core`, doc: 'Add arguments element-wise.',
      signature: sig('docstring', [
        p('x1', 'positional_only'),
        p('x2', 'positional_only'),
        p('out', 'positional_or_keyword', 'None'),
        p('where', 'keyword_only', 'True'),
        p('dtype', 'keyword_only', 'None'),
        p('signature', 'keyword_only', '...'),
        p('extobj', 'keyword_only', '...'),
      ]),
    });
  });

  test('stub fallback: overloads in a .pyi merged into one parameter list', () => {
    const expected = sig('stub', [
      p('x', 'positional_or_keyword'),
      p('y', 'positional_or_keyword', "'a'"),
      p('mode', 'keyword_only', '...'),
      p('strict', 'keyword_only', 'False'),
    ], null); // the overloads return different types: no single return type is recorded
    assert.deepEqual(api(`${LIB}.stubbed`).signature, expected);
    assert.deepEqual(api(`${LIB}.core.stubbed`).signature, expected);
  });

  test('stub fallback for a method whose runtime signature is (self, *args, **kwargs), self dropped', () => {
    for (const prefix of [LIB, `${LIB}.core`, `${LIB}.sub`]) {
      assert.deepEqual(api(`${prefix}.Widget.stub_method`), {
        exported: true, path: `${prefix}.Widget.stub_method`, kind: 'method', defined_in: `${LIB}.core`, doc: 'Only the stub knows the parameters.',
        signature: sig('stub', [p('count', 'positional_only'), p('scale', 'keyword_only', '1.0')], 'None'),
      });
    }
  });

  test('stub fallback for a function of a C extension submodule: the .pyi files of the extension folder', () => {
    assert.deepEqual(api(`${LIB}.core.torch_like`), {
      exported: true, path: `${LIB}.core.torch_like`, kind: 'function', defined_in: `${LIB}._C._VariableFunctions`, doc: null,
      signature: sig('stub', [
        p('input', 'positional_or_keyword'),
        p('other', 'positional_or_keyword'),
        p('alpha', 'keyword_only', '1'),
        p('out', 'keyword_only', 'None'),
      ], 'Tensor'),
    });
  });

  test('names left out of __all__: recorded, exported false; library objects keep their kind, outside ones are opaque', () => {
    // A library function under a name __all__ leaves out (numpy.max, numpy.lib.NumpyVersion).
    assert.deepEqual(api(`${LIB}.extras.hidden_fn`), {
      path: `${LIB}.extras.hidden_fn`, kind: 'function', defined_in: `${LIB}.extras`, exported: false, doc: 'Kept out of __all__ on purpose.',
      signature: sig('inspect', [p('a', 'positional_or_keyword'), p('b', 'positional_or_keyword', '2')]),
    });
    assert.equal(api(`${LIB}.extras.max`).kind, 'function');
    assert.deepEqual(api(`${LIB}.extras.max`).signature, api(`${LIB}.api_function`).signature);
    // A builtin (numpy.int), a stdlib module (numpy.compat.pickle), whether __all__ lists them or not: attributes
    // without signature, doc or members.
    const opaque = (path: string, definedIn: string, exported: boolean): Api =>
      ({ path, kind: 'attribute', defined_in: definedIn, signature: null, doc: null, exported });
    assert.deepEqual(api(`${LIB}.extras.int`), opaque(`${LIB}.extras.int`, 'builtins', false));
    assert.deepEqual(api(`${LIB}.extras.pickle`), opaque(`${LIB}.extras.pickle`, 'pickle', false));
    assert.deepEqual(api(`${LIB}.extras.json`), opaque(`${LIB}.extras.json`, 'json', true));
    assert.deepEqual(api(`${LIB}.extras.OrderedDict`), opaque(`${LIB}.extras.OrderedDict`, 'collections', true));
    assert.deepEqual(api(`${LIB}.sub.wraps`), opaque(`${LIB}.sub.wraps`, 'functools', false));
    assert.deepEqual(api(`${LIB}.noisy.os`), opaque(`${LIB}.noisy.os`, 'os', false));
    // A plain value the module defines that is no constant: still there, opaque.
    assert.deepEqual(api(`${LIB}.sub.registry`), opaque(`${LIB}.sub.registry`, `${LIB}.sub`, false));
    assert.equal([...byPath.keys()].some((k) => k.startsWith(`${LIB}.extras.OrderedDict.`) || k.startsWith(`${LIB}.extras.pickle.`)), false);
    // Without __all__, what passes the old rules is exported; a submodule is exported as a public module of its own.
    assert.equal(api(`${LIB}.sub.local_fn`).exported, true);
    assert.equal(api(`${LIB}.sub.Widget.resize`).exported, true);
    assert.equal(api(`${LIB}.lazy`).exported, true);
    assert.equal(api(`${LIB}.extras`).exported, true);
  });

  test('a class under names not exported: members once, elsewhere members_at', () => {
    // Walked under exported paths already: members_at the shortest of them, no members here.
    assert.equal(api(`${LIB}.extras.Widget`).kind, 'class');
    assert.equal(api(`${LIB}.extras.Widget`).exported, false);
    assert.equal(api(`${LIB}.extras.Widget`).members_at, `${LIB}.Widget`);
    assert.equal(byPath.has(`${LIB}.extras.Widget.resize`), false);
    // Exported nowhere: members under the first such path, exported false; the other one points there.
    assert.equal(api(`${LIB}.extras.Hidden`).members_at, undefined);
    assert.deepEqual(api(`${LIB}.extras.Hidden.peek`), {
      path: `${LIB}.extras.Hidden.peek`, kind: 'method', defined_in: `${LIB}._private`, exported: false, doc: null,
      signature: sig('inspect', [p('n', 'positional_or_keyword')]),
    });
    assert.equal(api(`${LIB}.lazy.Hidden`).members_at, `${LIB}.extras.Hidden`);
    assert.equal(byPath.has(`${LIB}.lazy.Hidden.peek`), false);
    // Exported classes never carry members_at.
    assert.equal(surface!.apis.filter((a) => a.exported && a.members_at !== undefined).length, 0);
  });

  test('return types: inspect annotation, agreeing stub overloads, numpydoc Returns section', () => {
    // numpydoc "Returns" with one entry without a name: the type as written.
    assert.deepEqual(api(`${LIB}.extras.make_rng`).signature, sig('inspect', [p('seed', 'positional_or_keyword', 'None')], 'Rng'));
    // "out : :class:`~numpy.ndarray` of ints, shape (n,)": role and backticks removed, the type named first.
    assert.equal(api(`${LIB}.extras.Rng.integers`).signature?.returns, 'numpy.ndarray');
    // A union, two entries: none.
    assert.equal(api(`${LIB}.extras.union_returns`).signature?.returns, null);
    assert.equal(api(`${LIB}.extras.two_returns`).signature?.returns, null);
    // The annotation comes first (function, method).
    assert.equal(api(`${LIB}.extras.annotated`).signature?.returns, 'Widget');
    assert.equal(api(`${LIB}.extras.Rng.random`).signature?.returns, 'float');
    // inspect gave (*args, **kwargs) -> Rng: the docstring's parameters, inspect's return type.
    assert.deepEqual(api(`${LIB}.extras.array_like`).signature, sig('docstring', [
      p('shape', 'positional_or_keyword'),
      p('dtype', 'positional_or_keyword', 'None'),
    ], 'Rng'));
    // inspect's parameters, the stub's return type: overloads returning NDArray[Any] and NDArray[float] agree on NDArray.
    assert.deepEqual(api(`${LIB}.extras.exported_fn`).signature, sig('inspect', [p('a', 'positional_or_keyword')], 'NDArray'));
  });

  test('stats', () => {
    assert.ok(surface);
    assert.deepEqual(surface.stats, {
      modules: 10,
      modules_imported: 7,
      apis: 77,
      apis_exported: 60,
      callables: 48,
      callables_with_signature: 48,
      callables_with_returns: 10,
      signature_sources: { inspect: 39, docstring: 3, stub: 6 },
    });
  });
});

// C-extension-like callables (objects whose signature inspect cannot read): f2py, Cython and pybind11 docstrings,
// functools.wraps around such a callable, a docstring reconciled with the extension's stub, a callable that names no
// module (torch 1.x), and a packager's release version next to the library's own.
const LIB2 = 'anachron_fixture_cext';
const BT = '``'; // reStructuredText literal quotes inside String.raw
const FILES2: Record<string, string> = {
  '__init__.py': String.raw`"""C extension fixture."""
from .core import (cython_like, deprecated_alias, doc_and_stub, doc_covers_stub, doc_differs_from_stub, exported_c,
                   f2py_like, pybind_like)

__all__ = ["cython_like", "deprecated_alias", "doc_and_stub", "doc_covers_stub", "doc_differs_from_stub",
           "exported_c", "f2py_like", "pybind_like"]
__version__ = "1.7.0a0"
`,
  'core.py': String.raw`import functools

__all__ = ["cython_like", "deprecated_alias", "doc_and_stub", "doc_covers_stub", "doc_differs_from_stub",
           "f2py_like", "pybind_like"]


class _Builtin:
    """Callable without a signature inspect can read, like a C function."""

    def __init__(self, name, doc, module=0):
        self.__name__ = self.__qualname__ = name
        self.__doc__ = doc
        if module != 0:
            self.__module__ = module

    @property
    def __signature__(self):
        raise ValueError("no signature found for builtin")

    def __call__(self, *args, **kwargs):
        return None


f2py_like = _Builtin("f2py_like", "y,info = f2py_like(x,lambda,[k,overwrite_x])\n\nWrapper for ${BT}f2py_like${BT}.")
cython_like = _Builtin(
    "cython_like",
    "cython_like(Q, int p=1, which=u'row', ndarray a not None, double[:] b=None)\n\nCython, embedsignature.",
)
pybind_like = _Builtin("pybind_like", "pybind_like(arg0: int, arg1: str = 'x') -> None\n\npybind11, unnamed arguments.")
_EXT = "anachron_fixture_cext._C._VariableFunctions"
doc_and_stub = _Builtin("doc_and_stub", "doc_and_stub(input, other, out=None) -> Tensor\n\nAdds.", _EXT)
doc_differs_from_stub = _Builtin("doc_differs_from_stub", "doc_differs_from_stub(x, *, layout=None)\n\nDiffers.", _EXT)
doc_covers_stub = _Builtin("doc_covers_stub", "doc_covers_stub(x, y=2)\n\nCovers.", _EXT)
exported_c = _Builtin("exported_c", "exported_c(a)\n\nNames no module.", None)


@functools.wraps(cython_like)
def deprecated_alias(*args, **kwargs):
    return cython_like(*args, **kwargs)


deprecated_alias.__name__ = deprecated_alias.__qualname__ = "deprecated_alias"
deprecated_alias.__doc__ = "deprecated_alias is deprecated, use cython_like instead"
`,
  '_C/__init__.pyi': String.raw`from typing import Optional, overload

class Tensor: ...

@overload
def doc_and_stub(input: Tensor, other: Tensor, *, alpha: float = ..., out: Optional[Tensor] = ...) -> Tensor: ...
@overload
def doc_and_stub(input: Tensor, other: float) -> Tensor: ...
def doc_differs_from_stub(x: Tensor, *, dtype: int = ...) -> Tensor: ...
def doc_covers_stub(x: Tensor) -> Tensor: ...
`,
  'sub.py': String.raw`"""No __all__: the callable that names no module is the library's because the package exports it."""
from .core import exported_c
`,
};

describe('python probe on C-extension-like callables', () => {
  let work2 = '';
  let s2: Surface | undefined;
  let by2 = new Map<string, Api>();
  const api2 = (path: string): Api => {
    const a = by2.get(path);
    assert.ok(a, `missing API record ${path}`);
    return a;
  };

  before(() => {
    work2 = mkdtempSync(join(tmpdir(), 'anachron-probe-cext-'));
    for (const [name, text] of Object.entries(FILES2)) {
      const full = join(work2, LIB2, name);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, text);
    }
    const r = spawnSync(PYTHON, [PROBE, LIB2, '--release-version', '1.7.1', '--provenance', 'source=test'], {
      cwd: work2,
      encoding: 'utf8',
      env: { ...process.env, PYTHONPATH: work2, PYTHONDONTWRITEBYTECODE: '1' },
      timeout: 60_000,
    });
    if (r.error) throw r.error;
    assert.equal(r.status, 0, r.stderr);
    s2 = JSON.parse(r.stdout) as Surface;
    by2 = new Map(s2.apis.map((a) => [a.path, a]));
  });

  after(() => {
    if (work2) rmSync(work2, { recursive: true, force: true });
  });

  test('--release-version: the packager\'s version, the library\'s own kept in provenance', () => {
    assert.ok(s2);
    assert.equal(s2.version, '1.7.1');
    assert.deepEqual(s2.provenance, { source: 'test', [`${LIB2}_version`]: '1.7.0a0' });
  });

  test('f2py "outputs = name(...)" lines, Cython C types, pybind11 argN, a Python keyword as parameter name', () => {
    assert.deepEqual(api2(`${LIB2}.f2py_like`).signature, sig('docstring', [
      p('x', 'positional_or_keyword'),
      p('lambda', 'positional_or_keyword'),
      p('k', 'positional_or_keyword', '...'),
      p('overwrite_x', 'positional_or_keyword', '...'),
    ]));
    assert.equal(api2(`${LIB2}.f2py_like`).doc, 'Wrapper for ``f2py_like``.');
    assert.deepEqual(api2(`${LIB2}.cython_like`).signature, sig('docstring', [
      p('Q', 'positional_or_keyword'),
      p('p', 'positional_or_keyword', '1'),
      p('which', 'positional_or_keyword', "'row'"),
      p('a', 'positional_or_keyword'),
      p('b', 'positional_or_keyword', 'None'),
    ]));
    assert.deepEqual(api2(`${LIB2}.pybind_like`).signature, sig('docstring', [
      p('arg0', 'positional_only'),
      p('arg1', 'positional_only', "'x'"),
    ], 'None'));
  });

  test('functools.wraps: the wrapped callable\'s docstring signature', () => {
    assert.deepEqual(api2(`${LIB2}.deprecated_alias`).signature, api2(`${LIB2}.cython_like`).signature);
    assert.equal(api2(`${LIB2}.deprecated_alias`).doc, 'deprecated_alias is deprecated, use cython_like instead');
  });

  test('docstring and extension stub reconciled by the keywords each names', () => {
    // The stub names every keyword of the docstring and more: the stub, with the docstring's defaults for its "...".
    assert.deepEqual(api2(`${LIB2}.doc_and_stub`).signature, sig('stub', [
      p('input', 'positional_or_keyword'),
      p('other', 'positional_or_keyword'),
      p('alpha', 'keyword_only', '...'),
      p('out', 'keyword_only', 'None'),
    ], 'Tensor'));
    // Each names a keyword the other lacks: both merged, source docstring.
    assert.deepEqual(api2(`${LIB2}.doc_differs_from_stub`).signature, sig('docstring', [
      p('x', 'positional_or_keyword'),
      p('layout', 'keyword_only', 'None'),
      p('dtype', 'keyword_only', '...'),
    ], 'Tensor'));
    // The docstring names every keyword of the stub: the docstring stands, with the stub's return type.
    assert.deepEqual(api2(`${LIB2}.doc_covers_stub`).signature, sig('docstring', [
      p('x', 'positional_or_keyword'),
      p('y', 'positional_or_keyword', '2'),
    ], 'Tensor'));
  });

  test('a callable that names no module counts as the library\'s where the library exports it', () => {
    assert.deepEqual(api2(`${LIB2}.sub.exported_c`), {
      exported: true, path: `${LIB2}.sub.exported_c`, kind: 'function', defined_in: `${LIB2}.sub`, doc: 'Names no module.',
      signature: sig('docstring', [p('a', 'positional_or_keyword')]),
    });
  });
});
