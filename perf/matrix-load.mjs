// Time to open every bundled matrix the way the server does (medians over repeated runs in fresh processes).
// Usage: node perf/matrix-load.mjs [RUNS]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 10);
const probe = `
const { openMatrixCatalog } = require(${JSON.stringify(join(root, 'dist', 'perf-api.js'))});
const t = process.hrtime.bigint();
const c = openMatrixCatalog(${JSON.stringify(join(root, 'matrices'))});
const ms = Number(process.hrtime.bigint() - t) / 1e6;
console.log(JSON.stringify({ ms, libraries: c.matrices.map((m) => m.library + ' (' + m.versions.length + ')'), problems: c.problems }));
`;
const times = [];
let last;
for (let i = 0; i < runs; i++) {
  const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  last = JSON.parse(r.stdout);
  times.push(last.ms);
}
times.sort((a, b) => a - b);
console.log(`open all matrices (${last.libraries.join(', ')}): median ${times[Math.floor(runs / 2)].toFixed(1)} ms, max ${times[runs - 1].toFixed(1)} ms over ${runs} runs`);
if (last.problems.length) console.log('problems:', last.problems);
