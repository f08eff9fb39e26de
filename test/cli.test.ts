// The CLI as users and CI call it, on the bundled numpy matrix.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from './support/cli.js';
import { writeProject } from './support/project.js';

const project = (files: Record<string, string>) => writeProject(files, 'anachron-cli-');

const TRAPEZOID = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';
const TRAPZ = 'import numpy as np\ny = np.trapz([1, 2, 3])\n';

interface JsonFinding {
  file: string; line: number; column: number; code: string; severity: string; message: string;
  library: string; api: string; parameter: string | null; pin: string; pinSource: string; replacement: string | null;
}

function check(dir: string, ...args: string[]): { code: number; findings: JsonFinding[]; stderr: string } {
  const r = runCli(['check', ...args, '--format', 'json'], dir);
  return { code: r.code, findings: r.code === 2 ? [] : (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings, stderr: r.stderr };
}

describe('anachron check', () => {
  test('numpy.trapezoid is reported at numpy 1.24.2 and not at 2.2.4', () => {
    const dir = project({ 'a.py': TRAPEZOID });
    const old = check(dir, 'a.py', '--pin', 'numpy==1.24.2');
    assert.equal(old.code, 1);
    assert.equal(old.findings.length, 1);
    const f = old.findings[0]!;
    assert.deepEqual(
      { file: f.file, line: f.line, column: f.column, code: f.code, library: f.library, api: f.api, parameter: f.parameter, pin: f.pin, pinSource: f.pinSource },
      { file: 'a.py', line: 2, column: 5, code: 'anachronistic-api', library: 'numpy', api: 'numpy.trapezoid', parameter: null, pin: '1.24.2', pinSource: 'command line' },
    );
    assert.equal(f.severity, 'error');
    assert.match(f.message, /^`numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\) — --pin numpy==1\.24\.2; in numpy 2\.0\.0–2\.5\.2 \(added between 1\.26\.5 and 2\.0\.0\)/);
    const fresh = check(dir, 'a.py', '--pin', 'numpy==2.2.4');
    assert.equal(fresh.code, 0);
    assert.deepEqual(fresh.findings, []);
  });

  test('numpy.trapz is reported at numpy 2.4.6 and not at 1.24.2', () => {
    const dir = project({ 'a.py': TRAPZ });
    const removed = check(dir, 'a.py', '--pin', 'numpy==2.4.6');
    assert.equal(removed.code, 1);
    assert.deepEqual(removed.findings.map((f) => [f.code, f.api]), [['anachronistic-api', 'numpy.trapz']]);
    assert.equal(check(dir, 'a.py', '--pin', 'numpy==1.24.2').code, 0);
  });

  test("a removal numpy documented itself: its note is quoted, and a plain name in it becomes the replacement", () => {
    const dir = project({ 'a.py': 'import numpy as np\na = np.Inf\nb = np.cast\nc = np.int(3)\n' });
    const at2 = check(dir, 'a.py', '--pin', 'numpy==2.2.4');
    const inf = at2.findings.find((f) => f.api === 'numpy.Inf')!;
    assert.equal(inf.replacement, 'numpy.inf');
    assert.match(inf.message, /; use `numpy\.inf`; numpy's note on the removal: “Use `np\.inf` instead\.”$/);
    const cast = at2.findings.find((f) => f.api === 'numpy.cast')!;
    assert.equal(cast.replacement, null, 'an expression in the note is quoted, not offered as an edit');
    assert.match(cast.message, /“Use `np\.asarray\(arr, dtype=dtype\)` instead\.”$/);
    const at124 = check(dir, 'a.py', '--pin', 'numpy==1.24.2');
    const int = at124.findings.find((f) => f.api === 'numpy.int')!;
    // The note's first advice ("use `int` by itself") names the builtin: that is the replacement, not np.int64 or np.int32.
    assert.equal(int.replacement, 'builtins.int');
    assert.match(int.message, /removed between 1\.23\.5 and 1\.24\.0\); use `int`; numpy's note on the removal: “`np\.int` was a deprecated alias for the builtin `int`\./);
    assert.doesNotMatch(int.message, /has no attribute|\n/, 'the AttributeError preamble and line breaks are dropped');
  });

  test('pins come from the nearest requirements file above each file, and --pin overrides them', () => {
    const dir = project({
      'requirements.txt': 'numpy==1.24.2\n',
      'app/new.py': TRAPEZOID,
      'legacy/requirements.txt': 'numpy==2.4.6\n',
      'legacy/old.py': TRAPZ,
    });
    const r = check(dir);
    assert.equal(r.code, 1);
    assert.deepEqual(r.findings.map((f) => [f.file, f.api, f.pinSource]), [
      [join('app', 'new.py'), 'numpy.trapezoid', 'requirements.txt:1'],
      [join('legacy', 'old.py'), 'numpy.trapz', join('legacy', 'requirements.txt') + ':1'],
    ]);
    // At 2.2.4 both work: numpy.trapz is only deprecated there (removed in 2.4), the deprecation tier's finding.
    assert.deepEqual(check(dir, '--pin', 'numpy==2.2.4').findings.map((f) => [f.file, f.code, f.api]), [[join('legacy', 'old.py'), 'deprecated-api', 'numpy.trapz']]);
  });

  test('text output names file, position, severity and code', () => {
    const dir = project({ 'a.py': TRAPEZOID });
    const r = runCli(['check', 'a.py', '--pin', 'numpy==1.24.2'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^a\.py:2:5: error \[anachronistic-api\] `numpy\.trapezoid` needs numpy ≥ 2\.0 \(pinned 1\.24\.2\) — --pin numpy==1\.24\.2; in numpy 2\.0\.0/m);
    assert.match(r.stdout, /1 finding in 1 of 1 files\./);
    assert.equal(runCli(['check', 'a.py', '--pin', 'numpy==1.24.2', '--exit-zero'], dir).code, 0);
  });

  test('a malformed manifest line is a warning and the rest of the manifest still counts', () => {
    const dir = project({ 'requirements.txt': 'scipy=1.0\nnumpy==1.24.2\n', 'a.py': TRAPEZOID });
    const r = check(dir, 'a.py');
    assert.equal(r.code, 1);
    assert.equal(r.findings[0]!.pinSource, 'requirements.txt:2');
    assert.match(r.stderr, /requirements\.txt:1: "=1\.0" is not a valid PEP 440 version specifier/);
  });

  test('usage and input errors exit with 2 and say why', () => {
    const dir = project({ 'a.py': TRAPEZOID });
    const cases: [string[], RegExp][] = [
      [['check', 'missing.py'], /no such file or folder: missing\.py/],
      [['check', 'a.py', '--pin', 'numpy'], /give a version/],
      [['check', 'a.py', '--pin', 'numpy==x y'], /--pin numpy==x y/],
      [['check', 'a.py', '--format', 'xml'], /--format must be text or json/],
      [['check', 'a.py', '--matrices', join(dir, 'none')], /no usable matrices/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['check', '--bogus'], /Unknown option '--bogus'/],
      [['history'], /name at least one API/],
      [['history', 'polars.DataFrame'], /no matrix for polars/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
  });
});

describe('anachron check --upgrade-to', () => {
  interface UpgradeJson {
    upgrade: { distribution: string; libraries: string[]; from: string[]; to: string }[];
    findings: JsonFinding[]; breaks: JsonFinding[]; warns: JsonFinding[]; resolved: JsonFinding[];
  }
  const OLD_CODE = 'import numpy as np\na = np.trapz([1, 2])\nb = np.reshape([1, 2], newshape=(2,))\nc = np.product([1, 2])\nd = np.trapezoid([1, 2])\n';
  const upgrade = (dir: string, ...args: string[]) => {
    const r = runCli(['check', ...args, '--format', 'json'], dir);
    return { code: r.code, json: r.code === 2 ? null : (JSON.parse(r.stdout) as UpgradeJson), stderr: r.stderr };
  };

  test('numpy 1.24.2 -> 2.2.4: what breaks, what warns with its fix, what goes away', () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': OLD_CODE });
    const r = upgrade(dir, '--upgrade-to', 'numpy==2.2.4');
    assert.equal(r.code, 1);
    const j = r.json!;
    assert.deepEqual(j.upgrade, [{ distribution: 'numpy', libraries: ['numpy'], from: ['==1.24.2 (requirements.txt:1)'], to: '2.2.4' }]);
    assert.deepEqual(j.breaks.map((f) => [f.line, f.code, f.api, f.replacement]), [[4, 'anachronistic-api', 'numpy.product', 'numpy.prod']]);
    assert.deepEqual(j.warns.map((f) => [f.line, f.code, f.api, f.parameter, f.replacement]), [
      [2, 'deprecated-api', 'numpy.trapz', null, 'numpy.trapezoid'],
      [3, 'deprecated-parameter', 'numpy.reshape', 'newshape', 'shape'],
    ]);
    // numpy.trapezoid is missing at 1.24.2 and there at 2.2.4: the upgrade fixes it.
    assert.deepEqual(j.resolved.map((f) => [f.line, f.api, f.pin]), [[5, 'numpy.trapezoid', '1.24.2']]);
    assert.deepEqual(j.findings.map((f) => f.line), [2, 3, 4], 'findings: what the upgrade adds, in file order');
    assert.match(j.breaks[0]!.message, / — --upgrade-to numpy==2\.2\.4;/);
    assert.equal(j.breaks[0]!.pinSource, '--upgrade-to');
  });

  test('text: a heading per library, the two groups, and the summary', () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'a.py': OLD_CODE });
    const r = runCli(['check', '--upgrade-to', 'numpy==2.4.6'], dir);
    assert.equal(r.code, 1);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[0], 'upgrade numpy ==1.24.2 (requirements.txt:1) → 2.4.6');
    assert.equal(lines[1], 'would break:');
    assert.match(r.stdout, /a\.py:2:5: error \[anachronistic-api\] `numpy\.trapz` was removed in numpy 2\.4 \(pinned 2\.4\.6\)/);
    assert.doesNotMatch(r.stdout, /^would warn/m, 'newshape= and trapz are gone at 2.4.6: they break, they do not warn');
    assert.equal(lines[lines.length - 1], 'After the upgrade: 3 would break, 0 would warn (deprecated), in 1 of 1 files; 1 finding at the current pins goes away.');
  });

  test('a finding the code already has at its pin is not new; other libraries and an unused target say nothing', () => {
    const dir = project({ 'requirements.txt': 'numpy==1.19.5\n', 'a.py': 'import numpy as np\nd = np.trapezoid([1, 2])\n' });
    // numpy.trapezoid is missing at 1.19.5 and at 1.24.2 alike: the upgrade changes nothing.
    const same = upgrade(dir, '--upgrade-to', 'numpy==1.24.2');
    assert.equal(same.code, 0);
    assert.deepEqual([same.json!.breaks, same.json!.warns, same.json!.resolved], [[], [], []]);
    const text = runCli(['check', '--upgrade-to', 'scipy==1.12.0'], dir);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^upgrade scipy → 1\.12\.0: no checked file imports it$/m);
    assert.match(text.stdout, /^After the upgrade: nothing breaks or warns in 1 file\.$/m);
  });

  test('--upgrade-to needs one version', () => {
    const dir = project({ 'a.py': OLD_CODE });
    const r = runCli(['check', '--upgrade-to', 'numpy>=2'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--upgrade-to numpy>=2: give one version, e\.g\. --upgrade-to numpy==VERSION/);
    assert.match(runCli(['check', '--upgrade-to', 'numpy'], dir).stderr, /--upgrade-to numpy: give a version/);
  });
});

describe('anachron history', () => {
  test('numpy.trapezoid: absent through 1.26, present from 2.0.0', () => {
    const r = runCli(['history', 'numpy.trapezoid', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const [entry] = JSON.parse(r.stdout) as { api: string; library: string; versions: { version: string; state: string; signature: { parameters: { name: string; kind: string; default: string | null }[] } | null }[] }[];
    assert.equal(entry!.api, 'numpy.trapezoid');
    assert.equal(entry!.library, 'numpy');
    assert.ok(entry!.versions.length >= 70, `${entry!.versions.length} versions`);
    for (const v of entry!.versions) {
      const modern = Number(v.version.split('.')[0]) >= 2;
      assert.equal(v.state, modern ? 'present' : 'absent', v.version);
      if (modern) assert.deepEqual(v.signature!.parameters.map((p) => p.name), ['y', 'x', 'dx', 'axis'], v.version);
      else assert.equal(v.signature, null, v.version);
    }
    assert.ok(entry!.versions.some((v) => v.version === '1.26.4') && entry!.versions.some((v) => v.version === '2.0.0'));
  });

  test('several APIs at once, one entry each; an unknown API is absent everywhere', () => {
    const r = runCli(['history', 'numpy.trapz', 'numpy.not_a_thing', '--format', 'json']);
    const entries = JSON.parse(r.stdout) as { api: string; versions: { state: string }[] }[];
    assert.deepEqual(entries.map((e) => e.api), ['numpy.trapz', 'numpy.not_a_thing']);
    assert.ok(entries[1]!.versions.every((v) => v.state === 'absent'));
  });

  test('text output: consecutive versions that agree share a line; --every-version lists each', () => {
    const r = runCli(['history', 'numpy.trapezoid']);
    assert.match(r.stdout, /^ {2}1\.16\.0–1\.26\.5 \(\d+\)\s+absent$/m);
    assert.match(r.stdout, /^ {2}2\.0\.0–\S+ \(\d+\)\s+present\s+trapezoid\(y, x=None, dx=1\.0, axis=-1\)$/m);
    const every = runCli(['history', 'numpy.trapezoid', '--every-version']);
    assert.match(every.stdout, /^ {2}2\.2\.4\s+present\s+trapezoid\(y, x=None, dx=1\.0, axis=-1\)$/m);
    assert.match(every.stdout, /^ {2}1\.26\.4\s+absent$/m);
  });
});
