// The CLI's pure report modules: diff parsing for --diff, SARIF rendering, the min-versions verdicts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseChangedLines, touchesLines, unquoteGitPath } from '../server/src/report/diff.js';
import { computeRequirement, lowerBoundOf, type Usage } from '../server/src/report/min-versions.js';
import type { ReportedFinding } from '../server/src/report/reported-finding.js';
import { allRules, sarifLevel } from '../server/src/report/rules.js';
import { FINGERPRINT_KEY, relativeArtifactUri, renderSarif } from '../server/src/report/sarif.js';
import { ALL_CODES } from '../server/src/core/findings.js';

describe('parseChangedLines', () => {
  test('added and changed lines per file; deletions add nothing', () => {
    const diff = [
      'diff --git a/a.py b/a.py',
      'index 1111111..2222222 100644',
      '--- a/a.py',
      '+++ b/a.py',
      '@@ -2 +2 @@ import numpy as np',
      '-old = 1',
      '+new = 2',
      '@@ -5,0 +6,3 @@ def f():',
      '+x = 1',
      '+y = 2',
      '+z = 3',
      '@@ -9,2 +11,0 @@',
      '-gone',
      '-gone too',
      'diff --git a/deleted.py b/deleted.py',
      'deleted file mode 100644',
      '--- a/deleted.py',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-a',
      '-b',
      'diff --git a/new.py b/new.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.py',
      '@@ -0,0 +1,2 @@',
      '+one',
      '+two',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const changed = parseChangedLines(diff);
    assert.deepEqual([...changed.entries()], [
      ['a.py', [[2, 2], [6, 8]]],
      ['new.py', [[1, 2]]],
    ]);
  });

  test('added lines that look like headers are content, not headers', () => {
    const diff = ['diff --git a/x.py b/x.py', '--- a/x.py', '+++ b/x.py', '@@ -0,0 +1,3 @@', '+++ b/evil.py', '+@@ -1 +1,9 @@', '+diff --git a/q b/q', ''].join('\n');
    assert.deepEqual([...parseChangedLines(diff).entries()], [['x.py', [[1, 3]]]]);
  });

  test('quoted and spaced paths', () => {
    const diff = [
      'diff --git "a/q\\"uo.py" "b/q\\"uo.py"',
      '--- /dev/null',
      '+++ "b/q\\"uo.py"',
      '@@ -0,0 +1 @@',
      '+x',
      'diff --git a/with space.py b/with space.py',
      '--- /dev/null',
      '+++ b/with space.py\t',
      '@@ -0,0 +1 @@',
      '+a',
      'diff --git "a/\\303\\274.py" "b/\\303\\274.py"',
      '--- /dev/null',
      '+++ "b/\\303\\274.py"',
      '@@ -0,0 +1 @@',
      '+y',
    ].join('\n');
    assert.deepEqual([...parseChangedLines(diff).keys()], ['q"uo.py', 'with space.py', 'ü.py']);
    assert.equal(unquoteGitPath('"tab\\there"'), 'tab\there');
    assert.equal(unquoteGitPath('plain.py'), 'plain.py');
  });

  test('touchesLines: any overlap of a finding with a changed range', () => {
    const ranges: [number, number][] = [[2, 2], [6, 8]];
    assert.equal(touchesLines(ranges, 2), true);
    assert.equal(touchesLines(ranges, 3), false);
    assert.equal(touchesLines(ranges, 4, 6), true);
    assert.equal(touchesLines(ranges, 9, 12), false);
    assert.equal(touchesLines(undefined, 1), false);
  });
});

function finding(over: Partial<ReportedFinding> = {}): ReportedFinding {
  return {
    file: 'a.py', line: 2, column: 5, endLine: 2, endColumn: 17, code: 'anachronistic-api', severity: 'error',
    message: 'm', library: 'numpy', api: 'numpy.trapezoid', parameter: null, pin: '1.24.2', requirement: 'numpy==1.24.2',
    pinSource: 'requirements.txt:1', availableIn: ['2.2.4'], replacement: null, ...over,
  };
}

describe('renderSarif', () => {
  const tool = { name: 'anachron', version: '0.1.0', informationUri: 'https://example.invalid/anachron', rulesHelpBase: 'https://example.invalid/anachron/docs/rules/' };

  test('one rule per finding code, levels from severities', () => {
    const log = renderSarif({ tool, findings: [] });
    assert.deepEqual(log.runs[0]!.tool.driver.rules.map((r) => r.id), [...ALL_CODES]);
    assert.deepEqual(allRules().map((r) => r.code), [...ALL_CODES]);
    assert.deepEqual((['error', 'warning', 'information', 'hint'] as const).map(sarifLevel), ['error', 'warning', 'note', 'note']);
    assert.equal(log.runs[0]!.originalUriBaseIds, undefined);
  });

  test('fingerprints ignore line numbers but tell repeated uses apart', () => {
    const artifact = { uri: 'a.py', uriBaseId: 'SRCROOT' };
    const print = (fs: ReportedFinding[]) => renderSarif({ tool, findings: fs.map((f) => ({ finding: f, artifact })) }).runs[0]!.results.map((r) => r.partialFingerprints[FINGERPRINT_KEY]);
    const before = print([finding(), finding({ line: 3 })]);
    const after = print([finding({ line: 10 }), finding({ line: 30 })]);
    assert.deepEqual(after, before);
    assert.notEqual(before[0], before[1]);
    const otherFile = renderSarif({ tool, findings: [{ finding: finding(), artifact: { uri: 'b.py', uriBaseId: 'SRCROOT' } }] }).runs[0]!.results[0]!.partialFingerprints[FINGERPRINT_KEY];
    assert.notEqual(otherFile, before[0]);
  });

  test('regions never end before they start; artifact paths are URI references', () => {
    const log = renderSarif({ tool, findings: [{ finding: finding({ endLine: 2, endColumn: 5 }), artifact: { uri: 'a.py' } }] });
    assert.deepEqual(log.runs[0]!.results[0]!.locations[0]!.physicalLocation.region, { startLine: 2, startColumn: 5, endLine: 2, endColumn: 6 });
    assert.equal(relativeArtifactUri('src/my file#1.py'), 'src/my%20file%231.py');
    assert.equal(relativeArtifactUri('ü/a.py'), '%C3%BC/a.py');
  });
});

describe('min-versions verdicts', () => {
  const versions = ['1.19.5', '1.24.2', '2.2.4', '2.4.6'];
  const use = (api: string, line = 2): Usage => ({ file: 'a.py', line, column: 5, code: 'anachronistic-api', api, parameter: null });

  test('lowerBoundOf reads where a specifier starts', () => {
    assert.equal(lowerBoundOf('>=1.19'), '1.19');
    assert.equal(lowerBoundOf('>=1.19,<2'), '1.19');
    assert.equal(lowerBoundOf('<2, >1.20'), '1.20');
    assert.equal(lowerBoundOf('==1.24.*'), '1.24');
    assert.equal(lowerBoundOf('~=1.21.0'), '1.21.0');
    assert.equal(lowerBoundOf('==2.2.4'), '2.2.4');
    assert.equal(lowerBoundOf('>=1.0,>=2.0'), '2.0');
    assert.equal(lowerBoundOf(''), null);
    assert.equal(lowerBoundOf('<2'), null);
    assert.equal(lowerBoundOf('!=1.0'), null);
  });

  const trapezoid = new Map([['1.19.5', [use('numpy.trapezoid')]], ['1.24.2', [use('numpy.trapezoid')]]]);
  const judge = (specifier: string | null, failuresAt = trapezoid) =>
    computeRequirement({
      library: 'numpy', distribution: 'numpy', versions, failuresAt, files: ['a.py'],
      declared: specifier === null ? null : { requirement: `numpy${specifier}`, specifier, source: 'requirements.txt:1' },
    });

  test('too low, unverified, ok, undeclared', () => {
    assert.equal(judge('>=1.19').verdict, 'too-low');
    assert.equal(judge('').verdict, 'too-low');
    assert.equal(judge('==1.24.2').verdict, 'too-low');
    assert.equal(judge('>=2.0').verdict, 'unverified');
    assert.equal(judge('>1.24.2').verdict, 'unverified');
    assert.equal(judge('>=2.2.4').verdict, 'ok');
    assert.equal(judge('==2.4.6').verdict, 'ok');
    assert.equal(judge(null).verdict, 'undeclared');
    const r = judge('>=1.19');
    assert.equal(r.minimum, '2.2.4');
    assert.equal(r.failsBelowMinimum, '1.24.2');
    assert.deepEqual(r.minimumForcedBy, [use('numpy.trapezoid')]);
  });

  test('nothing fails: the oldest tracked version; everything fails somewhere: unsatisfiable', () => {
    const free = judge('>=1.0', new Map());
    assert.deepEqual([free.minimum, free.maximum, free.failsBelowMinimum, free.verdict], ['1.19.5', '2.4.6', null, 'ok']);
    const conflict = judge('>=1.19', new Map([
      ['1.19.5', [use('numpy.trapezoid')]],
      ['1.24.2', [use('numpy.trapezoid')]],
      ['2.2.4', [use('numpy.gone', 3)]],
      ['2.4.6', [use('numpy.gone', 3), use('numpy.trapz', 4)]],
    ]));
    assert.equal(conflict.minimum, null);
    assert.equal(conflict.verdict, 'unsatisfiable');
    assert.deepEqual(conflict.usages.map((u) => [u.api, u.worksIn]), [
      ['numpy.trapezoid', ['2.2.4', '2.4.6']],
      ['numpy.gone', ['1.19.5', '1.24.2']],
      ['numpy.trapz', ['1.19.5', '1.24.2', '2.2.4']],
    ]);
  });
});
