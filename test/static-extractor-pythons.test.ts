// The static extractor decides a release's surface for every Python it supports, not only the newest: a subpackage
// the build installs below Python 3.12 (numpy.distutils) and a module importing a standard-library module that 3.12
// removed both exist at that release. Also: stubs that declare `__all__` without listing it, stub assignments of a
// parametrised class, and PEP 695 syntax read by an interpreter older than the release's newest Python.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

const STATIC = join(__dirname, '..', 'python-probe', 'static.py');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';

interface Api { path: string; kind: string; signature: { parameters: { name: string }[] } | null }
interface Surf { apis: Api[]; errors: { module: string; error: string }[]; python_conditional?: Record<string, string> }

const work = mkdtempSync(join(tmpdir(), 'anachron-static-pythons-'));
after(() => rmSync(work, { recursive: true, force: true }));

function extract(files: Record<string, string>, extra: string[] = []): Map<string, Api> {
  return new Map(extractSurface(files, extra).apis.map((a) => [a.path, a]));
}

function extractSurface(files: Record<string, string>, extra: string[] = []): Surf {
  const dir = mkdtempSync(join(work, 'src-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const r = spawnSync(PYTHON, [STATIC, 'rng', '--source', dir, '--version', '1.0.0', ...extra], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Surf;
}

const pyproject = (requires: string) => `[build-system]
build-backend = "mesonpy"
requires = ["meson-python"]

[project]
name = "rng"
requires-python = "${requires}"
classifiers = [
  "Programming Language :: Python :: 3.10",
  "Programming Language :: Python :: 3.11",
  "Programming Language :: Python :: 3.12",
  "Programming Language :: Python :: 3.13",
]
`;

const LIBRARY: Record<string, string> = {
  'rng/__init__.py': '"""Package."""\nfrom . import core\n',
  'rng/core.py': '"""Core."""\nclass Base:\n    """A base class."""\n    def __init__(self, size):\n        self.size = size\n',
  'rng/meson.build': `pure_subdirs = ['core_pkg']
if py.version().version_compare('<3.12')
  pure_subdirs += 'legacy'
endif
`,
  'rng/legacy/__init__.py': '"""Build helpers (Python < 3.12 only)."""\nfrom distutils import log\n\ndef old_tool(verbose=False):\n    """Run the old tool."""\n',
  'rng/uses_imp.py': '"""Imports a module Python 3.12 removed."""\nimport imp\n\ndef load(name):\n    """Load."""\n',
};

describe('static extractor: every supported Python', () => {
  test('a subpackage installed only below 3.12, and a module importing what 3.12 removed, exist at the release', () => {
    const apis = extract({ ...LIBRARY, 'pyproject.toml': pyproject('>=3.10') });
    assert.equal(apis.get('rng.legacy')?.kind, 'module');
    assert.equal(apis.get('rng.legacy.old_tool')?.kind, 'function');
    assert.deepEqual(apis.get('rng.legacy.old_tool')?.signature?.parameters.map((p) => p.name), ['verbose']);
    assert.equal(apis.get('rng.uses_imp.load')?.kind, 'function');
  });

  test('the surface says which modules exist on some supported Pythons only, and why', () => {
    const surface = extractSurface({ ...LIBRARY, 'pyproject.toml': pyproject('>=3.10') });
    assert.deepEqual(surface.python_conditional, {
      'rng.legacy': 'installed for Python 3.10–3.11 only',
      'rng.uses_imp': 'imports imp, which Python 3.12 removed',
    });
  });

  test('a release supporting only 3.12 and later has neither', () => {
    const apis = extract({ ...LIBRARY, 'pyproject.toml': pyproject('>=3.12') });
    assert.equal(apis.get('rng.legacy'), undefined);
    assert.equal(apis.get('rng.uses_imp.load'), undefined);
    assert.equal(apis.get('rng.core.Base')?.kind, 'class');
  });

  test('--target-python moves the newest Python; the oldest still comes from requires-python', () => {
    // the batch extracts a patch release with its minor's target: the range below it still counts
    assert.equal(extract({ ...LIBRARY, 'pyproject.toml': pyproject('>=3.10') }, ['--target-python', '3.12']).get('rng.legacy')?.kind, 'module');
    assert.equal(extract({ ...LIBRARY, 'pyproject.toml': pyproject('>=3.12') }, ['--target-python', '3.13']).get('rng.legacy'), undefined);
  });
});

describe('static extractor: stubs', () => {
  test('a module that builds its names at import time, described by a stub that declares __all__ without listing it', () => {
    const apis = extract({
      'pyproject.toml': pyproject('>=3.10'),
      'rng/__init__.py': '"""Package."""\nfrom . import core, kinds\n',
      'rng/core.py': '"""Core."""\nclass Base:\n    """A base class."""\n    def __init__(self, size):\n        self.size = size\n',
      'rng/kinds.py': '"""Kinds, added by the extension at import time."""\n__all__ = []\n\ndef _add(cls, name):\n    globals()[name] = cls\n    __all__.append(name)\n',
      'rng/kinds.pyi': 'import rng as r\nfrom rng.core import Base\n\n__all__: list[str]\n\nSmallKind = r.core.Base[int]\nclass LargeKind(Base):\n    def grow(self, by: int) -> None: ...\n_Private = int\n',
      'rng/meson.build': "pure_subdirs = []\n",
    });
    assert.equal(apis.get('rng.kinds.SmallKind')?.kind, 'class');
    assert.equal(apis.get('rng.kinds.LargeKind')?.kind, 'class');
    assert.equal(apis.get('rng.kinds.LargeKind.grow')?.kind, 'method');
    assert.equal(apis.get('rng.kinds.Base'), undefined, 'an import in a stub is not a re-export');
    assert.equal(apis.get('rng.kinds._Private'), undefined);
  });

  test('a stub for a name the package binds to another module describes that binding, not a module of its own', () => {
    // numpy 1.20: char.pyi annotates names only ("add: Any"); numpy.char is numpy.core.defchararray.
    const apis = extract({
      'pyproject.toml': pyproject('>=3.10'),
      'rng/__init__.py': '"""Package."""\nfrom . import _strings as text\nfrom ._fast import mean\n',
      'rng/_strings.py': '"""String functions."""\n__all__ = ["upper"]\n\ndef upper(a, *, locale=None):\n    """Upper-case."""\n',
      'rng/text.pyi': 'from typing import Any\n\nupper: Any\n',
      'rng/_fast.pyi': 'def mean(a, axis=None): ...\n',
      'rng/meson.build': "py.extension_module('_fast', '_fast.c')\n",
    });
    assert.equal(apis.get('rng.text')?.kind, 'module');
    assert.deepEqual(apis.get('rng.text.upper')?.signature?.parameters.map((p) => p.name), ['a', 'locale']);
    assert.deepEqual(apis.get('rng.mean')?.signature?.parameters.map((p) => p.name), ['a', 'axis'], 'a declared extension is still read from its stub');
  });

  test('PEP 695 type parameters in a stub of a compiled module are read by an older interpreter', () => {
    const apis = extract({
      'pyproject.toml': pyproject('>=3.10'),
      'rng/__init__.py': '"""Package."""\nfrom ._fast import *\n',
      'rng/_fast.pyi': [
        '__all__ = ["first", "Box", "Alias"]',
        'type Alias[T] = list[T]',
        'def first[T: (int, str)](xs: list[T], /, default: T | None = None) -> T: ...',
        'class Box[T]:',
        '    def get[U](self, fallback: U) -> T | U: ...',
        '',
      ].join('\n'),
      'rng/meson.build': "py.extension_module('_fast', '_fast.c')\n",
    });
    assert.deepEqual(apis.get('rng.first')?.signature?.parameters.map((p) => p.name), ['xs', 'default']);
    assert.equal(apis.get('rng.Box')?.kind, 'class');
    assert.deepEqual(apis.get('rng.Box.get')?.signature?.parameters.map((p) => p.name), ['fallback']);
    assert.ok(apis.has('rng.Alias'));
  });
});
