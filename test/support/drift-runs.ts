// The gated drift tests' common step: both built-in reference models through the bundled CLI's `bench run`, one run
// folder each under `dir`, their results.json read back, the run's summary lines shown.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriftResults } from '../../server/src/eval/drift/report.js';
import { runCli } from './cli.js';

export const REFERENCE_MODELS = ['version-aware', 'version-oblivious'] as const;

/** Runs each reference model with the config `configFor(model)` gives; returns the results per model. */
export function runReferenceModels(dir: string, configFor: (model: string) => Record<string, unknown>): Record<string, DriftResults> {
  const results: Record<string, DriftResults> = {};
  for (const model of REFERENCE_MODELS) {
    const file = join(dir, `${model}.json`);
    writeFileSync(file, JSON.stringify(configFor(model)));
    const r = runCli(['bench', 'run', file, '--out', join(dir, model), '--quiet']);
    assert.equal(r.code, 0, `${model}: ${r.stderr}\n${r.stdout}`);
    process.stderr.write(r.stdout.split('\n').filter((l) => l.startsWith('run:') || l.startsWith('drift ')).map((l) => `  ${model}: ${l}\n`).join(''));
    results[model] = JSON.parse(readFileSync(join(dir, model, 'results.json'), 'utf8')) as DriftResults;
  }
  return results;
}

/** D[s][t] of a run's first library: Pass@1 per cell, null where nothing ran. */
export function passMatrix(results: DriftResults): (number | null)[][] {
  return results.results[0]!.matrix.cells.map((row) => row.map((c) => c?.pass.value ?? null));
}
