// `anachron check --diff REV` on real git repositories: only findings on lines added or changed since REV.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from './support/cli.js';

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=anachron test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** A repository whose first commit has one old finding (line 2 of a.py, numpy pinned at 1.24.2). */
function repository(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'anachron-diff-')));
  git(dir, 'init', '-q');
  write(dir, { 'requirements.txt': 'numpy==1.24.2\n', 'a.py': 'import numpy as np\nold = np.trapezoid([1])\n' });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

interface JsonFinding { file: string; line: number; api: string; parameter: string | null; code: string }

function diffCheck(dir: string, ...args: string[]): { code: number; findings: JsonFinding[]; stderr: string } {
  const r = runCli(['check', ...args, '--format', 'json'], dir);
  return { code: r.code, findings: r.code === 2 ? [] : (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings, stderr: r.stderr };
}

const at = (findings: JsonFinding[]) => findings.map((f) => `${f.file}:${f.line} ${f.api}${f.parameter ? `(${f.parameter})` : ''}`);

describe('anachron check --diff', () => {
  test('after a commit that adds a line, --diff HEAD~1 reports only that line; the whole file still has both', () => {
    const dir = repository();
    appendFileSync(join(dir, 'a.py'), 'new = np.trapezoid([2])\n');
    git(dir, 'commit', '-q', '-am', 'second');
    assert.deepEqual(at(diffCheck(dir).findings), ['a.py:2 numpy.trapezoid', 'a.py:3 numpy.trapezoid']);
    const r = diffCheck(dir, '--diff', 'HEAD~1');
    assert.equal(r.code, 1);
    assert.deepEqual(at(r.findings), ['a.py:3 numpy.trapezoid']);
    const sha = git(dir, 'rev-parse', 'HEAD~1').trim();
    assert.deepEqual(at(diffCheck(dir, '--diff', sha).findings), ['a.py:3 numpy.trapezoid']);
    const clean = runCli(['check', '--diff', 'HEAD'], dir);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /No anachronisms on lines changed since HEAD \(0 changed files\)\./);
  });

  test('the working tree counts: unstaged and staged edits, changed lines and untracked files', () => {
    const dir = repository();
    write(dir, {
      'a.py': 'import numpy as np\nold = np.trapezoid([1])\nedited = np.unique([1.0], equal_nan=True)\n',
      'pkg/new.py': 'import numpy as np\nfresh = np.trapezoid([3])\n',
      'pkg/requirements.txt': 'numpy==1.19.5\n',
    });
    git(dir, 'add', 'pkg/requirements.txt');
    const r = diffCheck(dir, '--diff', 'HEAD');
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(at(r.findings), ['pkg/new.py:2 numpy.trapezoid']);
    // equal_nan exists in numpy 1.24.2, so a.py's new line is clean; pin a.py back to 1.19.5 and it is not.
    const old = diffCheck(dir, '--diff', 'HEAD', '--pin', 'numpy==1.19.5');
    assert.deepEqual(at(old.findings), ['a.py:3 numpy.unique(equal_nan)', 'pkg/new.py:2 numpy.trapezoid']);
    // Staging changes nothing: git diff REV compares with the working tree.
    git(dir, 'add', 'a.py');
    assert.deepEqual(at(diffCheck(dir, '--diff', 'HEAD', '--pin', 'numpy==1.19.5').findings), at(old.findings));
  });

  test('a changed line counts; an unchanged line next to it does not; paths limit what is checked', () => {
    const dir = repository();
    write(dir, { 'a.py': 'import numpy as np\nold = np.trapezoid([1, 2])\n', 'b.py': 'import numpy as np\nx = np.trapezoid([1])\n' });
    assert.deepEqual(at(diffCheck(dir, '--diff', 'HEAD').findings), ['a.py:2 numpy.trapezoid', 'b.py:2 numpy.trapezoid']);
    assert.deepEqual(at(diffCheck(dir, 'a.py', '--diff', 'HEAD').findings), ['a.py:2 numpy.trapezoid']);
    write(dir, { 'a.py': 'import numpy as np\nold = np.trapezoid([1])\nprint(old)\n' });
    assert.deepEqual(at(diffCheck(dir, 'a.py', '--diff', 'HEAD').findings), []);
  });

  test('a file moved without changes brings no findings; ignored files are not part of the change', () => {
    const dir = repository();
    git(dir, 'mv', 'a.py', 'moved.py');
    write(dir, { '.gitignore': 'scratch/\n', 'scratch/tmp.py': 'import numpy as np\nnp.trapezoid([1])\n' });
    const r = diffCheck(dir, '--diff', 'HEAD');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.findings, []);
  });

  test('from a subfolder, with text and SARIF output', () => {
    const dir = repository();
    write(dir, { 'pkg/b.py': 'import numpy as np\nx = np.trapezoid([1])\n' });
    const text = runCli(['check', '--diff', 'HEAD'], join(dir, 'pkg'));
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /^b\.py:2:5: error \[anachronistic-api\]/m);
    assert.match(text.stdout, /1 finding on lines changed since HEAD, in 1 of 1 changed file\./);
    const sarif = runCli(['check', '--diff', 'HEAD', '--format', 'sarif'], join(dir, 'pkg'));
    const log = JSON.parse(sarif.stdout) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    assert.deepEqual(log.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri), ['pkg/b.py']);
  });

  test('errors: not a repository, unknown revision, no revision (exit code 2)', () => {
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'anachron-nogit-')));
    write(plain, { 'a.py': 'import numpy as np\n' });
    const notRepo = runCli(['check', '--diff', 'HEAD'], plain, { GIT_CEILING_DIRECTORIES: dirname(plain) });
    assert.equal(notRepo.code, 2);
    assert.match(notRepo.stderr, /^anachron: not in a git repository/m);
    assert.equal(notRepo.stdout, '');

    const dir = repository();
    const cases: [string[], RegExp][] = [
      [['check', '--diff', 'no-such-branch'], /unknown revision "no-such-branch"/],
      [['check', '--diff', 'HEAD~5'], /unknown revision "HEAD~5"/],
      [['check', '--diff=-p'], /"-p" is not a revision/],
      [['check', '--diff='], /--diff needs a revision/],
      [['check', '--diff'], /argument missing/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, dir);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.equal(r.stdout, '', args.join(' '));
    }
  });
});
