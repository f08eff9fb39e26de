// Manifests: every format, includes, discovery, settings and precedence.
//
// Data-driven part: each folder under test/fixtures/manifests/ is a small project with an expected.json (one
// check, or an array of checks). A check names a Python file; pinsForFile on it (root and display base = the case
// folder) must give exactly the manifests, pins, problems and settings expected. `pins` lists every pin stated,
// distributions in name order, each distribution's winner first and the others in the order they would win.
// Run with ANACHRON_WRITE_EXPECTED=1 to rewrite the expected.json files from what the code gives (then review
// the diff: the files are the specification).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { condaSpec, parseManifest, poetryToPep440 } from '../server/src/core/manifests/index.js';
import { parseTomlManifest } from '../server/src/core/manifests/toml.js';
import { choosePins, completePrecedence, type Pin } from '../server/src/core/pins.js';
import { diskReader, pinsForFile, type ManifestPins, type ManifestReader } from '../server/src/workspace/manifests.js';

const CASES = join(__dirname, 'fixtures', 'manifests');

interface ExpectedPin {
  distribution: string;
  specifier: string;
  exactVersion: string | null;
  kind: string | null;
  file: string;
  line: number | null;
  marker?: string;
  /** The winner and its alternatives, where markers leave several pins possible: what the marker depends on. */
  undecided?: string[];
  /** Every pin of the distribution has a marker false for the project's Python. */
  inForce?: false;
}

interface Check {
  python: string;
  manifests: string[];
  settingsFile: string | null;
  pins: ExpectedPin[];
  problems: { file: string; line: number; message: string }[];
  settings: unknown;
}

function render(python: string, got: ManifestPins, caseDir: string): Check {
  const pins: ExpectedPin[] = [];
  for (const name of [...got.candidates.keys()].sort()) {
    const list = got.candidates.get(name)!;
    const winner = got.pins.get(name);
    const inForce = winner ? [winner, ...(winner.alternatives ?? [])] : [];
    // The winner (and its alternatives) lead the candidates, in order; the chosen pins are copies only to say more.
    inForce.forEach((p, i) => assert.deepEqual({ ...p, undecided: undefined, alternatives: undefined }, { ...list[i]!, undecided: undefined, alternatives: undefined }, `pin ${i} in force for ${name} is candidate ${i}`));
    for (const p of list) {
      const pin: ExpectedPin = { distribution: p.distribution, specifier: p.specifier, exactVersion: p.exactVersion, kind: p.kind ?? null, file: p.origin.file, line: p.origin.line };
      if (p.marker !== undefined) pin.marker = p.marker;
      const chosen = inForce.find((q) => q.origin.file === p.origin.file && q.origin.line === p.origin.line && q.specifier === p.specifier);
      if (chosen?.undecided) pin.undecided = chosen.undecided;
      if (!winner) pin.inForce = false;
      pins.push(pin);
    }
  }
  return {
    python,
    manifests: got.manifests.map((m) => relative(caseDir, m)),
    settingsFile: got.settingsFile === null ? null : relative(caseDir, got.settingsFile),
    pins,
    problems: got.problems.map((p) => ({ file: p.file, line: p.line, message: p.message })),
    settings: got.settings,
  };
}

describe('manifest fixtures', () => {
  const cases = readdirSync(CASES).filter((n) => existsSync(join(CASES, n, 'expected.json')) || process.env['ANACHRON_WRITE_EXPECTED']).sort();
  for (const name of cases) {
    test(name, () => {
      const caseDir = join(CASES, name);
      const expectedFile = join(caseDir, 'expected.json');
      const raw = JSON.parse(readFileSync(expectedFile, 'utf8')) as Check | Check[];
      const checks = Array.isArray(raw) ? raw : [raw];
      const got = checks.map((c) => render(c.python, pinsForFile(join(caseDir, c.python), { root: caseDir, displayBase: caseDir }), caseDir));
      if (process.env['ANACHRON_WRITE_EXPECTED']) {
        writeFileSync(expectedFile, JSON.stringify(Array.isArray(raw) ? got : got[0], null, 2) + '\n');
        return;
      }
      assert.deepEqual(got, checks);
    });
  }
});

// Manifests saved on Windows end their lines with CRLF: every fixture read that way gives exactly the same pins,
// lines, problems and settings.
describe('manifest fixtures with Windows line endings (CRLF)', () => {
  const crlf: ManifestReader = { listDir: (dir) => diskReader.listDir(dir), readText: (file) => diskReader.readText(file)?.replace(/\r?\n/g, '\r\n') };
  for (const name of readdirSync(CASES).filter((n) => existsSync(join(CASES, n, 'expected.json'))).sort()) {
    test(name, () => {
      const caseDir = join(CASES, name);
      const raw = JSON.parse(readFileSync(join(caseDir, 'expected.json'), 'utf8')) as Check | Check[];
      const checks = Array.isArray(raw) ? raw : [raw];
      assert.deepEqual(checks.map((c) => render(c.python, pinsForFile(join(caseDir, c.python), { root: caseDir, displayBase: caseDir, reader: crlf }), caseDir)), checks);
    });
  }
});

/** An in-memory project: paths are absolute and need not exist on disk. */
function memoryReader(files: Record<string, string>, log?: string[]): ManifestReader {
  return {
    listDir(dir) {
      log?.push(`list ${dir}`);
      const prefix = dir.endsWith('/') ? dir : dir + '/';
      const names = new Set<string>();
      for (const path of Object.keys(files)) if (path.startsWith(prefix)) names.add(path.slice(prefix.length).split('/')[0]!);
      return [...names];
    },
    readText(file) {
      log?.push(`read ${file}`);
      return files[file];
    },
  };
}

const winners = (r: ManifestPins) => Object.fromEntries([...r.pins].map(([name, p]) => [name, `${p.specifier} ${p.origin.file}:${p.origin.line}`]));

describe('precedence', () => {
  const project = {
    '/p/uv.lock': '[[package]]\nname = "numpy"\nversion = "1.24.4"\nsource = { registry = "https://pypi.org/simple" }\n',
    '/p/requirements.txt': 'numpy==1.24.2\nscipy==1.10.1\npandas>=1.5\n',
    '/p/pyproject.toml': [
      '[project]',
      'name = "p"',
      'version = "1"',
      'dependencies = ["numpy>=1.21", "scipy>=1.9", "pandas", "requests", "h5py"]',
      '',
      '[tool.anachron]',
      'assume-versions = { requests = "2.31.0", numpy = "1.20.0" }',
    ].join('\n'),
  };

  test('lock beats exact beats range beats assumed beats bare', () => {
    const r = pinsForFile('/p/main.py', { displayBase: '/p', reader: memoryReader(project) });
    assert.deepEqual(winners(r), {
      numpy: '==1.24.4 uv.lock:2',
      scipy: '==1.10.1 requirements.txt:2',
      pandas: '>=1.5 requirements.txt:3',
      requests: '==2.31.0 pyproject.toml:7',
      h5py: ' pyproject.toml:4',
    });
    assert.deepEqual(r.candidates.get('numpy')!.map((p) => `${p.kind} ${p.specifier}`), ['lock ==1.24.4', 'requirement ==1.24.2', 'requirement >=1.21', 'assumed ==1.20.0']);
  });

  test('installed pins rank between ranges and assumed versions', () => {
    const installed = (name: string, version: string): Pin => ({ distribution: name, kind: 'installed', specifier: `==${version}`, exactVersion: version, origin: { file: '.venv', line: null } });
    const r = pinsForFile('/p/main.py', { displayBase: '/p', reader: memoryReader(project), extraPins: [installed('requests', '2.28.0'), installed('pandas', '2.0.3'), installed('h5py', '3.9.0')] });
    assert.equal(winners(r)['requests'], '==2.28.0 .venv:null');
    assert.equal(winners(r)['pandas'], '>=1.5 requirements.txt:3');
    assert.equal(winners(r)['h5py'], '==3.9.0 .venv:null');
  });

  test('[tool.anachron] precedence reorders the steps; steps left out follow in the default order', () => {
    const custom = { ...project, '/p/pyproject.toml': project['/p/pyproject.toml'] + '\nprecedence = ["range", "exact"]\n' };
    const r = pinsForFile('/p/main.py', { displayBase: '/p', reader: memoryReader(custom) });
    assert.deepEqual(r.settings.precedence, ['range', 'exact']);
    assert.deepEqual(completePrecedence(r.settings.precedence), ['range', 'exact', 'lock', 'installed', 'assumed', 'bare']);
    assert.equal(winners(r)['numpy'], '>=1.21 pyproject.toml:4');
    assert.equal(winners(r)['scipy'], '>=1.9 pyproject.toml:4');
    assert.equal(winners(r)['requests'], '==2.31.0 pyproject.toml:7');
  });

  test('ties go to the file first in the file order; ranges on several lines of one requirements file intersect', () => {
    const r = pinsForFile('/q/main.py', {
      displayBase: '/q',
      reader: memoryReader({
        '/q/requirements-dev.txt': 'numpy==1.26.0\n',
        '/q/requirements.txt': 'scipy>=1.9\nnumpy==1.25.0\nscipy>=1.10\n',
        '/q/poetry.lock': '[[package]]\nname = "attrs"\nversion = "23.1.0"\n',
        '/q/uv.lock': '[[package]]\nname = "attrs"\nversion = "23.2.0"\n',
        '/q/environment.yml': 'dependencies:\n  - scipy>=1.8\n',
      }),
    });
    assert.deepEqual(winners(r), { numpy: '==1.25.0 requirements.txt:2', scipy: '>=1.9,>=1.10 requirements.txt:1', attrs: '==23.2.0 uv.lock:2' });
    assert.deepEqual(r.manifests, ['/q/uv.lock', '/q/poetry.lock', '/q/requirements.txt', '/q/requirements-dev.txt', '/q/environment.yml']);
  });

  test('choosePins is usable on its own', () => {
    const pin = (specifier: string, kind: Pin['kind'], line: number): Pin => ({ distribution: 'numpy', kind, specifier, exactVersion: specifier.startsWith('==') ? specifier.slice(2) : null, origin: { file: 'x', line } });
    const { pins } = choosePins([pin('', 'requirement', 1), pin('>=1', 'requirement', 2), pin('==1.2', 'requirement', 3), pin('==1.3', 'lock', 4)], ['bare', 'lock']);
    assert.equal(pins.get('numpy')!.origin.line, 1);
  });
});

describe('discovery', () => {
  test('the nearest folder with a manifest wins; folders of tool settings only do not count', () => {
    const files = {
      '/mono/pyproject.toml': '[project]\nname = "mono"\nversion = "0"\ndependencies = ["numpy>=1.20"]\n',
      '/mono/services/api/requirements.txt': 'numpy==1.26.4\n',
      '/mono/services/api/pyproject.toml': '[tool.ruff]\nline-length = 100\n',
      '/mono/tools/setup.cfg': '[flake8]\nmax-line-length = 100\n',
    };
    const reader = memoryReader(files);
    const api = pinsForFile('/mono/services/api/app/routes.py', { displayBase: '/mono', reader });
    assert.deepEqual(api.manifests, ['/mono/services/api/requirements.txt']);
    assert.equal(winners(api)['numpy'], '==1.26.4 services/api/requirements.txt:1');
    const tools = pinsForFile('/mono/tools/lint.py', { displayBase: '/mono', reader });
    assert.deepEqual(tools.manifests, ['/mono/pyproject.toml']);
  });

  test('stays inside root', () => {
    const reader = memoryReader({ '/outer/requirements.txt': 'numpy==1.24.2\n', '/outer/inner/x.txt': '' });
    assert.equal(pinsForFile('/outer/inner/a.py', { root: '/outer/inner', displayBase: '/outer', reader }).pins.size, 0);
    assert.equal(pinsForFile('/outer/inner/a.py', { displayBase: '/outer', reader }).pins.size, 1);
  });

  test('every read goes through the reader, so unsaved editor text counts', () => {
    const log: string[] = [];
    const reader = memoryReader(
      {
        '/virtual/project/requirements.txt': 'numpy==2.2.4\n-r more.txt\n',
        '/virtual/project/more.txt': 'scipy==1.15.2\n',
        '/virtual/project/pyproject.toml': '[tool.anachron]\nignore = ["unknown-api"]\n',
      },
      log,
    );
    const r = pinsForFile('/virtual/project/src/app.py', { displayBase: '/virtual/project', reader });
    assert.deepEqual(winners(r), { numpy: '==2.2.4 requirements.txt:1', scipy: '==1.15.2 more.txt:1' });
    assert.deepEqual(r.settings, { ignore: ['unknown-api'] });
    assert.ok(log.includes('read /virtual/project/more.txt'));
    assert.ok(log.every((l) => l.startsWith('list /') || l.startsWith('read /virtual/project/')), log.join('\n'));
  });

  test('a manifest that cannot be read is a problem, not a crash', () => {
    const reader: ManifestReader = { listDir: (dir) => (dir === '/r' ? ['requirements.txt'] : []), readText: () => undefined };
    const r = pinsForFile('/r/a.py', { displayBase: '/r', reader });
    assert.deepEqual(r.problems, [{ file: 'requirements.txt', line: 1, message: 'cannot read requirements.txt' }]);
  });
});

describe('parseManifest', () => {
  test('chooses the format by file name and names the display name as the file', () => {
    const lock = parseManifest('/x/y/poetry.lock', '[[package]]\nname = "NumPy"\nversion = "1.24.4"\n', 'y/poetry.lock');
    assert.deepEqual(lock.pins, [{ distribution: 'numpy', kind: 'lock', specifier: '==1.24.4', exactVersion: '1.24.4', origin: { file: 'y/poetry.lock', line: 2 } }]);
    assert.deepEqual(parseManifest('notes.txt', 'numpy==1.0\n', 'notes.txt'), { pins: [], problems: [] });
    assert.equal(parseManifest('requirements-dev.in', 'numpy==1.0\n', 'r').pins.length, 1);
    assert.equal(parseManifest('constraints.txt', 'numpy==1.0\n', 'c').pins.length, 1);
    assert.equal(parseManifest('environment.yaml', 'dependencies: [numpy=1.24]\n', 'e').pins[0]!.specifier, '==1.24.*');
  });

  test('returns [tool.anachron] settings for a pyproject.toml, and problems on their lines', () => {
    const r = parseManifest('pyproject.toml', '[tool.anachron]\nseverity = { unknown-api = "loud" }\nlibraries = ["numpy"]\n', 'pyproject.toml');
    assert.deepEqual(r.settings, { severity: {}, libraries: ['numpy'] });
    assert.deepEqual(r.problems.map((p) => p.line), [2]);
    assert.match(r.problems[0]!.message, /severity\.unknown-api must be one of/);
  });

  test('a broken document still gives what can be read, with the error on its line', () => {
    const r = parseManifest('uv.lock', '[[package]]\nname = "numpy"\nversion = "1.26.4"\n\n[[package]]\nname = "scipy\nversion = "1.14.1"\n', 'uv.lock');
    assert.deepEqual(r.pins.map((p) => p.distribution), ['numpy']);
    assert.deepEqual(r.problems.map((p) => p.line), [6]);
  });
});

describe('TOML lines', () => {
  test('keys, array elements, array tables and inline tables are found on their own lines', () => {
    const text = [
      '# top',
      'title = "a [not a table]"',
      'description = """',
      '[project]',
      'dependencies = ["fake"]',
      '"""',
      '[project]',
      "'quoted.key' = 1",
      'dependencies = [',
      '  # a comment with ] and ,',
      '  "numpy>=1.21",  "scipy",',
      '  """pandas""",',
      ']',
      'x.y.z = { a = 1, b = [',
      '  2,',
      '] }',
      '[[package]]',
      'name = "a"',
      '[package.extra]',
      'k = "v"',
      '[[package]]',
      'name = "b"',
    ].join('\n');
    const { lineOf, problems, data } = parseTomlManifest(text, 'f.toml');
    assert.deepEqual(problems, []);
    assert.equal((data['project'] as Record<string, unknown>)['quoted.key'], 1);
    const at = (...path: (string | number)[]) => lineOf(path);
    assert.deepEqual(
      [at('title'), at('project'), at('project', 'quoted.key'), at('project', 'dependencies'), at('project', 'dependencies', 0), at('project', 'dependencies', 1), at('project', 'dependencies', 2)],
      [2, 7, 8, 9, 11, 11, 12],
    );
    assert.deepEqual([at('project', 'x', 'y', 'z', 'b', 0), at('package', 0, 'name'), at('package', 0, 'extra', 'k'), at('package', 1, 'name'), at('package', 1, 'missing')], [15, 18, 20, 22, 21]);
  });
});

describe('includes outside requirements files', () => {
  test('setup.cfg "file:" and a conda pip "-r" pull in requirements files relative to themselves', () => {
    const reader = memoryReader({
      '/s/setup.cfg': '[metadata]\nname = s\n\n[options]\ninstall_requires = file: reqs/base.txt\n',
      '/s/reqs/base.txt': 'numpy==1.24.2\n',
      '/s/env/environment.yml': 'dependencies:\n  - pip:\n    - -r ../reqs/base.txt\n    - -c missing.txt\n',
    });
    const cfg = pinsForFile('/s/a.py', { displayBase: '/s', reader });
    assert.deepEqual(winners(cfg), { numpy: '==1.24.2 reqs/base.txt:1' });
    const env = pinsForFile('/s/env/a.py', { displayBase: '/s', reader });
    assert.deepEqual(winners(env), { numpy: '==1.24.2 reqs/base.txt:1' });
    assert.deepEqual(env.problems, [{ file: 'env/environment.yml', line: 4, message: 'cannot read env/missing.txt, included with -c' }]);
  });
});

describe('constraint translation', () => {
  test('Poetry constraints become PEP 440 ranges', () => {
    const cases: [string, string][] = [
      ['^1.2.3', '>=1.2.3,<2.0.0'],
      ['^1.2', '>=1.2,<2.0'],
      ['^0.2.3', '>=0.2.3,<0.3.0'],
      ['^0.0.3', '>=0.0.3,<0.0.4'],
      ['^0', '>=0,<1'],
      ['~1.2.3', '>=1.2.3,<1.3.0'],
      ['~1.2', '>=1.2,<1.3'],
      ['~1', '>=1,<2'],
      ['~=1.4.2', '~=1.4.2'],
      ['1.2.*', '==1.2.*'],
      ['*', ''],
      ['1.2.3', '==1.2.3'],
      ['>= 1.2, < 1.5', '>=1.2,<1.5'],
      ['>=1.2 <1.5', '>=1.2,<1.5'],
      ['^1.2,!=1.2.5', '>=1.2,<2.0,!=1.2.5'],
      ['^1.2 || ^2.0', ''],
    ];
    for (const [poetry, pep440] of cases) assert.deepEqual(poetryToPep440(poetry), { specifier: pep440 }, poetry);
    assert.ok('error' in poetryToPep440('^one'));
  });

  test('conda match specs become PEP 440 specifiers', () => {
    const cases: [string, string, string][] = [
      ['numpy', 'numpy', ''],
      ['numpy=1.24', 'numpy', '==1.24.*'],
      ['numpy=1.24.2', 'numpy', '==1.24.2'],
      ['numpy==1.24.2', 'numpy', '==1.24.2'],
      ['numpy>=1.21', 'numpy', '>=1.21'],
      ['numpy >=1.21,<2', 'numpy', '>=1.21,<2'],
      ['numpy 1.24.*', 'numpy', '==1.24.*'],
      ['numpy 1.24*', 'numpy', '==1.24.*'],
      ['numpy 1.24.2 py310h_0', 'numpy', '==1.24.2'],
      ['conda-forge::numpy=1.24.2=py310h_0', 'numpy', '==1.24.2'],
      ['numpy[version=">=1.22,<2"]', 'numpy', '>=1.22,<2'],
      ['numpy 1.24|1.26', 'numpy', ''],
    ];
    for (const [spec, name, specifier] of cases) assert.deepEqual(condaSpec(spec), { name, specifier }, spec);
  });
});
