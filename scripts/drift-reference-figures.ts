// The drift suite's reference-model figures derived from the task validation (tasks/drift/README.md), under the
// paper's soft-fail rule, without running a model: the reference models are deterministic, so a version-aware sample
// prompted for s is the solution for s (the bold outcome in column s) and a version-oblivious one the newest solution
// (the first), and each of their executions in environment t is that solution's validated outcome there. Prints, per
// library and model, mean fidelity (the mean of the diagonal cells) with the pooled executions' Wilson interval and
// the interval clustered by task (issue 22, points 10 and 11), forward and backward compatibility.
// Usage: node --import tsx scripts/drift-reference-figures.ts [SAMPLES_PER_PROMPT=3] [LIBRARY…]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { driftMatrix, type CellMean, type ExecutionFact, type Outcome } from '../server/src/eval/drift/metrics.js';

const samples = Number(process.argv[2] ?? 3);
const wanted = process.argv.slice(3);
const readme = readFileSync(path.join(__dirname, '..', 'tasks', 'drift', 'README.md'), 'utf8');

/** A validated outcome under the paper's rule: ⚠D and ⚠L soft-fail, ⚠F and ⚠P pass (another warning class). */
function outcomeOf(token: string): Outcome {
  const t = token.replace(/\*/g, '');
  if (t === '✓' || t === '⚠F' || t === '⚠P') return 'pass';
  if (t === '⚠D' || t === '⚠L') return 'soft-fail';
  if (t === '⏱') return 'timeout';
  if (t.startsWith('✗')) return 'hard-fail';
  throw new Error(`unknown outcome ${token}`);
}

function factsOf(library: string, block: string, model: 'aware' | 'oblivious'): { versions: string[]; facts: ExecutionFact[] } {
  const header = block.split('\n').find((l) => l.startsWith('| task |'))!;
  const versions = header.split('|').slice(4, -1).map((c) => c.trim().split(' ').at(-1)!);
  const facts: ExecutionFact[] = [];
  for (const line of block.split('\n').filter((l) => l.startsWith(`| \`${library}/`))) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const taskId = cells[0]!.replace(/`/g, '');
    const outcomes = cells.slice(3).map((c) => c.split(/\s+/));
    versions.forEach((prompted, s) => {
      const solution = model === 'oblivious' ? 0 : outcomes[s]!.findIndex((t) => t.startsWith('**'));
      versions.forEach((environment, t) => {
        const outcome = outcomeOf(outcomes[t]![solution]!);
        for (let i = 0; i < samples; i++) facts.push({ sampleId: `${taskId}@${prompted}#${i}`, library, taskId, category: cells[1]!, prompted, environment, outcome, errorType: outcome === 'hard-fail' ? 'Error' : null });
      });
    });
  }
  return { versions, facts };
}

const pc = (x: number) => (100 * x).toFixed(1);
const interval = (ci: [number, number] | null | undefined) => (ci ? `[${pc(ci[0])}, ${pc(ci[1])}]` : '–');
const describe = (m: CellMean) => `${pc(m.value!)} pooled ${interval(m.pooled.ci)} (${m.pooled.n} executions), by task ${interval(m.byTask?.ci)} (${m.byTask?.tasks} tasks, n_eff ${m.byTask?.effectiveN.toFixed(1)})`;

for (const [, library, block] of readme.matchAll(/<!-- validation:(\w+):begin -->([\s\S]*?)<!-- validation:\1:end -->/g)) {
  if (wanted.length > 0 && !wanted.includes(library!)) continue;
  for (const model of ['aware', 'oblivious'] as const) {
    const { versions, facts } = factsOf(library!, block!, model);
    const m = driftMatrix(library!, facts, { versions });
    console.log(`${library} version-${model}, ${samples} samples a prompt: mean fidelity ${describe(m.meanFidelity)}; forward ${describe(m.forward)}; backward ${describe(m.backward)}`);
  }
}
