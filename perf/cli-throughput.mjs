// CLI throughput: checks a generated corpus of Python files that use numpy heavily.
// Usage: node perf/cli-throughput.mjs [FILES] [RUNS]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'anachron-corpus-'));
writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
const body = [
  'import numpy as np',
  'from numpy import linalg as la',
  'def f(x):',
  '    y = np.trapezoid(x, dx=2)',
  '    z = np.unique(x, equal_nan=True, return_counts=True)',
  '    w = la.norm(np.asarray(x), ord=2, axis=0)',
  '    return np.concatenate([y, z, w], axis=0, dtype=float)',
];
let lines = 0;
for (let i = 0; i < files; i++) {
  const text = Array.from({ length: 20 }, (_, k) => body.join('\n').replace('def f', `def f${k}`)).join('\n\n') + '\n';
  lines += text.split('\n').length;
  writeFileSync(join(dir, `m${i}.py`), text);
}
const times = [];
for (let r = 0; r < runs; r++) {
  const t = process.hrtime.bigint();
  const out = spawnSync(process.execPath, [join(root, 'bin', 'anachron.js'), 'check', '.', '--format', 'json'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (out.status !== 1) throw new Error(`unexpected exit ${out.status}: ${out.stderr}`);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`${files} files, ${lines} lines: median ${median.toFixed(0)} ms (${((lines / median) * 1000).toFixed(0)} lines/s), min ${times[0].toFixed(0)} ms over ${runs} runs`);
