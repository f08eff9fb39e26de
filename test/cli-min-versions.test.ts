// `anachron min-versions` on the bundled numpy matrix (every minor release 1.16–2.5 and the patch releases whose
// surface differs): numpy.trapezoid arrived in 2.0.0, unique(equal_nan=) in 1.23.0, trapz left in 2.4.0.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from './support/cli.js';
import { writeProject } from './support/project.js';

const project = (files: Record<string, string>) => writeProject(files, 'anachron-minv-');

interface Usage { file: string; line: number; column: number; code: string; api: string; parameter: string | null }
interface Requirement {
  library: string; distribution: string; trackedVersions: string[]; files: string[];
  minimum: string | null; failsBelowMinimum: string | null; minimumForcedBy: Usage[];
  maximum: string | null; failsAboveMaximum: string | null; maximumForcedBy: Usage[];
  compatibleVersions: string[]; usages: (Usage & { worksIn: string[] })[];
  declared: { requirement: string; specifier: string; source: string; lowerBound: string | null } | null;
  verdict: string; declaredAllowsFailing: string[];
  deprecations: (Usage & { replacement: string | null; removedIn: string | null; deprecatedIn: string[] })[];
}

function minVersions(dir: string, ...args: string[]): { code: number; requirements: Requirement[]; stderr: string } {
  const r = runCli(['min-versions', ...args, '--format', 'json'], dir);
  return { code: r.code, requirements: r.code === 2 ? [] : (JSON.parse(r.stdout) as Requirement[]), stderr: r.stderr };
}

const USES_BOTH = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\nu = np.unique([1.0, 2.0], equal_nan=False)\n';
const USES_TRAPZ = 'import numpy as np\ny = np.trapz([1, 2, 3])\n';
const atLeast = (versions: string[], first: string) => versions.slice(versions.indexOf(first));

describe('anachron min-versions', () => {
  test('np.trapezoid and np.unique(equal_nan=…) need numpy 2.0.0, forced by trapezoid; numpy>=1.19 is too low', () => {
    const dir = project({ 'requirements.txt': 'numpy>=1.19\n', 'a.py': USES_BOTH });
    const r = minVersions(dir);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.requirements.length, 1);
    const numpy = r.requirements[0]!;
    assert.equal(numpy.library, 'numpy');
    const tracked = numpy.trackedVersions;
    assert.ok(tracked.length >= 70 && tracked.includes('1.26.5') && tracked.includes('2.0.0'), tracked.join(' '));
    assert.equal(numpy.minimum, '2.0.0');
    assert.equal(numpy.failsBelowMinimum, '1.26.5');
    assert.deepEqual(numpy.minimumForcedBy.map((u) => [u.file, u.line, u.api, u.parameter]), [['a.py', 2, 'numpy.trapezoid', null]]);
    assert.equal(numpy.maximum, tracked.at(-1));
    assert.equal(numpy.failsAboveMaximum, null);
    assert.deepEqual(numpy.compatibleVersions, atLeast(tracked, '2.0.0'));
    assert.deepEqual(numpy.usages.map((u) => [u.line, u.api, u.parameter, u.code, u.worksIn]), [
      [2, 'numpy.trapezoid', null, 'anachronistic-api', atLeast(tracked, '2.0.0')],
      [3, 'numpy.unique', 'equal_nan', 'anachronistic-parameter', atLeast(tracked, '1.23.0')],
    ]);
    assert.deepEqual(numpy.declared, { requirement: 'numpy>=1.19', specifier: '>=1.19', source: 'requirements.txt:1', lowerBound: '1.19' });
    assert.equal(numpy.verdict, 'too-low');
    assert.deepEqual(numpy.declaredAllowsFailing, tracked.slice(tracked.indexOf('1.19.0'), tracked.indexOf('2.0.0')));

    const text = runCli(['min-versions'], dir);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /lowest version: 2\.0\.0, forced by what numpy 1\.26\.5 lacks:\n\s+a\.py:2:5: `numpy\.trapezoid`\n/);
    assert.match(text.stdout, /declared: numpy>=1\.19 \(requirements\.txt:1\): TOO LOW .*require numpy>=2\.0\.0/);
    assert.doesNotMatch(text.stdout, /highest version/);
  });

  test('a declared bound at the minimum is fine; one between tracked versions cannot be verified; both exit 0', () => {
    const ok = minVersions(project({ 'requirements.txt': 'numpy>=2.0.0,<3\n', 'a.py': USES_BOTH }));
    assert.equal(ok.code, 0);
    assert.equal(ok.requirements[0]!.verdict, 'ok');
    const between = minVersions(project({ 'requirements.txt': 'numpy>=1.26.6\n', 'a.py': USES_BOTH }));
    assert.equal(between.code, 0);
    assert.equal(between.requirements[0]!.verdict, 'unverified');
    assert.equal(between.requirements[0]!.declared!.lowerBound, '1.26.6');
    const exact = minVersions(project({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': USES_BOTH }));
    assert.equal(exact.code, 1);
    assert.equal(exact.requirements[0]!.verdict, 'too-low');
  });

  test('only the keyword: numpy 1.23.0 is the lowest, forced by equal_nan', () => {
    const r = minVersions(project({ 'requirements.txt': 'numpy\n', 'a.py': 'import numpy as np\nu = np.unique([1.0], equal_nan=True)\n' }));
    const numpy = r.requirements[0]!;
    assert.equal(numpy.minimum, '1.23.0');
    assert.deepEqual(numpy.minimumForcedBy.map((u) => [u.code, u.api, u.parameter]), [['anachronistic-parameter', 'numpy.unique', 'equal_nan']]);
    assert.equal(numpy.declared!.lowerBound, null);
    assert.equal(numpy.verdict, 'too-low', 'a bare name has no lower bound');
    assert.equal(r.code, 1);
  });

  test('a removed API gives the highest version too, with the usage that forces it', () => {
    const dir = project({ 'requirements.txt': 'numpy>=1.19\n', 'a.py': USES_TRAPZ });
    const r = minVersions(dir);
    assert.equal(r.code, 0, 'the lower bound is fine; an open upper bound is only noted');
    const numpy = r.requirements[0]!;
    assert.equal(numpy.minimum, numpy.trackedVersions[0]);
    assert.equal(numpy.failsBelowMinimum, null);
    assert.equal(numpy.maximum, '2.3.5');
    assert.equal(numpy.failsAboveMaximum, '2.4.0');
    assert.deepEqual(numpy.maximumForcedBy.map((u) => [u.line, u.api]), [[2, 'numpy.trapz']]);
    assert.equal(numpy.verdict, 'ok');
    assert.deepEqual(numpy.declaredAllowsFailing, atLeast(numpy.trackedVersions, '2.4.0'));
    const text = runCli(['min-versions'], dir);
    assert.match(text.stdout, /highest version: 2\.3\.5, forced by what numpy 2\.4\.0 lacks:\n\s+a\.py:2:5: `numpy\.trapz`/);
    assert.match(text.stdout, /note: the declared range also allows numpy 2\.4\.0/);
  });

  test('usages the library deprecates where the code runs are listed with the versions, the removal and the fix', () => {
    const dir = project({ 'requirements.txt': 'numpy>=1.19\n', 'a.py': 'import numpy as np\ny = np.trapz([1, 2, 3])\nz = np.reshape([1, 2], newshape=(2,))\n' });
    const numpy = minVersions(dir).requirements[0]!;
    const between = (a: string, b: string) => numpy.trackedVersions.slice(numpy.trackedVersions.indexOf(a), numpy.trackedVersions.indexOf(b) + 1);
    assert.deepEqual(numpy.deprecations.map((u) => [u.line, u.code, u.api, u.parameter, u.deprecatedIn, u.removedIn, u.replacement]), [
      [2, 'deprecated-api', 'numpy.trapz', null, between('2.0.0', '2.3.5'), '2.4.0', 'numpy.trapezoid'],
      [3, 'deprecated-parameter', 'numpy.reshape', 'newshape', between('2.1.0', '2.3.5'), '2.4.0', 'shape'],
    ]);
    const text = runCli(['min-versions'], dir);
    assert.equal(text.code, 0, 'a deprecation is advice: the declared bound is still fine');
    assert.match(text.stdout, /deprecated where it runs \(it warns there; plan the change before upgrading\):\n\s+a\.py:2:5: `numpy\.trapz` deprecated in numpy 2\.0\.0–2\.3\.5, gone in 2\.4\.0; use `numpy\.trapezoid`\n\s+a\.py:3:24: `numpy\.reshape\(newshape=…\)` deprecated in numpy 2\.1\.0–2\.3\.5, gone in 2\.4\.0; use `shape=`/);
    // The same API without the deprecated keyword, and an API numpy never deprecated: nothing to advise.
    const clean = project({ 'requirements.txt': 'numpy>=1.19\n', 'a.py': 'import numpy as np\nz = np.reshape([1, 2], (2,))\ns = np.sum([1])\n' });
    assert.deepEqual(minVersions(clean).requirements[0]!.deprecations, []);
    assert.doesNotMatch(runCli(['min-versions'], clean).stdout, /deprecated/);
  });

  test('each folder is judged against its own manifest; undeclared libraries are reported, not failed', () => {
    const dir = project({
      'app/requirements.txt': 'numpy>=2.2.4\n',
      'app/new.py': USES_BOTH,
      'legacy/requirements.txt': 'numpy==1.19.5\n',
      'legacy/old.py': USES_BOTH,
      'scripts/tool.py': USES_BOTH,
    });
    const r = minVersions(dir);
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.requirements.map((q) => [q.files.join(','), q.declared?.source ?? null, q.verdict, q.minimum]),
      [
        [join('scripts', 'tool.py'), null, 'undeclared', '2.0.0'],
        [join('app', 'new.py'), join('app', 'requirements.txt') + ':1', 'ok', '2.0.0'],
        [join('legacy', 'old.py'), join('legacy', 'requirements.txt') + ':1', 'too-low', '2.0.0'],
      ],
    );
    assert.equal(minVersions(dir, 'app', 'scripts').code, 0);
  });

  test('each pin markers leave in force is judged: numpy 2.1.0 for Python 3.12+ is fine, 1.26.4 below it is too low for np.trapezoid', () => {
    // The first line wins the checker's precedence; judging it alone said "ok" and exit 0.
    const requirements = 'numpy==2.1.0; python_version >= "3.12"\nnumpy==1.26.4; python_version < "3.12"\n';
    const dir = project({ 'requirements.txt': requirements, 'a.py': 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n' });
    const r = minVersions(dir);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.requirements.map((q) => [q.declared?.requirement, q.declared?.source, q.verdict]), [
      ['numpy==2.1.0; python_version >= "3.12"', 'requirements.txt:1', 'ok'],
      ['numpy==1.26.4; python_version < "3.12"', 'requirements.txt:2', 'too-low'],
    ]);
    assert.ok(r.requirements.every((q) => q.minimum === '2.0.0' && q.files.join() === 'a.py'));
    const text = runCli(['min-versions'], dir);
    assert.match(text.stdout, /declared: numpy==1\.26\.4; python_version < "3\.12" \(requirements\.txt:2\): TOO LOW/);
    assert.match(text.stdout, /1 declared requirement is wrong for the code: numpy==1\.26\.4; python_version < "3\.12"\./);

    // A Python pin that decides the markers leaves one pin in force, and one judgement.
    const decided = project({ 'requirements.txt': requirements, 'pyproject.toml': '[project]\nname = "p"\nversion = "1"\nrequires-python = ">=3.12"\n', 'a.py': 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n' });
    const d = minVersions(decided);
    assert.equal(d.code, 0, d.stderr);
    assert.deepEqual(d.requirements.filter((q) => q.library === 'numpy').map((q) => [q.declared?.specifier, q.verdict]), [['==2.1.0', 'ok']]);
  });

  test('guarded fallbacks do not force a version', () => {
    const code = 'import numpy as np\ntry:\n    from numpy import trapezoid\nexcept ImportError:\n    from numpy import trapz as trapezoid\n';
    const r = minVersions(project({ 'requirements.txt': 'numpy>=1.19\n', 'a.py': code }));
    assert.equal(r.code, 0, JSON.stringify(r.requirements));
    assert.equal(r.requirements[0]!.minimum, r.requirements[0]!.trackedVersions[0]);
  });

  test('no tracked library, and usage errors', () => {
    const dir = project({ 'a.py': 'answer = 6 * 7\n' });
    const none = runCli(['min-versions'], dir);
    assert.equal(none.code, 0);
    assert.match(none.stdout, /No tracked library is used in 1 file\./);
    assert.deepEqual(minVersions(dir).requirements, []);
    const cases: [string[], RegExp][] = [
      [['min-versions', 'missing.py'], /no such file or folder: missing\.py/],
      [['min-versions', '--format', 'sarif'], /--format must be text or json/],
      [['min-versions', '--matrices', join(dir, 'none')], /no usable matrices/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
});
