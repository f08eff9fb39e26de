// Adapter between a drift run's database and its report files: reads the samples, the model's records and every
// stored execution, and writes executions.jsonl (one line per execution, with its code), results.json, CSV and
// Markdown tables, the SVG charts and report.html; or the comparison of several drift runs. The arithmetic is in
// dataset.ts, metrics.ts and report.ts (pure); every figure is recomputed from the stored executions each time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeReportFiles } from '../reports/files.js';
import type { ReportFigure } from '../reports/html.js';
import { runLabel } from '../reports/labels.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE } from '../models/config.js';
import { runArms } from '../runs/config.js';
import type { BenchSample } from '../runs/samples.js';
import { RunStore } from '../runs/store.js';
import { resolvedDriftSettings, type DriftRunConfig } from './config.js';
import { codeOf, driftFacts, truthOf } from './dataset.js';
import { fidelitySvg, forwardDropSvg, heatmapSvg, passAtKScatterSvg, repairSvg, taxonomySvg } from './charts.js';
import { aggregateDrift, allHeadlines, armView, type DriftResults } from './report.js';
import { DriftStore } from './store.js';
import { driftComparisonCsv, driftComparisonMarkdown, driftCsvFiles, driftMarkdown } from './tables.js';
import { InputError } from '../../core/errors.js';

/** One line of executions.jsonl. */
export interface ExecutionLine {
  sampleId: string;
  kind: 'generation' | 'repair';
  library: string;
  task: string;
  category: string;
  /** The version the (original) sample was prompted for. */
  prompted: string;
  environment: string;
  /** "grounded" for the grounded arm's samples (their prompts had anachron's answers), else "plain". */
  arm: 'plain' | 'grounded';
  /** Repairs: the round and the generation sample the case started from. */
  round: number | null;
  generation: string | null;
  outcome: string;
  errorType: string | null;
  phase: string | null;
  message: string | null;
  extraction: string;
  durationMs: number;
  code: string;
}

export interface ReadDriftRun {
  results: DriftResults;
  executions: ExecutionLine[];
}

/** True when the run database holds a drift run. */
export function isDriftRun(database: string): boolean {
  const store = RunStore.open(database, { readonly: true });
  try {
    return store.meta.config.suite === 'drift';
  } finally {
    store.close();
  }
}

/** Reads a drift run database and computes its results from the stored executions. */
export function readDriftRun(database: string, label?: string): ReadDriftRun {
  const store = RunStore.open(database, { readonly: true });
  const drift = DriftStore.open(database, { readonly: true });
  try {
    const config = store.meta.config as DriftRunConfig;
    if (config.suite !== 'drift') throw new InputError(`${database} holds a ${config.suite} run, not a drift run`);
    const rows: { sample: BenchSample; status: 'answered' | 'failed' | null; response: string | null }[] = [];
    let provider: string | null = null;
    for (const { sample, result } of store.entries()) {
      if (result && provider === null) provider = result.provider;
      rows.push({ sample, status: result?.status ?? null, response: result?.status === 'answered' ? result.response ?? '' : null });
    }
    const executions = drift.executions();
    const facts = driftFacts(rows, executions);
    const settings = resolvedDriftSettings(config.drift);
    const results = aggregateDrift(
      facts,
      {
        label: label ?? runLabel(database, config.name),
        name: config.name ?? null,
        identity: store.meta.identity,
        model: provider ?? `${config.model.provider}:${config.model.model}`,
        shard: store.meta.shard || null,
        mergedFrom: store.meta.mergedFrom ?? null,
      },
      {
        samplesPerPrompt: settings.samplesPerPrompt,
        timeoutMs: settings.timeoutMs,
        repairRounds: settings.repairRounds,
        migrationNotes: settings.migrationNotes,
        temperature: config.model.temperature ?? DEFAULT_TEMPERATURE,
        maxTokens: config.model.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(runArms(config).includes('grounded') ? { arms: runArms(config) } : {}),
      },
      config.versions ?? {},
    );
    const byId = new Map(rows.map((r) => [r.sample.id, r] as const));
    const lines: ExecutionLine[] = [];
    for (const e of executions) {
      const row = byId.get(e.sampleId);
      const t = row ? truthOf(row.sample) : null;
      if (!row || !t) continue;
      lines.push({
        sampleId: e.sampleId,
        kind: t.kind,
        library: t.library,
        task: t.task,
        category: t.category,
        prompted: t.version,
        environment: e.environment,
        arm: t.arm ?? 'plain',
        round: t.kind === 'repair' ? t.round : null,
        generation: t.kind === 'repair' ? t.generation : null,
        outcome: e.outcome,
        errorType: e.errorType,
        phase: e.phase,
        message: e.message,
        extraction: e.extraction,
        durationMs: e.durationMs,
        code: row.response === null ? '' : codeOf(row.response, t.entryPoint).code,
      });
    }
    return { results, executions: lines };
  } finally {
    drift.close();
    store.close();
  }
}

export function driftFigures(runs: readonly DriftResults[]): ReportFigure[] {
  const libraries = [...new Set(runs.flatMap((r) => r.libraries))];
  return [
    { file: 'drift-heatmap.svg', caption: 'Drift matrices: Pass@1 of samples prompted for version s (rows) executed in version t (columns); the diagonal is version fidelity (paper Figure 2)', svg: heatmapSvg(runs) },
    ...libraries.map((library) => ({ file: `fidelity-${library.replace(/[^\w.-]+/g, '_')}.svg`, caption: `Version fidelity of ${library}: Pass@1 and Pass@k on the prompted version with 95% Wilson intervals (Figure 1)`, svg: fidelitySvg(runs, library) })),
    { file: 'forward-drop.svg', caption: 'Forward-compatibility drop: how much Pass@1 falls when the code runs in a newer version than it was prompted for (Figure 3)', svg: forwardDropSvg(runs) },
    { file: 'error-taxonomy.svg', caption: 'Error taxonomy: pass, soft fail (deprecation warnings), timeout and hard fails by exception type, per prompted version (Figure 4)', svg: taxonomySvg(runs) },
    { file: 'repair.svg', caption: 'Repair success per target version: the single-shot repair of the paper (round 1) and iterative repair (cumulative by round), with 95% Wilson intervals (Figure 5)', svg: repairSvg(runs) },
    { file: 'pass-at-k.svg', caption: 'Pass@1 against Pass@k on the prompted version: points above the diagonal gain from sampling (Figure 6)', svg: passAtKScatterSvg(runs) },
  ];
}

/** A run with both arms: the drift matrices and the fidelity of each arm side by side (the charts above, one series per arm). */
export function armsFigures(results: DriftResults): ReportFigure[] {
  if (!results.arms) return [];
  // One run: its panels and series are named by arm alone.
  const view = (arm: 'plain' | 'grounded') => {
    const v = armView(results, arm);
    return { ...v, run: { ...v.run, label: arm } };
  };
  const both = [view('plain'), view('grounded')];
  return [
    { file: 'arms-heatmap.svg', caption: "Drift matrices without and with anachron's answers in the prompt (the grounded arm), Pass@1", svg: heatmapSvg(both, 'Drift matrices D[s][t], plain and grounded, Pass@1 (%)') },
    ...results.libraries.map((library) => ({
      file: `arms-fidelity-${library.replace(/[^\w.-]+/g, '_')}.svg`,
      caption: `Version fidelity of ${library} without and with anachron's answers (the grounded arm): Pass@1 and Pass@k with 95% Wilson intervals`,
      svg: fidelitySvg(both, library),
    })),
  ];
}

/** Writes a drift run's report into `dir`; returns its results and the files written. */
export function writeDriftReport(dir: string, read: ReadDriftRun): { results: DriftResults; files: string[] } {
  const { results } = read;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'executions.jsonl'), read.executions.map((e) => JSON.stringify(e)).join('\n') + (read.executions.length ? '\n' : ''));
  const markdown = driftMarkdown(results);
  const figures = [...driftFigures([results]), ...armsFigures(results)];
  const files = writeReportFiles(dir, { json: { file: 'results.json', value: results }, csv: driftCsvFiles(results), markdown, figures, title: `Drift results: ${results.run.label}` });
  return { results, files: ['executions.jsonl', ...files] };
}

/** Writes the comparison of several drift runs (each run one model). */
export function writeDriftComparison(dir: string, runs: readonly DriftResults[]): { files: string[] } {
  const markdown = driftComparisonMarkdown(runs);
  const figures = driftFigures(runs);
  const files = writeReportFiles(dir, {
    json: { file: 'comparison.json', value: { suite: 'drift', runs: runs.map((r) => r.run), headlines: runs.flatMap(allHeadlines) } },
    csv: driftComparisonCsv(runs),
    markdown,
    figures,
    title: `Drift comparison: ${runs.map((r) => r.run.label).join(', ')}`,
  });
  return { files };
}
