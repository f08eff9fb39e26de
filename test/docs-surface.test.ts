// The documented-surface extractor (python-probe/docs.py): Sphinx sources read straight from git at a tag, on small
// repositories laid out like numpy, SciPy and Qiskit; and the generated matrices/surfaces/*/LIB-VERSION.docs.json.gz.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

const REPO_ROOT = join(__dirname, '..');
const DOCS = join(REPO_ROOT, 'python-probe', 'docs.py');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const SURFACES = join(REPO_ROOT, 'matrices', 'surfaces');

interface DocsFile {
  schema: string;
  library: string;
  version: string;
  provenance: Record<string, string>;
  documented: string[];
  documented_private: string[];
  errors: { file: string; error: string }[];
}

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_DIR: undefined, GIT_WORK_TREE: undefined };

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: GIT_ENV as NodeJS.ProcessEnv,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

/** A git repository holding FILES, committed and tagged TAG. */
function makeRepo(dir: string, files: Record<string, string>, tag: string): string {
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
  git(dir, 'tag', tag);
  return join(dir, '.git');
}

function runDocs(args: string[]): { status: number | null; stdout: Buffer; stderr: string } {
  const r = spawnSync(PYTHON, [DOCS, ...args], { encoding: 'buffer' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

function extract(library: string, gitDir: string, tag: string, extra: string[] = []): DocsFile {
  const r = runDocs([library, '--git-dir', gitDir, '--tag', tag, ...extra]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.toString('utf8')) as DocsFile;
}

// --- a numpy-like repository ----------------------------------------------------------------------------------------
const NUMPY_FILES: Record<string, string> = {
  'doc/source/reference/index.rst': String.raw`.. module:: numpy

.. toctree::

   routines
`,
  'doc/source/reference/routines.rst': String.raw`Routines
========

.. currentmodule:: numpy

.. autosummary::
   :toctree: generated/

   array
   ~numpy.linalg.norm
   ndarray.sum
   lib.NumpyVersion

.. This comment mentions a directive that Sphinx never sees:
   .. autosummary::

      ghost_in_comment

An example::

   .. autofunction:: ghost_in_literal

.. code-block:: rst

   .. autofunction:: ghost_in_code

.. note:: a note with a directive inside

   .. autofunction:: inside_note

.. attribute:: int8
               int16

   Sized aliases.

.. data:: newaxis

.. py:method:: class.__array_ufunc__(ufunc, method, *inputs, **kwargs)

.. autosummary::

   ndarray.__add__

.. c:function:: int PyArray_Check(PyObject *op)

.. include:: extra.rst.inc
`,
  'doc/source/reference/extra.rst.inc': '.. autofunction:: numpy.included_fn\n',
  'doc/source/reference/routines.emath.rst': '.. currentmodule:: numpy\n.. automodule:: numpy.emath\n',
  'doc/source/reference/random.rst': String.raw`.. currentmodule:: numpy.random

.. autoclass:: Generator
   :members: __init__, integers
   :exclude-members: __init__

.. autosummary::
   :toctree: generated/

   Widget
   WidgetError
`,
  'numpy/__init__.py': '"""Fixture numpy."""\nfrom . import lib\nfrom .lib import *\nfrom .core import array, ndarray\n',
  'numpy/core.py': 'def array(x):\n    pass\n\n\nclass ndarray:\n    pass\n',
  'numpy/lib/__init__.py': "from . import scimath as emath\nfrom ._version import NumpyVersion\n__all__ = ['emath']\n",
  'numpy/lib/_version.py': 'class NumpyVersion:\n    pass\n',
  'numpy/lib/scimath.py': String.raw`"""Wrappers with a complex domain.

Functions
---------

.. autosummary::
   :toctree: generated/

   sqrt
   log -- natural logarithm
      -- continued description
"""
`,
  'numpy/linalg/__init__.py': 'def norm(x):\n    pass\n',
  'numpy/random/__init__.py': 'from ._generator import Generator\nfrom ._widgets import Widget, WidgetError\n',
  'numpy/random/_generator.pyx': String.raw`cimport numpy as np

cdef class Generator:
    """Generator(bit_generator)

    .. automethod:: from_docstring
    """
    cdef object _bit_generator

    def integers(self, low, high=None):
        pass
`,
  'numpy/random/_widgets.py': String.raw`class Base:
    kind = "base"

    def resize(self):
        """Resize."""

    @property
    def area(self):
        return 0

    def _hidden(self):
        pass


class Widget(Base):
    def spin(self):
        pass


class WidgetError(ValueError):
    def detail(self):
        pass
`,
};

// --- a SciPy-like repository ----------------------------------------------------------------------------------------
const SCIPY_FILES: Record<string, string> = {
  'doc/source/reference/integrate.rst': '.. automodule:: scipy.integrate\n   :no-members:\n',
  'scipy/__init__.py': '"""SciPy fixture."""\n',
  'scipy/integrate/__init__.py': String.raw`"""
=============================================
Integration and ODEs (:mod:` + '`scipy.integrate`' + String.raw`)
=============================================

.. currentmodule:: scipy.integrate

.. autosummary::
   :toctree: generated/

   quad          -- General purpose integration
   romb          -- Use Romberg Integration to compute integral from
                 -- (2**k + 1) evenly-spaced samples.
"""
from ._quadpack import quad, romb
`,
  'scipy/integrate/_quadpack.py': 'def quad(f, a, b):\n    pass\n\n\ndef romb(y):\n    pass\n',
  // No reference page points here: the subpackage's own docstring is read.
  'scipy/optimize/__init__.py': '"""\n.. currentmodule:: scipy.optimize\n\n.. autosummary::\n   :toctree: generated/\n\n   minimize\n"""\n',
  'scipy/_lib/__init__.py': '"""\n.. autosummary::\n\n   private_thing\n"""\n',
};

// --- a Qiskit-like repository ---------------------------------------------------------------------------------------
const QISKIT_FILES: Record<string, string> = {
  'docs/apidoc/circuit.rst': '.. _qiskit-circuit:\n\n.. automodule:: qiskit.circuit\n   :no-members:\n',
  'qiskit/__init__.py': '"""Qiskit fixture."""\n',
  'qiskit/circuit/__init__.py': String.raw`"""
.. currentmodule:: qiskit.circuit

.. autosummary::
   :toctree: ../stubs/
   :template: autosummary/class_no_inherited_members.rst

   HGate

.. autoclass:: Register
   :members:
"""
from .gate import Gate, HGate
from .register import Register
`,
  'qiskit/circuit/gate.py': String.raw`class Instruction:
    @property
    def label(self):
        return None

    def inverse(self):
        """Inherited method: not on the no-inherited-members page."""


class Gate(Instruction):
    def to_matrix(self):
        """Also inherited."""


class HGate(Gate):
    def control(self):
        """Defined here."""
`,
  'qiskit/circuit/register.py': String.raw`class Register:
    def index(self, bit):
        """Documented method."""

    def undocumented(self):
        pass
`,
};

// --- a pydantic-like repository: Markdown pages with mkdocstrings blocks ---------------------------------------------
const PYDANTIC_FILES: Record<string, string> = {
  'docs/api/base_model.md': [
    'Models are classes that inherit from `BaseModel`.',
    '',
    '::: pydantic.BaseModel',
    '    options:',
    '        show_root_heading: true',
    '        # explicit members list',
    '        members:',
    '          - __init__',
    '          - model_dump',
    '          - model_validate',
    '',
    '::: pydantic.create_model',
    '    options:',
    '        show_root_heading: true',
    '',
    '```py',
    '::: pydantic.not_read_in_code',
    '```',
    '',
  ].join('\n'),
  'docs/api/types.md': '::: pydantic.types\n',
  'docs/api/config.md': '::: pydantic.config.ConfigDict\n\n::: pydantic.config.BaseConfig\n    options:\n      members: false\n\n::: pydantic.config\n    options:\n      members:\n        - BaseConfig\n\n::: pydantic_core.core_schema\n',
  'pydantic/__init__.py': 'from .main import BaseModel, create_model\n',
  'pydantic/main.py': [
    'class BaseModel:',
    '    """A model."""',
    '',
    '    def model_dump(self):',
    '        """Dump."""',
    '',
    '    def model_validate(cls, obj):',
    '        """Validate."""',
    '',
    '    def model_copy(self):',
    '        """Copy (not in the page\'s list)."""',
    '',
    'def create_model(name):',
    '    """Create."""',
    '',
  ].join('\n'),
  'pydantic/types.py': [
    'class SecretStr:',
    '    """A secret."""',
    '',
    '    def get_secret_value(self):',
    '        """The value."""',
    '',
    'def constr(max_length=None):',
    '    """A constrained str."""',
    '',
    'def undocumented():',
    '    pass',
    '',
    'def _private():',
    '    """Private."""',
    '',
  ].join('\n'),
  'pydantic/config.py': 'from typing import TypedDict\n\nclass ConfigDict(TypedDict):\n    """Config."""\n\n    extra: str\n    """A key, not an attribute."""\n\nclass BaseConfig:\n    """Old config."""\n\n    extra: str = "ignore"\n    """An attribute."""\n',
};

describe('docs.py on small repositories', () => {
  let dir = '';
  let numpyGit = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'anachron-docs-'));
    numpyGit = makeRepo(join(dir, 'numpy'), NUMPY_FILES, 'v1.2.3');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('numpy: directives, current module, aliases, includes, class templates; comments and literals skipped', () => {
    const d = extract('numpy', numpyGit, 'v1.2.3');
    assert.equal(d.schema, 'anachron-docs/1');
    assert.equal(d.library, 'numpy');
    assert.equal(d.version, '1.2.3');
    assert.equal(d.provenance.source, 'docs');
    assert.equal(d.provenance.repository, 'github:numpy/numpy');
    assert.equal(d.provenance.tag, 'v1.2.3');
    assert.match(d.provenance.commit!, /^[0-9a-f]{40}$/);
    assert.match(d.provenance.extractor!, /^anachron-docs \d+\.\d+\.\d+$/);
    assert.deepEqual(d.documented, [
      'numpy',
      'numpy.array',
      'numpy.emath',
      'numpy.emath.log',
      'numpy.emath.sqrt',
      'numpy.included_fn',
      'numpy.inside_note',
      'numpy.int16',
      'numpy.int8',
      'numpy.lib.NumpyVersion',
      'numpy.linalg.norm',
      'numpy.ndarray.sum',
      'numpy.newaxis',
      'numpy.random.Generator',
      'numpy.random.Generator.from_docstring',
      'numpy.random.Generator.integers',
      'numpy.random.Widget',
      'numpy.random.Widget.area',
      'numpy.random.Widget.kind',
      'numpy.random.Widget.resize',
      'numpy.random.Widget.spin',
      'numpy.random.WidgetError',
    ]);
    assert.deepEqual(d.documented_private, ['numpy.ndarray.__add__']);
    assert.deepEqual(d.errors, [
      {
        file: 'doc/source/reference/routines.rst',
        error: 'not an importable path, not recorded: numpy.class.__array_ufunc__',
      },
    ]);
  });

  test('pydantic: mkdocstrings blocks in Markdown pages, with members: lists, false, or the documented ones', () => {
    const d = extract('pydantic', makeRepo(join(dir, 'pydantic'), PYDANTIC_FILES, 'v2.5.0'), 'v2.5.0');
    assert.deepEqual(d.documented, [
      'pydantic.BaseModel',
      'pydantic.BaseModel.model_dump',
      'pydantic.BaseModel.model_validate',
      'pydantic.config',
      'pydantic.config.BaseConfig',
      'pydantic.config.BaseConfig.extra',
      'pydantic.config.ConfigDict',
      'pydantic.create_model',
      'pydantic.types',
      'pydantic.types.SecretStr',
      'pydantic.types.SecretStr.get_secret_value',
      'pydantic.types.constr',
    ]);
    assert.deepEqual(d.documented_private, []);
  });

  test('--version, --out FILE.gz: gzip without name or time, byte-identical across runs', () => {
    const a = join(dir, 'a.json.gz');
    const b = join(dir, 'b.json.gz');
    for (const out of [a, b]) {
      const r = runDocs(['numpy', '--git-dir', numpyGit, '--tag', 'v1.2.3', '--version', '1.2.3.post1', '--out', out]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /numpy v1\.2\.3 \(1\.2\.3\.post1\): 22 documented \(\d+ only as class-template members, \d+ under root module aliases\), 1 errors, [\d.]+ s/);
    }
    const bytes = readFileSync(a);
    assert.deepEqual(bytes, readFileSync(b));
    assert.equal(bytes[3]! & 0x08, 0, 'no file name in the gzip header');
    assert.equal(bytes.readUInt32LE(4), 0, 'gzip mtime is 0');
    const d = JSON.parse(gunzipSync(bytes).toString('utf8')) as DocsFile;
    assert.equal(d.version, '1.2.3.post1');
  });

  test('a blob missing from the mirror is recorded, not fatal', () => {
    const copy = join(dir, 'numpy-missing');
    cpSync(join(dir, 'numpy'), copy, { recursive: true });
    const sha = git(copy, 'rev-parse', 'v1.2.3:numpy/lib/scimath.py');
    rmSync(join(copy, '.git', 'objects', sha.slice(0, 2), sha.slice(2)));
    const d = extract('numpy', join(copy, '.git'), 'v1.2.3');
    assert.ok(d.documented.includes('numpy.emath'));
    assert.ok(!d.documented.includes('numpy.emath.sqrt'));
    assert.ok(
      d.errors.some((e) => e.file === 'numpy/lib/scimath.py' && /blob missing/.test(e.error)),
      JSON.stringify(d.errors),
    );
  });

  // pydantic 1.x has no docs/api pages: an empty surface would make every name undocumented (agreement base 0)
  const UNDOCUMENTED: { name: string; pages: Record<string, string>; message: RegExp }[] = [
    { name: 'no reference pages', pages: { 'docs/index.md': '# pydantic\n\n::: pydantic.BaseModel\n' }, message: /pydantic 1\.10\.0: no reference pages \(docs\/api\/\*\.md\) at v1\.10\.0: no documented surface written/ },
    { name: 'reference pages that document no name', pages: { 'docs/api/models.md': '# Models\n\nProse only.\n\n```py\n::: pydantic.BaseModel\n```\n' }, message: /pydantic 1\.10\.0: the reference pages document no name at v1\.10\.0: no documented surface written/ },
  ];
  for (const { name, pages, message } of UNDOCUMENTED) {
    test(`${name}: no documented surface is written, the run fails with a message`, () => {
      const source = { ...Object.fromEntries(Object.entries(PYDANTIC_FILES).filter(([p]) => !p.startsWith('docs/'))), ...pages };
      const gitDir = makeRepo(join(dir, `pydantic-1-${name.replace(/\W+/g, '-')}`), source, 'v1.10.0');
      const out = join(dir, `pydantic-1-${name.replace(/\W+/g, '-')}.docs.json.gz`);
      const r = runDocs(['pydantic', '--git-dir', gitDir, '--tag', 'v1.10.0', '--out', out]);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(existsSync(out), false);
    });
  }

  test('an unknown tag fails with a message', () => {
    const r = runDocs(['numpy', '--git-dir', numpyGit, '--tag', 'v9.9.9']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /v9\.9\.9/);
  });

  test('scipy: "name -- description" entries, subpackage docstrings without a reference page, private ones skipped', () => {
    const gitDir = makeRepo(join(dir, 'scipy'), SCIPY_FILES, 'v1.10.1');
    const d = extract('scipy', gitDir, 'v1.10.1');
    assert.equal(d.version, '1.10.1');
    assert.deepEqual(d.documented, ['scipy.integrate', 'scipy.integrate.quad', 'scipy.integrate.romb', 'scipy.optimize', 'scipy.optimize.minimize']);
    assert.deepEqual(d.errors, []);
  });

  test('qiskit: apidoc -> module docstring -> autosummary; templates and :members: as the source shows them', () => {
    const gitDir = makeRepo(join(dir, 'qiskit'), QISKIT_FILES, '0.24.0');
    const d = extract('qiskit', gitDir, '0.24.0');
    assert.equal(d.version, '0.43.0', 'terra 0.24.0 is the API of the qiskit 0.43.0 metapackage');
    assert.equal(d.provenance.tag, '0.24.0');
    assert.deepEqual(d.documented, [
      'qiskit.circuit',
      'qiskit.circuit.HGate',
      'qiskit.circuit.HGate.control',
      'qiskit.circuit.HGate.label',
      'qiskit.circuit.Register',
      'qiskit.circuit.Register.index',
    ]);
  });
});

// --- the generated surfaces -----------------------------------------------------------------------------------------
function readDocs(file: string): DocsFile {
  return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as DocsFile;
}

/** Whether the tree carries docs surfaces of LIBRARY (a library's surfaces may be kept out until final). */
function hasDocs(library: string): boolean {
  const folder = join(SURFACES, library);
  return existsSync(folder) && readdirSync(folder).some((n) => n.endsWith('.docs.json.gz'));
}

function runtimePaths(file: string): Set<string> {
  const d = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { apis: { path: string }[]; modules: { name: string }[] };
  return new Set([...d.apis.map((a) => a.path), ...d.modules.map((m) => m.name)]);
}

const REQUIRED: Record<string, string[]> = {
  numpy: [
    ...['1.16', '1.17', '1.18', '1.19', '1.20', '1.21', '1.22', '1.23', '1.24', '1.25', '1.26', '2.0', '2.1', '2.2', '2.3', '2.4', '2.5'].map((m) => `${m}.0`),
    '1.19.5', '1.24.2', '2.2.4', '2.4.6',
  ],
  scipy: [...Array.from({ length: 19 }, (_, m) => `1.${m}.0`), '1.10.1', '1.15.3', '1.17.1'],
  qiskit: ['0.43.0', '0.44.0', '0.45.0', '0.46.0', '1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.4.0', '2.0.0', '2.1.0', '2.2.0', '2.3.0', '2.4.0', '2.5.0'],
};

describe('generated docs surfaces (matrices/surfaces/*/LIB-VERSION.docs.json.gz)', () => {
  for (const [library, versions] of Object.entries(REQUIRED)) {
    test(`${library}: every required version, well-formed`, () => {
      assert.ok(hasDocs(library), `no ${library} docs surfaces in matrices/surfaces (they are committed)`);
      for (const version of versions) {
        const file = join(SURFACES, library, `${library}-${version}.docs.json.gz`);
        assert.ok(existsSync(file), `missing ${file}`);
        const bytes = readFileSync(file);
        assert.equal(bytes.readUInt32LE(4), 0, `${file}: gzip mtime 0`);
        const d = readDocs(file);
        assert.equal(d.schema, 'anachron-docs/1');
        assert.equal(d.library, library);
        assert.equal(d.version, version);
        assert.equal(d.provenance.source, 'docs');
        assert.match(d.provenance.commit!, /^[0-9a-f]{40}$/);
        assert.ok(d.documented.length > 500, `${file}: ${d.documented.length} documented`);
        const sorted = [...new Set(d.documented)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        assert.deepEqual(d.documented, sorted, `${file}: sorted, unique`);
        for (const p of d.documented) {
          assert.ok(p === library || p.startsWith(library + '.'), `${file}: ${p}`);
          assert.ok(!p.split('.').some((c) => c.startsWith('_')), `${file}: ${p} is not public`);
        }
      }
    });
  }

  test('anchors: APIs every user meets are documented where they exist', () => {
    assert.ok(hasDocs('numpy'), 'no numpy docs surfaces in matrices/surfaces (they are committed)');
    const has = (library: string, version: string, path: string) =>
      readDocs(join(SURFACES, library, `${library}-${version}.docs.json.gz`)).documented.includes(path);
    for (const v of ['1.16.0', '1.24.2', '2.4.6']) {
      for (const p of ['numpy.linalg.norm', 'numpy.ndarray.sum', 'numpy.emath', 'numpy.char.add', 'numpy.lib.NumpyVersion', 'numpy.random.RandomState']) {
        assert.ok(has('numpy', v, p), `numpy ${v}: ${p}`);
      }
    }
    // numpy 1.16's emath page is the module docstring alone (automodule numpy.lib.scimath, no function list);
    // the list arrived with an autosummary in that docstring. numpy.rec under its alias (1.16 names numpy.core.records).
    assert.ok(!has('numpy', '1.16.0', 'numpy.emath.sqrt') && has('numpy', '1.24.2', 'numpy.emath.sqrt'));
    assert.ok(has('numpy', '1.16.0', 'numpy.core.records.fromarrays') && has('numpy', '1.16.0', 'numpy.rec.fromarrays'));
    assert.ok(has('numpy', '1.24.2', 'numpy.random.Generator.integers') && has('numpy', '2.4.6', 'numpy.random.RandomState.rand'));
    assert.ok(!has('numpy', '1.16.0', 'numpy.random.Generator.integers'), 'Generator arrived in 1.17');
    if (!hasDocs('scipy') || !hasDocs('qiskit')) return;
    assert.ok(has('scipy', '1.10.1', 'scipy.integrate.quad') && has('scipy', '1.10.1', 'scipy.interpolate.CubicSpline.derivative'));
    assert.ok(has('scipy', '1.0.0', 'scipy.integrate.solve_ivp') && has('scipy', '1.0.0', 'scipy.stats.norm'));
    assert.ok(has('qiskit', '0.43.0', 'qiskit.execute_function.execute') && !has('qiskit', '1.0.0', 'qiskit.execute_function.execute'), 'execute() removed in 1.0');
    for (const v of ['0.43.0', '1.3.0', '2.0.0']) {
      assert.ok(has('qiskit', v, 'qiskit.circuit.QuantumCircuit.cx') && has('qiskit', v, 'qiskit.compiler.transpile'), `qiskit ${v}`);
    }
  });

  test('agreement with the runtime surfaces of the same version', () => {
    // Documented paths the runtime probe does not record become "na" cells. What remains unresolved here are known
    // classes: modules that fail to import on that interpreter (numpy.distutils), Fortran routines the probe does not
    // record (scipy.linalg.lapack/blas), names outside a module's __all__, platform-only aliases (numpy.float96).
    const floors: Record<string, number> = { numpy: 0.9, scipy: 0.75 };
    let checked = 0;
    for (const library of Object.keys(floors)) {
      const folder = join(SURFACES, library);
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        const m = /^(.+)-(.+)\.runtime\.json\.gz$/.exec(name);
        if (!m) continue;
        const docsFile = join(folder, `${library}-${m[2]}.docs.json.gz`);
        if (!existsSync(docsFile)) continue;
        const resolved = runtimePaths(join(folder, name));
        const documented = readDocs(docsFile).documented;
        const known = (p: string) => p.startsWith('numpy.distutils') || p.startsWith('scipy.linalg.lapack.') || p.startsWith('scipy.linalg.blas.');
        const share = documented.filter((p) => resolved.has(p)).length / documented.length;
        const other = documented.filter((p) => !resolved.has(p) && !known(p)).length / documented.length;
        assert.ok(share >= floors[library]!, `${library} ${m[2]}: ${(share * 100).toFixed(1)}% resolved`);
        assert.ok(other <= 0.04, `${library} ${m[2]}: ${(other * 100).toFixed(1)}% unresolved outside the known classes`);
        checked++;
      }
    }
    assert.ok(checked >= (hasDocs('numpy') ? 4 : 0), `compared ${checked} versions`);
  });
});
