// `anachron bench run CONFIG` for suite "drift", and the drift side of `bench report` and `bench merge`: the tasks
// from their files, the environments from the config's overrides and the environment registry (anachron env …),
// the staged run (generate, execute everywhere, repair) with a progress bar, resumable and cancellable, then the
// report recomputed from the stored executions.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { listMatrixApis } from '../eval/models/matrix-listing.js';
import { attachRunToParent, IpcModelProvider } from '../eval/models/ipc-provider.js';
import type { RunProgress } from '../eval/runs/runner.js';
import { formatShard } from '../eval/runs/samples.js';
import { pct } from '../eval/libevobench/reports/tables.js';
import { runArms, type RunConfig } from '../eval/runs/config.js';
import type { Proportion } from '../eval/drift/metrics.js';
import { pointsWithCi } from '../eval/drift/tables.js';
import { ApiKnowledge } from '../knowledge/api-lookup.js';
import { compareVersions, versionsEqual } from '../core/versions.js';
import { tasksDigest } from '../eval/drift/dataset.js';
import { readDriftRun, writeDriftComparison, writeDriftReport } from '../eval/drift/report-files.js';
import { headlines, type DriftResults } from '../eval/drift/report.js';
import { executeDriftRun, type DriftRunSummary } from '../eval/drift/run.js';
import { loadRunTasks, TaskFileError } from '../eval/drift/task-files.js';
import type { DriftTaskSet } from '../eval/drift/tasks.js';
import { discoverDebianEnvironments } from '../environments/providers.js';
import { EnvironmentRegistry } from '../environments/registry.js';
import { executeSample, sandboxRefusal, type PythonCommand } from '../environments/sandbox.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { loadPythonParser } from '../parser/python-parser.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { UsageError } from './usage-error.js';

type Out = (s: string) => void;

/** library (import name) → version → command, from wherever the caller finds environments (the registry). */
export type EnvironmentSource = (libraries: readonly { library: string; distribution: string; versions: readonly string[] | undefined }[]) => Promise<Map<string, Map<string, PythonCommand>>>;

/**
 * Environments from the registry (anachron env …; $ANACHRON_ENVIRONMENTS or ~/.config/anachron/environments.json).
 * When a library has none, or lacks a version the config asks for, the Debian roots in scripts/debian-python.sh's
 * cache are discovered too (in memory: `anachron env discover` keeps them in the registry).
 */
export function registryEnvironments(err: Out): EnvironmentSource {
  return async (libraries) => {
    const registry = EnvironmentRegistry.load();
    const lookup = () => {
      const byDistribution = registry.environmentMap(libraries.map((l) => l.distribution));
      return new Map(libraries.map((l) => [l.library, byDistribution.get(normalizeDistributionName(l.distribution)) ?? new Map<string, PythonCommand>()] as const));
    };
    let map = lookup();
    const lacking = libraries.filter((l) => {
      const have = [...(map.get(l.library)?.keys() ?? [])];
      return l.versions === undefined ? have.length === 0 : l.versions.some((v) => !have.some((h) => versionsEqual(h, v)));
    });
    if (lacking.length > 0) {
      const report = await discoverDebianEnvironments(registry);
      if (report.added.length) err(`drift: found ${report.added.length} environments in the Debian cache (anachron env discover keeps them in the registry)`);
      map = lookup();
    }
    return map;
  };
}

/**
 * The versions and commands of a drift run: per library, the config's versions (default: every environment
 * available), each from the config's drift.environments or else from `available`. Writes the versions into the
 * config (they are part of the run's identity). Throws UsageError naming what is missing.
 */
export function resolveDriftEnvironments(config: RunConfig, sets: readonly DriftTaskSet[], available: Map<string, Map<string, PythonCommand>>): Map<string, Map<string, PythonCommand>> {
  const out = new Map<string, Map<string, PythonCommand>>();
  const versions: Record<string, string[]> = { ...(config.versions ?? {}) };
  for (const set of sets) {
    const overrides = config.drift?.environments?.[set.library] ?? {};
    const registered = available.get(set.library) ?? new Map<string, PythonCommand>();
    const known = [...new Set([...Object.keys(overrides), ...registered.keys()])].sort(compareVersions);
    const wanted = versions[set.library] ?? known;
    if (wanted.length === 0) {
      throw new UsageError(`no environments for ${set.library}: add some (anachron env add, or scripts/debian-python.sh and anachron env discover), or give drift.environments.${set.library} in the config`);
    }
    const commands = new Map<string, PythonCommand>();
    for (const v of wanted) {
      const override = Object.entries(overrides).find(([k]) => versionsEqual(k, v))?.[1];
      const found = override ?? [...registered.entries()].find(([k]) => versionsEqual(k, v))?.[1];
      if (!found) throw new UsageError(`no environment for ${set.library} ${v} (available: ${known.join(', ') || 'none'}); add it with anachron env, or give drift.environments.${set.library}["${v}"]`);
      commands.set(v, found);
    }
    versions[set.library] = [...wanted].sort(compareVersions);
    out.set(set.library, commands);
  }
  config.versions = versions;
  return out;
}

function clock(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  const m = Math.floor(s / 60);
  return `${Math.floor(m / 60) > 0 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}` : m}:${String(s % 60).padStart(2, '0')}`;
}

/** One progress line: the stage, a bar, done/total, failures, rate and ETA. */
export function driftProgressLine(p: RunProgress, width = 24): string {
  const ratio = p.total > 0 ? p.done / p.total : 1;
  const filled = Math.round(ratio * width);
  return `drift ${p.phase ?? ''} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.done}/${p.total} ${(ratio * 100).toFixed(1)}% failed ${p.failed} ${p.rate.toFixed(1)}/s ETA ${clock(p.etaSeconds)}`;
}

function progressReporter(err: Out, quiet: boolean): { onProgress: (p: RunProgress) => void; finish: () => void } {
  const tty = process.stderr.isTTY === true;
  let last: RunProgress | undefined;
  let lastPrinted = 0;
  let lastPhase: string | undefined;
  return {
    onProgress: (p) => {
      if (!quiet && last && p.phase !== lastPhase && tty) process.stderr.write(`\r\x1b[K${driftProgressLine(last)}\n`);
      last = p;
      if (quiet) return;
      const now = Date.now();
      if (tty) process.stderr.write(`\r\x1b[K${driftProgressLine(p)}`);
      else if (now - lastPrinted >= 2000 || p.phase !== lastPhase || p.done === p.total) {
        lastPrinted = now;
        err(driftProgressLine(p));
      }
      lastPhase = p.phase;
    },
    finish: () => {
      if (!quiet && last && tty) process.stderr.write(`\r\x1b[K${driftProgressLine(last)}\n`);
    },
  };
}

/** The lines `bench run` prints at the end of a drift run: counts, then per library the headline. */
export function driftSummaryLines(summary: DriftRunSummary | null, results: DriftResults, dir: string): string[] {
  const lines: string[] = [];
  if (summary) {
    const g = summary.generations;
    const r = summary.repairs;
    lines.push(
      `run: ${g.samples} samples, ${g.answered} answered, ${g.failed} failed, ${g.pending} pending; ${summary.executions.done} executions (of samples and repairs; ${summary.executions.thisSession} this session); ${r.samples} repair attempts, ${r.answered} answered; this session sent ${g.sent + r.sent} with ${summary.provider}`,
    );
  }
  for (const h of headlines(results)) {
    lines.push(
      `drift ${h.library}: fidelity ${pct(h.fidelity)}%${h.fidelityCi ? ` [${pct(h.fidelityCi[0])}, ${pct(h.fidelityCi[1])}]` : ''}, forward ${pct(h.forward)}%, backward ${pct(h.backward)}%, largest forward drop ${h.largestDrop ? `${pct(h.largestDrop.drop)} points (${h.largestDrop.prompted}→${h.largestDrop.environment})` : '–'}, Pass@1 ${pct(h.passAt1)}%${h.k > 1 ? `, Pass@${h.k} ${pct(h.passAtK)}%` : ''}, repaired ${pct(h.repairSingleShot)}% in 1 round, ${pct(h.repairAll)}% in all (${h.repairAttempts} cases)`,
    );
  }
  lines.push(...driftArmsLines(results));
  lines.push(`report: ${join(dir, 'report.html')}`);
  return lines;
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

export interface DriftRunFlags {
  matrices: string;
  out?: string;
  quiet: boolean;
  verbose: boolean;
  retryFailed: boolean;
  noReport: boolean;
  modelIpc?: string;
  /** --allow-unsandboxed: run generated code even where the OS cannot give the sandbox's boundary. */
  allowUnsandboxed?: boolean;
}

/** `bench run CONFIG` for a drift config (already validated, with --limit/--shard/--concurrency applied). */
export async function benchRunDrift(config: RunConfig, configFile: string, flags: DriftRunFlags, environments: EnvironmentSource, out: Out, err: Out): Promise<number> {
  let sets: DriftTaskSet[];
  try {
    sets = loadRunTasks(config, dirname(configFile));
  } catch (e) {
    if (e instanceof TaskFileError) throw new UsageError(e.message);
    throw e;
  }
  const wantedVersions = (library: string) => {
    const given = config.versions?.[library];
    const overridden = Object.keys(config.drift?.environments?.[library] ?? {});
    return given?.filter((v) => !overridden.some((o) => versionsEqual(o, v)));
  };
  // Before any model is asked: generated code runs only behind the OS boundary, unless the user says otherwise.
  const allowUnsandboxed = flags.allowUnsandboxed === true || process.env.ANACHRON_ALLOW_UNSANDBOXED === '1';
  const refusal = await sandboxRefusal();
  if (refusal && !allowUnsandboxed) throw new UsageError(refusal);
  if (refusal) err('drift: WARNING: generated code runs without an OS sandbox (--allow-unsandboxed): only rlimits, an audit hook and a scrubbed environment stand between it and this machine');
  const available = await environments(sets.map((s) => ({ library: s.library, distribution: s.distribution, versions: wantedVersions(s.library) })));
  const commands = resolveDriftEnvironments(config, sets, available);
  const grounded = runArms(config).includes('grounded');
  config.drift = { ...config.drift, tasksDigest: tasksDigest(sets, { apis: grounded }) };
  const defaultDir = join('bench-runs', basename(configFile).replace(/\.[^.]*$/, '') + (config.shard ? `-shard-${config.shard.index}-of-${config.shard.count}` : ''));
  const dir = resolve(flags.out ?? defaultDir);
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'run.sqlite');

  const catalog = openMatrixCatalog(flags.matrices, { onProblem: (p) => err(`anachron: warning: ${p}`) });
  const parser = await loadPythonParser();
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const progress = progressReporter(err, flags.quiet);
  const parent = attachRunToParent(onSigint);
  const log = flags.verbose ? (line: string) => err(`bench: ${line}`) : undefined;
  const ipcProvider =
    flags.modelIpc !== undefined
      ? new IpcModelProvider({
          id: flags.modelIpc,
          concurrency: config.concurrency ?? 8,
          ...(config.model.retry ? { retry: config.model.retry } : {}),
          ...(config.model.timeoutMs !== undefined ? { timeoutMs: config.model.timeoutMs } : {}),
          ...(log ? { log } : {}),
        })
      : undefined;
  const prompts = sets.reduce((s, x) => s + x.tasks.length * (config.versions?.[x.library]?.length ?? 0), 0);
  let summary: DriftRunSummary;
  try {
    err(
      `drift: ${config.name ?? basename(configFile)}: ${sets.map((s) => `${s.library} ${s.tasks.length} tasks × ${config.versions?.[s.library]?.join(', ')}`).join('; ')}; ${prompts} prompts × ${config.drift?.samplesPerPrompt ?? 3} samples${grounded ? ` × arms ${runArms(config).join(' + ')}` : ''}${config.limit !== undefined ? `, limit ${config.limit}` : ''}${config.shard ? `, shard ${formatShard(config.shard)}` : ''} → ${database}`,
    );
    summary = await executeDriftRun({
      config,
      database,
      tasks: sets,
      environments: commands,
      execute: executeSample,
      notes: { parse: (text) => parser.parse(text), catalog, listing: listMatrixApis },
      // The grounded arm asks the lookup tool's own implementation, over the same matrices.
      ...(grounded ? { knowledge: new ApiKnowledge(catalog, listMatrixApis) } : {}),
      ...(ipcProvider ? { provider: ipcProvider } : {}),
      environment: { matricesFolder: flags.matrices, ...(log ? { log } : {}) },
      retryFailed: flags.retryFailed,
      ...(allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      signal: controller.signal,
      onProgress: parent ? (p) => (progress.onProgress(p), parent.onProgress(p)) : progress.onProgress,
      progressIntervalMs: 200,
      log: (line) => err(line),
    });
  } finally {
    ipcProvider?.close();
    parent?.detach();
    progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    catalog.close();
  }
  if (summary.executions.errors > 0) err(`drift: ${summary.executions.errors} executions could not run (not recorded; run again to retry them): ${summary.executions.firstError}`);
  if (!flags.noReport) {
    const read = readDriftRun(database);
    writeDriftReport(dir, read);
    for (const line of driftSummaryLines(summary, read.results, dir)) out(line);
  } else out(driftSummaryLines(summary, { ...emptyResults() }, dir)[0]!);
  if (summary.cancelled) {
    err('drift: interrupted; run the same command again to resume');
    return 130;
  }
  return summary.executions.errors > 0 ? 1 : 0;
}

function emptyResults(): DriftResults {
  return {
    schema: 'anachron-drift-results/1',
    suite: 'drift',
    run: { label: '', name: null, identity: '', model: '', shard: null, mergedFrom: null },
    settings: { samplesPerPrompt: 1, timeoutMs: 0, repairRounds: 0, migrationNotes: false, temperature: 0, maxTokens: 0 },
    libraries: [],
    counts: { samples: 0, answered: 0, modelFailures: 0, pending: 0, noCode: 0, executions: 0, repairCases: 0, repairAttempts: 0 },
    results: [],
  };
}

/** `bench report` of one drift run into `dir`. */
export function reportDriftRun(database: string, dir: string, out: Out, label?: string): DriftResults {
  const read = readDriftRun(database, label);
  writeDriftReport(dir, read);
  for (const line of driftSummaryLines(null, read.results, dir)) out(line);
  return read.results;
}

/** `bench report` of several drift runs: each run's report under DIR/runs/LABEL and the comparison in DIR. */
export function compareDriftRuns(databases: readonly string[], dir: string, out: Out): void {
  const used = new Set<string>();
  const runs: DriftResults[] = [];
  for (const db of databases) {
    const base = readDriftRun(db).results.run.label;
    let label = base;
    for (let k = 2; used.has(label); k++) label = `${base} (${k})`;
    used.add(label);
    const read = readDriftRun(db, label);
    writeDriftReport(join(dir, 'runs', label.replace(/[^\w.-]+/g, '_')), read);
    runs.push(read.results);
  }
  writeDriftComparison(dir, runs);
  out(`compared ${runs.length} drift runs:`);
  for (const h of runs.flatMap(headlines)) out(`  ${h.run} · ${h.library}: fidelity ${pct(h.fidelity)}%, forward ${pct(h.forward)}%, repaired ${pct(h.repairSingleShot)}% in 1 round`);
  out(`report: ${join(dir, 'report.html')}`);
}
