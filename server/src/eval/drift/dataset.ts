// The drift suite's samples and the plan of a run, as plain data: the generation samples (n per prompt; a prompt is
// a task at one version), the repair cases due at each round (a sample that passes on its prompted version and fails
// on a newer one; then each attempt that still fails), the texts repair prompts quote (code, error), and the facts
// every figure is computed from. Pure: the run (run.ts) and the report (report.ts) do the I/O around it.
import { createHash } from 'node:crypto';
import type { BenchSample } from '../runs/samples.js';
import { canonicalJson } from '../runs/samples.js';
import { plainIdOf } from '../runs/arms.js';
import { compareVersions } from '../../core/versions.js';
import type { ExecutionFact, Outcome, RepairCase } from './metrics.js';
import type { ExecutionOutcome } from '../../environments/sandbox.js';
import { extractPythonCode, generationPrompt, type ExtractedCode } from './prompts.js';
import type { ReferenceTask } from './reference-models.js';
import type { ExecutionRecord } from './store.js';

/** What the suite needs of a task (the task files' format: tasks.ts). */
export interface DriftTaskInput extends ReferenceTask {
  category: string;
  /** Python source defining check(candidate). */
  harness: string;
  apis?: readonly string[];
}

export interface DriftTaskSetInput {
  /** Import name, as the prompts name it. */
  library: string;
  distribution?: string;
  tasks: readonly DriftTaskInput[];
}

/** The task column of the run store for drift samples (the store keeps LibEvoBench's task names otherwise). */
export const GENERATION_TASK = 'drift' as BenchSample['task'];
export const REPAIR_TASK = 'drift-repair' as BenchSample['task'];

export interface GenerationTruth {
  kind: 'generation';
  library: string;
  task: string;
  category: string;
  /** The prompted version. */
  version: string;
  /** 1..n within its prompt. */
  sample: number;
  entryPoint: string;
  /** The grounded arm (grounding.ts): absent on plain samples, which stay as they were before arms existed. */
  arm?: 'grounded';
  /**
   * Grounded samples: whether the task's code at this version differs from its code at the newest release (its
   * solutions), i.e. where a model that knows only the newest release goes wrong; null when the task cannot say.
   */
  drifted?: boolean | null;
}

export interface RepairTruth {
  kind: 'repair';
  library: string;
  task: string;
  category: string;
  /** The version the original sample was prompted for. */
  version: string;
  /** The version the repair must run on. */
  target: string;
  round: number;
  /** The generation sample this repair case started from. */
  generation: string;
  /** The sample whose code this round repairs: the generation sample at round 1, the previous round's after. */
  previous: string;
  entryPoint: string;
  /** Repairs of grounded samples (their prompts are the plain repair prompts: notes, no Documentation section). */
  arm?: 'grounded';
}

export type DriftTruth = GenerationTruth | RepairTruth;

export function truthOf(sample: Pick<BenchSample, 'groundTruth'>): DriftTruth | null {
  const t = sample.groundTruth as DriftTruth | null;
  return t && (t.kind === 'generation' || t.kind === 'repair') ? t : null;
}

export function generationId(library: string, task: string, version: string, sample: number): string {
  return `drift:${library}:${task}@${version}#${sample}`;
}

export function repairId(generation: string, target: string, round: number): string {
  return `repair:${generation}>${target}#${round}`;
}

/**
 * A digest of what the run's tasks say (prompts, harnesses, entry points, categories, solutions): part of its
 * identity. With the grounded arm also the APIs each task names, which its Documentation section looks up (runs
 * without it keep the digest they had before).
 */
export function tasksDigest(sets: readonly DriftTaskSetInput[], options: { apis?: boolean } = {}): string {
  const data = sets.map((s) => ({
    library: s.library,
    tasks: s.tasks.map((t) => ({ id: t.id, category: t.category, prompt: t.prompt, entryPoint: t.entryPoint, harness: t.harness, solutions: t.solutions, ...(options.apis ? { apis: t.apis ?? [] } : {}) })),
  }));
  return createHash('sha256').update(canonicalJson(data)).digest('hex').slice(0, 16);
}

/**
 * The generation samples, in a deterministic order that spreads a `limit` over the run: sample index, then task,
 * then version, per library in the config's order. So the first N samples cover every task and version once before
 * any prompt gets its second sample.
 */
export function generationSamples(sets: readonly DriftTaskSetInput[], versions: ReadonlyMap<string, readonly string[]>, samplesPerPrompt: number): BenchSample[] {
  const out: BenchSample[] = [];
  for (let i = 1; i <= samplesPerPrompt; i++) {
    for (const set of sets) {
      const vs = [...(versions.get(set.library) ?? [])].sort(compareVersions);
      for (const task of set.tasks) {
        for (const version of vs) {
          const truth: GenerationTruth = { kind: 'generation', library: set.library, task: task.id, category: task.category, version, sample: i, entryPoint: task.entryPoint };
          out.push({
            id: generationId(set.library, task.id, version, i),
            task: GENERATION_TASK,
            level: null,
            library: set.library,
            version,
            api: task.id,
            evolving: true,
            prompt: generationPrompt(task, set.library, version),
            groundTruth: truth,
          });
        }
      }
    }
  }
  return out;
}

export function executionKey(sampleId: string, environment: string): string {
  return `${sampleId}\u0000${environment}`;
}

// ---- repair planning ------------------------------------------------------------------------------------------------

export interface PlannedRepair {
  id: string;
  truth: RepairTruth;
}

/**
 * The repair cases due at `round`, from what is recorded: round 1 for each generation sample that passes on its
 * prompted version and fails (soft, hard or timeout) on a newer one it ran on; round r > 1 for each round r − 1
 * attempt that ran and did not pass. Ordered like the samples given.
 */
export function plannedRepairs(
  round: number,
  samples: readonly BenchSample[],
  executions: ReadonlyMap<string, Pick<ExecutionRecord, 'outcome'>>,
  versions: ReadonlyMap<string, readonly string[]>,
): PlannedRepair[] {
  const out: PlannedRepair[] = [];
  for (const s of samples) {
    const t = truthOf(s);
    if (!t) continue;
    if (round === 1 && t.kind === 'generation') {
      if (executions.get(executionKey(s.id, t.version))?.outcome !== 'pass') continue;
      const newer = [...(versions.get(t.library) ?? [])].filter((v) => compareVersions(v, t.version) > 0).sort(compareVersions);
      for (const target of newer) {
        const e = executions.get(executionKey(s.id, target));
        if (!e || e.outcome === 'pass') continue;
        const truth: RepairTruth = { kind: 'repair', library: t.library, task: t.task, category: t.category, version: t.version, target, round: 1, generation: s.id, previous: s.id, entryPoint: t.entryPoint, ...(t.arm ? { arm: t.arm } : {}) };
        out.push({ id: repairId(s.id, target, 1), truth });
      }
    } else if (round > 1 && t.kind === 'repair' && t.round === round - 1) {
      const e = executions.get(executionKey(s.id, t.target));
      if (!e || e.outcome === 'pass') continue;
      out.push({ id: repairId(t.generation, t.target, round), truth: { ...t, round, previous: s.id } });
    }
  }
  return out;
}

/**
 * The class of the first warning other than a DeprecationWarning that the library raised in a passing execution (the
 * sandbox records it, with its MRO, as a pass: quantum-api-drift §2.5 makes only DeprecationWarning a soft fail); for
 * the taxonomy's "Pass, other warning (CLASS)". Nothing for other outcomes, and for executions recorded before the
 * MRO was kept.
 */
export function otherWarningOf(e: { outcome: Outcome; warnings?: ExecutionRecord['warnings'] }): { warning?: string } {
  if (e.outcome !== 'pass') return {};
  const w = (e.warnings ?? []).find((x) => x.mro !== undefined && x.fromLibrary === true && x.caller !== 'harness' && x.deprecation === false);
  return w ? { warning: w.category } : {};
}

/** The error a repair prompt quotes for a failing execution. */
export function errorText(e: Pick<ExecutionRecord, 'outcome' | 'errorType' | 'message' | 'trace' | 'warnings'>, timeoutMs: number): string {
  switch (e.outcome) {
    case 'timeout':
      return `Timed out after ${Math.round(timeoutMs / 1000)} s${e.message ? `: ${e.message}` : ''}`;
    case 'soft-fail': {
      // The DeprecationWarnings that made it a soft fail (all of them for records from before the MRO was kept).
      const lines = e.warnings.filter((w) => w.deprecation !== false).map((w) => `${w.category}: ${w.message}${w.filename ? ` (${w.filename})` : ''}`);
      return ['The code passes its test but raises DeprecationWarnings from the library:', ...(lines.length ? lines : [e.message ?? ''])].join('\n');
    }
    case 'hard-fail':
      return (e.trace && e.trace.trim()) || `${e.errorType ?? 'Error'}: ${e.message ?? ''}`;
    case 'pass':
      return '';
  }
}

/** The code a sample's response gives (see extractPythonCode). */
export function codeOf(response: string, entryPoint: string): ReturnType<typeof extractPythonCode> {
  return extractPythonCode(response, entryPoint);
}

// ---- facts for the metrics ------------------------------------------------------------------------------------------

export type GenerationCounts = { samples: number; answered: number; modelFailures: number; pending: number; noCode: number };

export interface DriftFacts {
  executions: ExecutionFact[];
  repairs: RepairCase[];
  /** Generation samples: in the run, answered, failed at the model, pending (both arms together). */
  generations: GenerationCounts;
  /**
   * Runs with grounded samples: the counts per arm, and the plain samples without a grounded twin (the tool had
   * nothing to look up for their task).
   */
  arms?: { plain: GenerationCounts; grounded: GenerationCounts; ungrounded: number };
}

/**
 * The facts every figure is computed from, from the run database's plain content: its samples (with their records'
 * status) and its executions. Generation samples that failed at the model are counted apart (F.5) and run nowhere.
 */
export function driftFacts(
  samples: readonly { sample: BenchSample; status: 'answered' | 'failed' | null }[],
  executions: readonly (Pick<ExecutionRecord, 'sampleId' | 'environment' | 'outcome' | 'errorType' | 'extraction'> & { warnings?: ExecutionRecord['warnings'] })[],
): DriftFacts {
  const byKey = new Map(executions.map((e) => [executionKey(e.sampleId, e.environment), e] as const));
  const bySample = new Map<string, typeof executions[number][]>();
  for (const e of executions) {
    const list = bySample.get(e.sampleId);
    if (list) list.push(e);
    else bySample.set(e.sampleId, [e]);
  }
  const facts: ExecutionFact[] = [];
  const zero = (): GenerationCounts => ({ samples: 0, answered: 0, modelFailures: 0, pending: 0, noCode: 0 });
  const counts = zero();
  const byArm = { plain: zero(), grounded: zero() };
  const plainIds = new Set<string>();
  const twinned = new Set<string>();
  const repairSamples = new Map<string, { truth: RepairTruth; status: 'answered' | 'failed' | null; id: string }[]>();
  for (const { sample, status } of samples) {
    const t = truthOf(sample);
    if (!t) continue;
    if (t.kind === 'repair') {
      const key = `${t.generation}\u0000${t.target}`;
      const list = repairSamples.get(key) ?? [];
      list.push({ truth: t, status, id: sample.id });
      repairSamples.set(key, list);
      continue;
    }
    const runs = bySample.get(sample.id) ?? [];
    for (const c of [counts, t.arm === 'grounded' ? byArm.grounded : byArm.plain]) {
      c.samples++;
      if (status === 'answered') c.answered++;
      else if (status === 'failed') c.modelFailures++;
      else c.pending++;
      if (runs.some((e) => e.extraction === 'empty')) c.noCode++;
    }
    if (t.arm === 'grounded') twinned.add(plainIdOf(sample.id));
    else plainIds.add(sample.id);
    // Only grounded facts carry their arm (and whether the prompt drifted): plain facts stay as they were.
    const arm = t.arm === 'grounded' ? { arm: 'grounded' as const, drifted: t.drifted ?? null } : {};
    for (const e of runs) facts.push({ sampleId: sample.id, library: t.library, taskId: t.task, category: t.category, prompted: t.version, environment: e.environment, outcome: e.outcome, errorType: e.errorType, ...otherWarningOf(e), ...arm });
  }
  const repairs: RepairCase[] = [];
  for (const list of repairSamples.values()) {
    list.sort((a, b) => a.truth.round - b.truth.round);
    const first = list[0]!.truth;
    const rounds: RepairCase['rounds'] = [];
    let modelFailed = false;
    for (const r of list) {
      if (r.status === 'failed') {
        modelFailed = true;
        break;
      }
      const e = byKey.get(executionKey(r.id, r.truth.target));
      if (!e) break;
      rounds.push({ round: r.truth.round, outcome: e.outcome as Outcome, errorType: e.errorType });
      if (e.outcome === 'pass') break;
    }
    repairs.push({ library: first.library, sampleId: first.generation, taskId: first.task, category: first.category, prompted: first.version, target: first.target, rounds, modelFailed, ...(first.arm ? { arm: first.arm } : {}) });
  }
  repairs.sort((a, b) => (a.sampleId < b.sampleId ? -1 : a.sampleId > b.sampleId ? 1 : compareVersions(a.target, b.target)));
  const out: DriftFacts = { executions: facts, repairs, generations: counts };
  if (byArm.grounded.samples > 0) out.arms = { ...byArm, ungrounded: [...plainIds].filter((id) => !twinned.has(id)).length };
  return out;
}

// ---- executions: what to run, and what a run records --------------------------------------------------------------

/** One execution to run: a sample's answer in one environment of its library. */
export interface ExecutionJob {
  sample: BenchSample;
  environment: string;
  library: string;
  taskId: string;
  entryPoint: string;
  response: string;
}

/** The executions of the generation stage: every answered generation sample in every version of its library. */
export function generationJobs(
  samples: readonly BenchSample[],
  responses: ReadonlyMap<string, string>,
  executed: ReadonlySet<string>,
  versions: ReadonlyMap<string, readonly string[]>,
): { jobs: ExecutionJob[]; already: number } {
  const jobs: ExecutionJob[] = [];
  let already = 0;
  for (const s of samples) {
    const t = truthOf(s);
    if (!t || t.kind !== 'generation') continue;
    const response = responses.get(s.id);
    if (response === undefined) continue;
    for (const environment of versions.get(t.library)!) {
      if (executed.has(executionKey(s.id, environment))) already++;
      else jobs.push({ sample: s, environment, library: t.library, taskId: t.task, entryPoint: t.entryPoint, response });
    }
  }
  return { jobs, already };
}

/** The executions of a repair round: each answered repair among `round` in its target environment. */
export function repairJobs(samples: readonly BenchSample[], round: ReadonlySet<string>, responses: ReadonlyMap<string, string>, executed: ReadonlySet<string>): { jobs: ExecutionJob[]; already: number } {
  const jobs: ExecutionJob[] = [];
  let already = 0;
  for (const s of samples) {
    if (!round.has(s.id)) continue;
    const t = truthOf(s);
    if (!t || t.kind !== 'repair') continue;
    const response = responses.get(s.id);
    if (response === undefined) continue;
    if (executed.has(executionKey(s.id, t.target))) already++;
    else jobs.push({ sample: s, environment: t.target, library: t.library, taskId: t.task, entryPoint: t.entryPoint, response });
  }
  return { jobs, already };
}

/** The digest of the code an execution ran: the same code, the same digest. */
function codeDigest(code: string): string {
  return createHash('sha256').update(code).digest('hex').slice(0, 32);
}

/**
 * What an execution records: the sandbox's outcome for the extracted code, or (no code in the answer, `outcome`
 * null) a hard failure of the extraction.
 */
export function executionRecord(job: ExecutionJob, interpreter: string, extracted: ExtractedCode, outcome: ExecutionOutcome | null, executedAt: string): ExecutionRecord {
  const base = { sampleId: job.sample.id, environment: job.environment, extraction: extracted.kind, codeDigest: codeDigest(extracted.code), interpreter };
  if (!outcome) {
    return { ...base, outcome: 'hard-fail', errorType: 'NoCode', message: 'the response holds no code', trace: null, phase: 'extraction', warnings: [], durationMs: 0, isolation: [], executedAt };
  }
  return {
    ...base,
    outcome: outcome.outcome,
    errorType: outcome.errorType ?? null,
    message: outcome.message ?? null,
    trace: outcome.trace ?? null,
    phase: outcome.phase ?? null,
    warnings: (outcome.warnings ?? []).map((w) => ({
      category: w.category,
      message: w.message,
      ...(w.filename ? { filename: w.filename } : {}),
      ...(w.fromLibrary !== undefined ? { fromLibrary: w.fromLibrary } : {}),
      ...(w.caller ? { caller: w.caller } : {}),
      ...(w.mro ? { mro: w.mro } : {}),
      ...(w.deprecation !== undefined ? { deprecation: w.deprecation } : {}),
    })),
    durationMs: outcome.durationMs,
    isolation: outcome.isolation ?? [],
    executedAt,
  };
}
