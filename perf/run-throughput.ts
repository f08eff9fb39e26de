// Harness overhead of benchmark runs: samples/s through the whole run path (selection, run database, runner, the
// OpenAI-compatible client, the local HTTP server) with a trivial model and no faults, median of several runs; and the
// same without HTTP (built-in model called in-process) to separate the store and runner from the transport.
// Usage: node --import tsx perf/run-throughput.ts [SAMPLES=5000] [RUNS=5] [CONCURRENCY=32]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunConfig } from '../server/src/eval/suites.js';
import { executeRun } from '../server/src/eval/libevobench/run.js';
import { syntheticSamples } from '../server/src/eval/libevobench/synthetic.js';

async function main(): Promise<void> {
  const samples = Number(process.argv[2] ?? 5000);
  const runs = Number(process.argv[3] ?? 5);
  const concurrency = Number(process.argv[4] ?? 32);
  const dataset = syntheticSamples(samples);
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-run-'));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  try {
    for (const transport of ['http', 'direct'] as const) {
      const rates: number[] = [];
      for (let i = 0; i < runs; i++) {
        const config: RunConfig = {
          suite: 'synthetic', libraries: ['synthlib'], tasks: ['API-C', 'API-I', 'SR'], levels: ['L0', 'L1', 'L2', 'L3'], seed: 1, concurrency,
          model: { provider: 'builtin', model: 'constant', transport },
        };
        const database = join(dir, `${transport}-${i}.sqlite`);
        const t = performance.now();
        const summary = await executeRun({ config, database, dataset });
        const seconds = (performance.now() - t) / 1000;
        if (summary.answered !== samples) throw new Error(`expected ${samples} answered, got ${JSON.stringify(summary)}`);
        rates.push(samples / seconds);
        rmSync(database, { force: true });
      }
      const label = transport === 'http' ? 'through the local HTTP server' : 'in-process (no HTTP)';
      console.log(`harness ${label}: median ${median(rates).toFixed(0)} samples/s (min ${Math.min(...rates).toFixed(0)}, max ${Math.max(...rates).toFixed(0)}) over ${runs} runs of ${samples} samples, concurrency ${concurrency}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
