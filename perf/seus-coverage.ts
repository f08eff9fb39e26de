// Coverage of the SEUS bootstrap interval where the true SEUS is known (issue 22, point 7). Each case fixes the true
// stable and evolving success rates per version (and an anachronism rate), draws DATASETS datasets of answers from
// them with a seeded generator (mulberry32), scores each with computeSeus (REPLICATES bootstrap resamples) and
// prints, per Std estimator ('paper', 'bias-corrected'): the estimate's mean bias, the share of datasets whose 95%
// interval covers the truth (it should be ~95%), its mean width and how often it was clipped to SEUS's range; then
// the same for the other interval of the same replicates (the reflection about the estimate: percentile for paper,
// basic for bias-corrected), to show why each estimator has the interval it has.
// Usage: node --import tsx perf/seus-coverage.ts [DATASETS=1000] [REPLICATES=400]
import { seededRandom } from '../server/src/core/random.js';
import { populationStd } from '../server/src/eval/libevobench/scoring/bootstrap.js';
import { computeSeus, seusRange } from '../server/src/eval/libevobench/scoring/seus.js';
import { DEFAULT_SCORING_OPTIONS, STD_ESTIMATORS, type PredictionRecord } from '../server/src/eval/libevobench/scoring/types.js';

interface Case {
  name: string;
  stable: number[];
  evolving: number[];
  nStable: number;
  nEvolving: number;
  /** Share of wrong evolving answers that are anachronistic. */
  anachronisticWrong: number;
  /** Each score is the mean of this many Bernoulli draws (1: exact match; 3: an F1-like score in thirds). */
  parts: number;
}

const CASES: Case[] = [
  { name: 'flat E, n 30/40', stable: [0.8, 0.8, 0.8, 0.8], evolving: [0.6, 0.6, 0.6, 0.6], nStable: 30, nEvolving: 40, anachronisticWrong: 0, parts: 1 },
  { name: 'E varies, n 30/40', stable: [0.8, 0.8, 0.8, 0.8], evolving: [0.45, 0.55, 0.65, 0.75], nStable: 30, nEvolving: 40, anachronisticWrong: 0, parts: 1 },
  { name: 'flat E, n 10/10', stable: [0.8, 0.8, 0.8, 0.8], evolving: [0.6, 0.6, 0.6, 0.6], nStable: 10, nEvolving: 10, anachronisticWrong: 0, parts: 1 },
  { name: 'near ceiling, n 30/40', stable: [0.98, 0.98, 0.98, 0.98], evolving: [0.95, 0.95, 0.95, 0.95], nStable: 30, nEvolving: 40, anachronisticWrong: 0, parts: 1 },
  { name: 'thirds, anachronism', stable: [0.7, 0.75, 0.8, 0.85], evolving: [0.5, 0.5, 0.6, 0.6], nStable: 30, nEvolving: 40, anachronisticWrong: 0.3, parts: 3 },
  { name: '8 versions, n 20/20', stable: Array(8).fill(0.8), evolving: [0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.7], nStable: 20, nEvolving: 20, anachronisticWrong: 0.2, parts: 1 },
];

const datasets = Number(process.argv[2] ?? 1000);
const replicates = Number(process.argv[3] ?? 400);
const { lambda, gamma } = DEFAULT_SCORING_OPTIONS;

function truthOf(c: Case): number {
  const balanced = c.stable.map((s, i) => (2 * s * c.evolving[i]!) / (s + c.evolving[i]!));
  const evolvingMean = c.evolving.reduce((a, b) => a + b, 0) / c.evolving.length;
  // The anachronism rate is pooled over evolving samples (one classified prediction each).
  const anachronism = (1 - evolvingMean) * c.anachronisticWrong;
  return balanced.reduce((a, b) => a + b, 0) / balanced.length - lambda * populationStd(c.evolving)! - gamma * anachronism;
}

let id = 0;
function record(version: string, group: 'stable' | 'evolving', score: number, anachronistic: boolean): PredictionRecord {
  id++;
  return {
    id: `s${id}`, ordinal: id, task: 'API-I', level: null, unit: 'API-I', library: 'sim', version, api: 'sim.f', group, status: 'answered', prompt: [], response: 'x',
    prediction: null, groundTruth: null, expected: { api: 'sim.f', accepted: ['sim.f'], keys: null, callee: null }, failure: null,
    scores: { exact: score }, score, taxonomy: group === 'evolving' ? { api: anachronistic ? 'anachronistic' : 'invalid', parameters: null } : null,
  };
}

function dataset(c: Case, draw: () => number): PredictionRecord[] {
  const out: PredictionRecord[] = [];
  const score = (p: number) => {
    let s = 0;
    for (let k = 0; k < c.parts; k++) s += draw() < p ? 1 : 0;
    return s / c.parts;
  };
  c.stable.forEach((p, v) => {
    for (let j = 0; j < c.nStable; j++) out.push(record(`${v + 1}.0`, 'stable', score(p), false));
  });
  c.evolving.forEach((p, v) => {
    for (let j = 0; j < c.nEvolving; j++) {
      const s = score(p);
      out.push(record(`${v + 1}.0`, 'evolving', s, s < 1 && draw() < c.anachronisticWrong * (1 - s)));
    }
  });
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const pts = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(2)}`;
const [lower, upper] = seusRange(lambda, gamma);
console.log(`${datasets} datasets x ${replicates} replicates per case; lambda ${lambda}, gamma ${gamma}; figures in SEUS points (x100)`);
console.log('case | true SEUS | std | bias | interval used: covers, width, clipped | the other interval: covers, width');
for (const c of CASES) {
  const truth = truthOf(c);
  for (const std of STD_ESTIMATORS) {
    // The same datasets for both estimators: one generator per case.
    const draw = seededRandom(CASES.indexOf(c) + 1);
    let bias = 0;
    let covers = 0;
    let width = 0;
    let clipped = 0;
    let other = 0;
    let otherWidth = 0;
    for (let d = 0; d < datasets; d++) {
      const seus = computeSeus(dataset(c, draw), { ...DEFAULT_SCORING_OPTIONS, bootstrap: replicates, seed: d + 1, std });
      const v = seus.value!;
      const [lo, hi] = seus.ci!;
      bias += v - truth;
      if (lo <= truth && truth <= hi) covers++;
      width += hi - lo;
      if (hi >= upper || lo <= lower) clipped++;
      // The other interval of the same replicates: the one used reflected about the estimate (exact when unclipped).
      const [olo, ohi] = [2 * v - hi, 2 * v - lo];
      if (olo <= truth && truth <= ohi) other++;
      otherWidth += ohi - olo;
    }
    console.log(
      `${c.name} | ${(100 * truth).toFixed(2)} | ${std} | ${pts(bias / datasets)} | ${pct(covers / datasets)}, ${(100 * width / datasets).toFixed(2)}, ${pct(clipped / datasets)} | ${pct(other / datasets)}, ${(100 * otherWidth / datasets).toFixed(2)}`,
    );
  }
}
