// python-probe/deprecations.py on a release tag of a small library in a bare git repository: what the library's own
// deprecation machinery says (an unconditional DeprecationWarning, a warning behind `if KEYWORD is not None`, a
// `.. deprecated::` directive in a parameter's entry), joined to the public paths of the tag's static surface; a
// warning conditional on a value, a warning after a branch that may return, and directives about values are not
// read as deprecations.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import { readDeprecationsSurfaceFile, type DeprecationsSurface } from '../server/src/store/deprecations-surface.js';
import { buildMatrix } from '../server/src/store/matrix-builder.js';
import { readEvidenceFolder } from '../server/src/store/version-evidence.js';

const PROBE = join(__dirname, '..', 'python-probe');
const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';

const FILES: Record<string, string> = {
  'dlib/__init__.py': "from ._impl import trapz, trapezoid, reshape, save, keep, solve, comb\n\n__all__ = [\"trapz\", \"trapezoid\", \"reshape\", \"save\", \"keep\", \"solve\", \"comb\"]\n",
  'dlib/_impl.py': "import warnings\n\n\ndef trapz(y, x=None):\n    \"\"\"Integrate along the given axis.\n\n    .. deprecated:: 2.0\n        Use `trapezoid` instead.\n    \"\"\"\n    warnings.warn(\"`trapz` is deprecated. Use `trapezoid` instead.\", DeprecationWarning, stacklevel=2)\n    return trapezoid(y, x)\n\n\ndef trapezoid(y, x=None):\n    return 0\n\n\ndef reshape(a, shape=None, *, newshape=None):\n    if newshape is not None:\n        warnings.warn(\"`newshape` keyword argument is deprecated, use `shape=...` instead.\", DeprecationWarning, stacklevel=2)\n        shape = newshape\n    return a\n\n\ndef save(file, arr, fix_imports=True):\n    \"\"\"Save an array.\n\n    Parameters\n    ----------\n    file : str\n        Where.\n    fix_imports : bool\n        .. deprecated:: 2.1\n            This flag has no effect.\n    \"\"\"\n\n\ndef keep(x, mode=None):\n    \"\"\"Keep x.\n\n    Parameters\n    ----------\n    mode : str\n        .. deprecated:: 2.1\n            Passing booleans as mode is deprecated.\n    \"\"\"\n    if isinstance(x, bool):\n        warnings.warn(\"Passing booleans is deprecated\", DeprecationWarning, stacklevel=2)\n    return x\n\n\ndef solve(c, method=\"fast\"):\n    if method == \"fast\":\n        return c\n    warnings.warn(f\"`method='{method}'` is deprecated.\", DeprecationWarning, stacklevel=2)\n    return c\n\n\ndef comb(n, k, exact=False):\n    \"\"\"Combinations.\n\n    Parameters\n    ----------\n    exact : bool\n        .. deprecated:: 1.14.0\n            ``exact=True`` is deprecated for non-integer `N` and `k`.\n    \"\"\"\n    return 0\n",
};

let work = '';
let found: DeprecationsSurface;

function run(cmd: string, args: string[], cwd: string): string {
  const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stderr;
}

before(() => {
  work = mkdtempSync(join(tmpdir(), 'anachron-deprecations-'));
  const src = join(work, 'src');
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(src, rel)), { recursive: true });
    writeFileSync(join(src, rel), text);
  }
  run('git', ['init', '-q'], src);
  run('git', ['add', '-A'], src);
  run('git', ['commit', '-q', '-m', 'release'], src);
  run('git', ['tag', 'v2.1.0'], src);
  run('git', ['clone', '-q', '--bare', src, 'repo.git'], work);
  run(PYTHON, [join(PROBE, 'static.py'), 'dlib', '--git-dir', 'repo.git', '--tag', 'v2.1.0', '--out', 'dlib-2.1.0.static.json.gz'], work);
  const said = run(PYTHON, [join(PROBE, 'deprecations.py'), '--git-dir', 'repo.git', '--tag', 'v2.1.0', '--package', 'dlib', '--surface', 'dlib-2.1.0.static.json.gz', '--out', 'dlib-2.1.0.deprecations.json.gz'], work);
  assert.match(said, /dlib 2\.1\.0: 3 deprecations/);
  found = readDeprecationsSurfaceFile(join(work, 'dlib-2.1.0.deprecations.json.gz'));
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('format, library, version and provenance of the tag', () => {
  assert.equal(found.schema, 'anachron-deprecations/1');
  assert.equal(found.library, 'dlib');
  assert.equal(found.version, '2.1.0');
  assert.equal(found.provenance?.tag, 'v2.1.0');
  assert.match(found.provenance?.commit ?? '', /^[0-9a-f]{40}$/);
  assert.equal(found.provenance?.surface, 'dlib-2.1.0.static.json.gz');
});

test('an API that always warns, at its public path, with its words and where', () => {
  const trapz = found.deprecations.filter((d) => d.path === 'dlib.trapz');
  assert.deepEqual(trapz, [{ path: 'dlib.trapz', parameter: null, evidence: 'warning', message: '`trapz` is deprecated. Use `trapezoid` instead.', source: 'dlib/_impl.py:4' }]);
});

test('a keyword that warns when given, and a parameter entry with a deprecated directive', () => {
  const reshape = found.deprecations.find((d) => d.path === 'dlib.reshape');
  assert.equal(reshape?.parameter, 'newshape');
  assert.equal(reshape?.evidence, 'warning');
  const save = found.deprecations.find((d) => d.path === 'dlib.save');
  assert.equal(save?.parameter, 'fix_imports');
  assert.equal(save?.evidence, 'directive');
  assert.match(save?.message ?? '', /no effect/);
});

test('a warning about a value, one after a branch that returns, and directives about values deprecate nothing', () => {
  assert.deepEqual(found.deprecations.filter((d) => ['dlib.keep', 'dlib.trapezoid', 'dlib.solve', 'dlib.comb'].includes(d.path)), []);
  assert.deepEqual(found.deprecations.map((d) => d.path).sort(), ['dlib.reshape', 'dlib.save', 'dlib.trapz']);
});

test('the builder reads the file beside the static surface: the matrix answers the runs', () => {
  const out = join(work, 'matrices');
  mkdirSync(out);
  buildMatrix(readEvidenceFolder(work), join(out, 'dlib.sqlite'), { builtAt: '2026-01-01' });
  const catalog = openMatrixCatalog(out);
  try {
    const m = catalog.forImportRoot('dlib')!;
    assert.deepEqual(m.deprecations!('dlib.trapz', null).map((r) => [r.since, r.through, r.evidence, r.source]), [['2.1.0', '2.1.0', 'warning', 'dlib/_impl.py:4']]);
    assert.equal(m.deprecations!('dlib.reshape', 'newshape').length, 1);
    assert.deepEqual(m.deprecations!('dlib.reshape', null), []);
    assert.deepEqual(m.deprecations!('dlib.trapezoid', null), []);
  } finally {
    catalog.close();
  }
});
