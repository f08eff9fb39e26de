// Whole-repository check time, anachron against pyright, on the same real code in the same run (medians, ratio).
// The code: a release tag of a library's own repository (tests and benchmarks), extracted from a bare git mirror.
// pyright is installed into a scratch folder from the npm registry on first use.
// Usage: node perf/vs-pyright.mjs REPO TAG PIN [RUNS] [--under FOLDER/]
//   e.g. node perf/vs-pyright.mjs path/to/numpy-clone v2.2.4 numpy==2.2.4 3 --under benchmarks/
// --under keeps one folder of the tree (a whole suite, e.g. benchmarks/): pyright needs minutes per run on all tests.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const underAt = argv.indexOf('--under');
const under = underAt >= 0 ? argv.splice(underAt, 2)[1] : null;
const [repo, tag, pin, runsArg] = argv;
if (!repo || !tag || !pin) {
  console.error('usage: node perf/vs-pyright.mjs REPO TAG PIN [RUNS]');
  process.exit(2);
}
const runs = Number(runsArg ?? 3);
const pyrightHome = join(tmpdir(), 'anachron-bench-pyright');
const pyright = join(pyrightHome, 'node_modules', '.bin', 'pyright');
if (!existsSync(pyright)) {
  mkdirSync(pyrightHome, { recursive: true });
  execFileSync('npm', ['install', '--prefix', pyrightHome, '--no-audit', '--no-fund', 'pyright@1.1.414'], { stdio: 'inherit' });
}

const work = mkdtempSync(join(tmpdir(), 'anachron-vs-pyright-'));
const files = execFileSync('git', ['--git-dir', repo, 'ls-tree', '-r', '--name-only', tag], { encoding: 'utf8', maxBuffer: 1 << 28 })
  .split('\n')
  .filter((f) => f.endsWith('.py') && (f.startsWith('benchmarks/') || /\/tests\/test_[^/]+\.py$/.test(f)))
  .filter((f) => under === null || f.startsWith(under));
let lines = 0;
for (const f of files) {
  let text;
  try {
    text = execFileSync('git', ['--git-dir', repo, 'show', `${tag}:${f}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch {
    continue;
  }
  mkdirSync(join(work, dirname(f)), { recursive: true });
  writeFileSync(join(work, f), text);
  lines += text.split('\n').length;
}
writeFileSync(join(work, 'requirements.txt'), `${pin}\n`);
writeFileSync(join(work, 'pyrightconfig.json'), JSON.stringify({ include: ['.'], typeCheckingMode: 'basic' }));

function time(cmd, args) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { cwd: work, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.error) throw r.error;
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const anachron = time(process.execPath, [join(root, 'bin', 'anachron.js'), 'check', '.', '--format', 'json']);
const py = time(pyright, ['--outputjson', '.']);
console.log(`${files.length} files, ${lines} lines of ${tag} (${under ?? 'tests + benchmarks'}), pinned ${pin}:`);
console.log(`  anachron check: median ${anachron.toFixed(0)} ms; pyright: median ${py.toFixed(0)} ms over ${runs} runs; pyright/anachron = ${(py / anachron).toFixed(1)}x`);
