// Whole-repository check speed on a library's own code at a release tag, in one run (issue 21's figures):
//   1. `anachron check` on its tests + benchmarks: lines per second, with the default threads and with --jobs 1;
//   2. `anachron check` against pyright on one folder of it (benchmarks/): wall-time ratio.
// Every time is a hyperfine median (hyperfine must be on PATH); the machine's load is printed before and after, and
// each ratio is of commands timed in the same hyperfine run. The default run's output is compared with --jobs 1's,
// byte for byte, before anything is timed: a thread count must not change what is reported.
// pyright is installed into a scratch folder from the npm registry on first use; it is not a dependency.
// Usage: node perf/vs-pyright.mjs GIT_DIR [--tag v2.0.0] [--pin numpy==2.0.0] [--runs 5] [--pyright-on benchmarks/]
//                                [--scope tests|all] [--pyright PATH] [--with GIT_DIR --with-tag TAG --with-pin PIN]
//   GIT_DIR: a bare mirror or a clone's .git of the library's repository (e.g. numpy's).
//   --with: a second library whose files in the same scope join figure 1, in a folder of their own (with/) pinned by
//     --pin and --with-pin (numpy's tests + benchmarks are at most ~133k lines at any tag; with scipy's, more).
//   --pyright PATH: a pyright to use (else pyright@1.1.414 is installed into TMPDIR/anachron-bench-pyright).
//   --scope tests (default): every .py under benchmarks/ and any tests/ folder; all: every .py file of the tag.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOption } from './options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const tag = takeOption(args, '--tag', 'v2.0.0');
const pin = takeOption(args, '--pin', `numpy==${tag.replace(/^v/, '')}`);
const runs = Number(takeOption(args, '--runs', '5'));
const pyrightOn = takeOption(args, '--pyright-on', 'benchmarks/');
const scope = takeOption(args, '--scope', 'tests');
const givenPyright = takeOption(args, '--pyright', undefined);
const withGitDir = takeOption(args, '--with', undefined);
const withTag = takeOption(args, '--with-tag', undefined);
const withPin = takeOption(args, '--with-pin', undefined);
const [gitDir] = args;
if (!gitDir || !Number.isInteger(runs) || runs < 1 || !['tests', 'all'].includes(scope) || (withGitDir !== undefined && (!withTag || !withPin))) {
  console.error('usage: node perf/vs-pyright.mjs GIT_DIR [--tag TAG] [--pin LIB==VERSION] [--runs N] [--pyright-on FOLDER/] [--scope tests|all] [--with GIT_DIR --with-tag TAG --with-pin LIB==VERSION]');
  process.exit(2);
}
if (spawnSync('hyperfine', ['--version']).error) {
  console.error('hyperfine is not on PATH (apt-get install hyperfine, or cargo install hyperfine)');
  process.exit(2);
}

const pyrightHome = join(tmpdir(), 'anachron-bench-pyright');
const pyright = givenPyright ?? join(pyrightHome, 'node_modules', '.bin', 'pyright');
if (!existsSync(pyright)) {
  mkdirSync(pyrightHome, { recursive: true });
  execFileSync('npm', ['install', '--prefix', pyrightHome, '--no-audit', '--no-fund', 'pyright@1.1.414'], { stdio: 'inherit' });
}

/** The Python files of `repo` at `at` that `keep` selects, written under `into`; their count and lines. */
function extractInto(into, repo, at, keep) {
  const files = execFileSync('git', ['--git-dir', repo, 'ls-tree', '-r', '--name-only', at], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .filter((f) => f.endsWith('.py') && keep(f));
  if (files.length === 0) throw new Error(`no Python files of ${at} in ${repo} to take`);
  mkdirSync(into, { recursive: true });
  // One archive for all of them: a `git show` per file would take longer than the checks.
  const archive = spawnSync('git', ['--git-dir', repo, 'archive', '--format=tar', at, '--', ...files], { maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', into], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  let lines = 0;
  for (const f of files) lines += readFileSync(join(into, f), 'utf8').split('\n').length;
  return { files: files.length, lines };
}

/** The tag's Python files that `keep` selects (and with --with, the second library's in with/), under a fresh folder with the pins. */
function extract(keep, name, withSecond = false) {
  const dir = mkdtempSync(join(tmpdir(), `anachron-vs-pyright-${name}-`));
  const own = extractInto(dir, gitDir, tag, keep);
  writeFileSync(join(dir, 'requirements.txt'), `${pin}\n`);
  writeFileSync(join(dir, 'pyrightconfig.json'), JSON.stringify({ include: ['.'], typeCheckingMode: 'basic' }));
  if (!withSecond || !withGitDir) return { dir, ...own };
  const second = extractInto(join(dir, 'with'), withGitDir, withTag, keep);
  writeFileSync(join(dir, 'with', 'requirements.txt'), `${pin}\n${withPin}\n`);
  return { dir, files: own.files + second.files, lines: own.lines + second.lines, own, second };
}

const inScope = scope === 'all' ? () => true : (f) => f.startsWith('benchmarks/') || /(^|\/)tests\//.test(f);
const whole = extract(inScope, scope, true);
const folder = extract((f) => f.startsWith(pyrightOn), 'folder');
const cli = join(root, 'bin', 'anachron.js');
const pyrightVersion = execFileSync(pyright, ['--version'], { encoding: 'utf8' }).trim();
const check = (extra = '') => `${process.execPath} ${cli} check . --format json${extra}`;

// The default run (threads from the input's size and the cores) must print what one thread prints.
const output = (extra) => {
  const r = spawnSync(process.execPath, [cli, 'check', '.', '--format', 'json', ...extra], { cwd: whole.dir, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`anachron check ${extra.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout + r.stderr;
};
const single = output(['--jobs', '1']);
const identical = single === output([]);
if (!identical) {
  console.error('the default run printed something else than --jobs 1 (output differs): no figures');
  process.exit(1);
}

/** hyperfine's figures for the commands, run in `cwd` in one hyperfine run: median wall, mean user and system (s). */
function hyperfine(cwd, commands) {
  const out = join(mkdtempSync(join(tmpdir(), 'anachron-hyperfine-')), 'times.json');
  const r = spawnSync('hyperfine', ['-N', '-i', '--warmup', '1', '--runs', String(runs), '--style', 'none', '--export-json', out, ...commands], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hyperfine: ${r.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')).results.map((x) => ({ median: x.median, user: x.user, system: x.system }));
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
const loadBefore = load();
const [threaded, oneThread] = hyperfine(whole.dir, [check(), check(' --jobs 1')]);
const [ours, theirs] = hyperfine(folder.dir, [check(), `${pyright} --outputjson .`]);
const loadAfter = load();

const s = (x) => `${x.toFixed(2)} s`;
const cpu = (x) => `${s(x.user + x.system)} CPU`;
console.log(`${tag}, pinned ${pin}; ${availableParallelism()} cores; load average (1/5/15 min) ${loadBefore} before, ${loadAfter} after; hyperfine medians of ${runs} runs`);
const parts = whole.second ? ` (${tag}: ${whole.own.files} files, ${whole.own.lines} lines; with ${withTag} of ${withGitDir}, pinned ${withPin}: ${whole.second.files} files, ${whole.second.lines} lines)` : '';
console.log(`1. anachron check, ${scope === 'all' ? 'every Python file' : 'tests + benchmarks'}: ${whole.files} files, ${whole.lines} lines${parts}; output of the default threads = --jobs 1: ${identical}`);
console.log(`   default threads: ${s(threaded.median)} (${cpu(threaded)}) = ${Math.round(whole.lines / threaded.median)} lines/s`);
console.log(`   --jobs 1:        ${s(oneThread.median)} (${cpu(oneThread)}) = ${Math.round(whole.lines / oneThread.median)} lines/s; threads speed-up ${(oneThread.median / threaded.median).toFixed(2)}x`);
console.log(`2. ${pyrightOn}: ${folder.files} files, ${folder.lines} lines`);
console.log(`   anachron check: ${s(ours.median)} (${cpu(ours)}); ${pyrightVersion}: ${s(theirs.median)} (${cpu(theirs)})`);
console.log(`   anachron/pyright wall time = ${(ours.median / theirs.median).toFixed(3)}x (CPU ${((ours.user + ours.system) / (theirs.user + theirs.system)).toFixed(3)}x)`);
