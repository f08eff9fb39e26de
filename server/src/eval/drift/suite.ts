// The execution-based drift suite as a suite (eval/suite.ts): the tasks from their files and the interpreters of every
// version (the config's overrides, the environment registry); a staged solve (generate, execute everywhere, repair,
// resumable and cancellable); results recomputed from the stored executions; drift matrices, Pass@k, the error
// taxonomy and repair rates (docs/benchmark-drift.md).
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../../core/errors.js';
import { compareVersions, versionsEqual } from '../../core/versions.js';
import type { PythonCommand } from '../../environments/sandbox.js';
import { executeSample, sandboxRefusal } from '../../environments/sandbox.js';
import { ApiKnowledge } from '../../knowledge/api-lookup.js';
import { loadPythonParser } from '../../parser/python-parser.js';
import { listMatrixApis } from '../../store/api-listing.js';
import { openMatrixCatalog } from '../../store/catalog.js';
import { labelFolder, uniqueLabel } from '../reports/labels.js';
import { pct } from '../reports/tables.js';
import { runArms } from '../runs/config.js';
import { formatShard } from '../runs/samples.js';
import type { Suite } from '../suite.js';
import { DRIFT_CONFIG, type DriftRunConfig } from './config.js';
import { tasksDigest } from './dataset.js';
import { mergeDriftRuns } from './merge.js';
import type { Proportion } from './metrics.js';
import { readDriftRun, writeDriftComparison, writeDriftReport, type ReadDriftRun } from './report-files.js';
import { headlines, type DriftResults } from './report.js';
import { executeDriftRun, type DriftRunSummary } from './run.js';
import { pointsWithCi } from './tables.js';
import { loadRunTasks, TaskFileError } from './task-files.js';
import type { DriftTaskSet } from './tasks.js';

/** What a drift run asks: the task sets, and the interpreter of every (library, version). */
export interface DriftPlan {
  sets: DriftTaskSet[];
  commands: Map<string, Map<string, PythonCommand>>;
}

/**
 * The versions and commands of a drift run: per library, the config's versions (default: every environment
 * available), each from the config's drift.environments or else from `available`. Writes the versions into the
 * config (they are part of the run's identity). Throws InputError naming what is missing.
 */
export function resolveDriftEnvironments(config: DriftRunConfig, sets: readonly DriftTaskSet[], available: Map<string, Map<string, PythonCommand>>): Map<string, Map<string, PythonCommand>> {
  const out = new Map<string, Map<string, PythonCommand>>();
  const versions: Record<string, string[]> = { ...(config.versions ?? {}) };
  for (const set of sets) {
    const overrides = config.drift?.environments?.[set.library] ?? {};
    const registered = available.get(set.library) ?? new Map<string, PythonCommand>();
    const known = [...new Set([...Object.keys(overrides), ...registered.keys()])].sort(compareVersions);
    const wanted = versions[set.library] ?? known;
    if (wanted.length === 0) {
      throw new InputError(`no environments for ${set.library}: add some (anachron env add, or scripts/debian-python.sh and anachron env discover), or give drift.environments.${set.library} in the config`);
    }
    const commands = new Map<string, PythonCommand>();
    for (const v of wanted) {
      const override = Object.entries(overrides).find(([k]) => versionsEqual(k, v))?.[1];
      const found = override ?? [...registered.entries()].find(([k]) => versionsEqual(k, v))?.[1];
      if (!found) throw new InputError(`no environment for ${set.library} ${v} (available: ${known.join(', ') || 'none'}); add it with anachron env, or give drift.environments.${set.library}["${v}"]`);
      commands.set(v, found);
    }
    versions[set.library] = [...wanted].sort(compareVersions);
    out.set(set.library, commands);
  }
  config.versions = versions;
  return out;
}

/** The line `bench run` prints at the end of a drift run's work: what was generated, executed and repaired. */
function runLine(summary: DriftRunSummary): string {
  const g = summary.generations;
  const r = summary.repairs;
  return `run: ${g.samples} samples, ${g.answered} answered, ${g.failed} failed, ${g.pending} pending; ${summary.executions.done} executions (of samples and repairs; ${summary.executions.thisSession} this session); ${r.samples} repair attempts, ${r.answered} answered; this session sent ${g.sent + r.sent} with ${summary.provider}`;
}

/** The grounded arm in short, per library: fidelity in both arms and the differences where grounding should tell. */
export function driftArmsLines(results: DriftResults): string[] {
  if (!results.arms) return [];
  const k = results.settings.samplesPerPrompt;
  const libraries = [...new Set(results.arms.rows.map((r) => r.library))];
  return libraries.map((library) => {
    const rows = results.arms!.rows.filter((r) => r.library === library);
    const fidelity = rows.find((r) => r.scope === 'fidelity');
    const delta = (scope: string, name: string) => {
      const r = rows.find((x) => x.scope === scope);
      return r ? `${name} ${pointsWithCi(r.delta.value, r.delta.ci)} (${r.pairs})` : null;
    };
    const percent = (p: Proportion) => `${pct(p.value)}%${p.ci ? ` [${pct(p.ci[0])}, ${pct(p.ci[1])}]` : ''}`;
    const passK = fidelity && k > 1 ? `, Pass@${k} ${pct(fidelity.passAtK.grounded[k - 1]?.value)}% vs ${pct(fidelity.passAtK.plain[k - 1]?.value)}%` : '';
    const parts = [delta('fidelity, drifted prompts', 'drifted prompts'), delta('off-diagonal', 'off-diagonal'), delta('forward', 'forward'), delta('backward', 'backward')].filter((x) => x !== null);
    return `with anachron (grounded arm), ${library}: fidelity ${fidelity ? `${percent(fidelity.grounded)} vs ${percent(fidelity.plain)} plain${passK}` : '–'}; grounded − plain (points, pairs): ${parts.join('; ') || 'no pairs ran'}`;
  });
}

/** Per library the headline of a run's results, the grounded arm, and where the report is. */
function summaryLines(results: DriftResults, dir: string): string[] {
  const lines = headlines(results).map(
    (h) =>
      `drift ${h.library}: fidelity ${pct(h.fidelity)}% (mean of the diagonal)${h.fidelityRange && h.fidelityRange[0] !== h.fidelityRange[1] ? ` (versions ${pct(h.fidelityRange[0])}–${pct(h.fidelityRange[1])})` : ''}, pooled ${pct(h.fidelityPooled)}%${h.fidelityPooledCi ? ` [${pct(h.fidelityPooledCi[0])}, ${pct(h.fidelityPooledCi[1])}]` : ''}${h.fidelityByTaskCi ? `, clustered by task [${pct(h.fidelityByTaskCi[0])}, ${pct(h.fidelityByTaskCi[1])}]` : ''}, forward ${pct(h.forward)}%, backward ${pct(h.backward)}%, largest forward drop ${h.largestDrop ? `${pct(h.largestDrop.drop)} points (${h.largestDrop.prompted}→${h.largestDrop.environment})` : '–'}, Pass@1 ${pct(h.passAt1)}%${h.k > 1 ? `, Pass@${h.k} ${pct(h.passAtK)}%` : ''}, repaired ${pct(h.repairSingleShot)}% in 1 round, ${pct(h.repairAll)}% in all (${h.repairAttempts} cases)`,
  );
  return [...lines, ...driftArmsLines(results), `report: ${join(dir, 'report.html')}`];
}

export const DRIFT_SUITE: Suite<DriftPlan, ReadDriftRun> = {
  title: 'drift',
  progressLabel: 'drift',
  config: DRIFT_CONFIG,

  async dataset(base, inputs) {
    const config = base as DriftRunConfig;
    if (inputs.samplesFile || inputs.corpus || inputs.exampleCorpus) throw new InputError('suite "drift" takes its tasks from drift.taskFiles: --samples, --corpus and --example-corpus do not apply');
    let sets: DriftTaskSet[];
    try {
      sets = loadRunTasks(config, dirname(inputs.configFile));
    } catch (e) {
      if (e instanceof TaskFileError) throw new InputError(e.message);
      throw e;
    }
    const wantedVersions = (library: string) => {
      const given = config.versions?.[library];
      const overridden = Object.keys(config.drift?.environments?.[library] ?? {});
      return given?.filter((v) => !overridden.some((o) => versionsEqual(o, v)));
    };
    // Before any model is asked: generated code runs only behind the OS boundary, unless the user says otherwise.
    const refusal = await sandboxRefusal();
    if (refusal && !inputs.allowUnsandboxed) throw new InputError(refusal);
    if (refusal) inputs.err('drift: WARNING: generated code runs without an OS sandbox (--allow-unsandboxed): only rlimits, an audit hook and a scrubbed environment stand between it and this machine');
    const available = await inputs.environments(sets.map((s) => ({ library: s.library, distribution: s.distribution, versions: wantedVersions(s.library) })));
    const commands = resolveDriftEnvironments(config, sets, available);
    config.drift = { ...config.drift, tasksDigest: tasksDigest(sets, { apis: runArms(config).includes('grounded') }) };
    mkdirSync(inputs.runDir, { recursive: true });
    return { sets, commands };
  },

  describe({ sets }, base, configFile, database) {
    const config = base as DriftRunConfig;
    const prompts = sets.reduce((s, x) => s + x.tasks.length * (config.versions?.[x.library]?.length ?? 0), 0);
    const grounded = runArms(config).includes('grounded');
    return `drift: ${config.name ?? basename(configFile)}: ${sets.map((s) => `${s.library} ${s.tasks.length} tasks × ${config.versions?.[s.library]?.join(', ')}`).join('; ')}; ${prompts} prompts × ${config.drift?.samplesPerPrompt ?? 3} samples${grounded ? ` × arms ${runArms(config).join(' + ')}` : ''}${config.limit !== undefined ? `, limit ${config.limit}` : ''}${config.shard ? `, shard ${formatShard(config.shard)}` : ''} → ${database}`;
  },

  async solve({ sets, commands }, base, context) {
    const config = base as DriftRunConfig;
    const catalog = openMatrixCatalog(context.matricesFolder, { onProblem: (p) => context.err(`anachron: warning: ${p}`) });
    let summary: DriftRunSummary;
    try {
      const parser = await loadPythonParser();
      summary = await executeDriftRun({
        config,
        database: context.database,
        tasks: sets,
        environments: commands,
        execute: executeSample,
        notes: { parse: (text) => parser.parse(text), catalog, listing: listMatrixApis },
        // The grounded arm asks the lookup tool's own implementation, over the same matrices.
        ...(runArms(config).includes('grounded') ? { knowledge: new ApiKnowledge(catalog, listMatrixApis) } : {}),
        ...(context.provider ? { provider: context.provider } : {}),
        ...(context.log ? { environment: { log: context.log } } : {}),
        retryFailed: context.retryFailed,
        ...(context.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
        signal: context.signal,
        onProgress: context.onProgress,
        progressIntervalMs: 200,
        log: context.err,
      });
    } finally {
      catalog.close();
    }
    const errors = summary.executions.errors;
    return {
      lines: [runLine(summary)],
      notes: errors > 0 ? [`drift: ${errors} executions could not run (not recorded; run again to retry them): ${summary.executions.firstError}`] : [],
      cancelled: summary.cancelled,
      exitCode: errors > 0 ? 1 : 0,
    };
  },

  score: (database, _context, label) => readDriftRun(database, label),

  report(dir, read) {
    writeDriftReport(dir, read);
    return summaryLines(read.results, dir);
  },

  compare(databases, dir) {
    const used = new Set<string>();
    const runs: DriftResults[] = [];
    for (const db of databases) {
      const label = uniqueLabel(readDriftRun(db).results.run.label, used);
      const read = readDriftRun(db, label);
      writeDriftReport(join(dir, 'runs', labelFolder(label)), read);
      runs.push(read.results);
    }
    writeDriftComparison(dir, runs);
    const lines = [`compared ${runs.length} drift runs:`];
    for (const h of runs.flatMap(headlines)) lines.push(`  ${h.run} · ${h.library}: fidelity ${pct(h.fidelity)}% (mean of the diagonal), forward ${pct(h.forward)}%, repaired ${pct(h.repairSingleShot)}% in 1 round`);
    lines.push(`report: ${join(dir, 'report.html')}`);
    return lines;
  },

  merge(inputs, output) {
    const merged = mergeDriftRuns(inputs, output);
    const duplicates = merged.duplicatesSkipped + merged.executionDuplicates;
    return {
      lines: [`merged ${inputs.length} drift runs into ${output}: ${merged.samples} samples, ${merged.answered} answered, ${merged.failed} failed, ${merged.pending} pending; ${merged.executions} executions${duplicates ? `, ${duplicates} duplicate records kept once` : ''}`],
      warnings: merged.missingShards.length ? [`anachron: warning: shards missing from the merge: ${merged.missingShards.join(', ')}`] : [],
    };
  },
};
