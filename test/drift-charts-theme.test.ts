// The drift suite's charts follow the report page's theme: each figure's background and every text is drawn in an ink
// the page maps to the editor's colours (test/support/chart-inks.ts), on a small run with every figure populated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fidelitySvg, forwardDropSvg, heatmapSvg, passAtKScatterSvg, repairSvg, taxonomySvg } from '../server/src/eval/drift/charts.js';
import type { ExecutionFact, Outcome, RepairCase } from '../server/src/eval/drift/metrics.js';
import { aggregateDrift } from '../server/src/eval/drift/report.js';
import { assertThemedInks } from './support/chart-inks.js';

const VERSIONS = ['1.0', '2.0'];

function execution(sample: number, prompted: string, environment: string, outcome: Outcome): ExecutionFact {
  return { sampleId: `t-${prompted}-${sample}`, library: 'lib', taskId: 't', category: 'arrays', prompted, environment, outcome, errorType: outcome === 'hard-fail' ? 'AttributeError' : null };
}

const executions: ExecutionFact[] = VERSIONS.flatMap((prompted) =>
  [0, 1].flatMap((sample) => VERSIONS.map((environment) => execution(sample, prompted, environment, prompted === environment || sample === 0 ? 'pass' : 'hard-fail'))),
);
const repairs: RepairCase[] = [{ library: 'lib', sampleId: 't-1.0-1', taskId: 't', category: 'arrays', prompted: '1.0', target: '2.0', rounds: [{ round: 1, outcome: 'pass', errorType: null }], modelFailed: false }];
const counts = { samples: 4, answered: 4, modelFailures: 0, pending: 0, noCode: 0 };
const run = aggregateDrift(
  { executions, repairs, generations: counts },
  { label: 'run', name: null, identity: 'x', model: 'm', shard: null, mergedFrom: null },
  { samplesPerPrompt: 2, timeoutMs: 1000, repairRounds: 1, migrationNotes: false, temperature: 0, maxTokens: 100 },
  { lib: VERSIONS },
);

test('the drift figures draw their background and every text in inks the report page themes', () => {
  const figures = {
    heatmap: heatmapSvg([run]),
    fidelity: fidelitySvg([run], 'lib'),
    forwardDrop: forwardDropSvg([run]),
    taxonomy: taxonomySvg([run]),
    repair: repairSvg([run]),
    passAtK: passAtKScatterSvg([run]),
  };
  for (const [name, svg] of Object.entries(figures)) {
    assert.doesNotMatch(svg, /nothing executed|no repair|no version has|Pass@k needs/, `${name}: drawn, not empty`);
    assertThemedInks(svg, name);
  }
});
