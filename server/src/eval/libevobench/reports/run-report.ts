// Adapter between the run database, the matrices and the files of a report: scores a run database into prediction
// records, and writes a run's report (predictions.jsonl, results.json, CSV and Markdown tables, SVG charts,
// report.html) or a comparison of runs. All the arithmetic lives in ../scoring (pure); this file does the I/O.
import { closeSync, mkdirSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { GroundTruthMatrix } from '../../../core/ground-truth.js';
import { modelConfigLabel } from '../../models/config.js';
import type { LibEvoBenchSample } from '../prompt-contract.js';
import { RunStore } from '../../runs/store.js';
import { aggregateResults, type RunInfo } from '../scoring/aggregate.js';
import { compareRuns, type Comparison } from '../scoring/compare.js';
import { scoreEntry } from '../scoring/score.js';
import { TruthLookup, type MatrixSource } from '../scoring/taxonomy.js';
import type { PredictionRecord, RunResults, ScoringOptions } from '../scoring/types.js';
import { armsSvg, comparisonProgressionSvg, comparisonStaircaseSvg, leaderboardSvg, progressionSvg, staircaseSvg, taxonomySvg } from './charts.js';
import { writeReportFiles } from '../../reports/files.js';
import type { ReportFigure } from '../../reports/html.js';
import { runLabel } from '../../reports/labels.js';
import { comparisonCsvFiles, comparisonMarkdown, runCsvFiles, runMarkdown } from './tables.js';
import { InputError } from '../../../core/errors.js';

export interface ScoredRun {
  info: RunInfo;
  records: PredictionRecord[];
}

/** A matrix source over matrices already open (e.g. a catalog's SqliteMatrix list). */
export function matrixSource(matrices: readonly GroundTruthMatrix[]): MatrixSource {
  const byLibrary = new Map(matrices.map((m) => [m.library, m] as const));
  return (library) => byLibrary.get(library);
}


/** Scores every sample of a run database (pending ones included, as pending) in dataset order. */
export function scoreRunDatabase(database: string, matrices: MatrixSource, label?: string): ScoredRun {
  const store = RunStore.open(database, { readonly: true });
  try {
    const lookup = new TruthLookup(matrices);
    const records: PredictionRecord[] = [];
    let provider: string | null = null;
    let ordinal = 0;
    for (const { sample, result } of store.entries()) {
      if (result && provider === null) provider = result.provider;
      // A LibEvoBench run's database holds LibEvoBench samples (the run store keeps tasks and levels as text).
      records.push(scoreEntry(sample as LibEvoBenchSample, result, ordinal++, lookup));
    }
    const config = store.meta.config;
    const model = provider ?? modelConfigLabel(config.model);
    return {
      info: {
        label: label ?? runLabel(database, config.name),
        name: config.name ?? null,
        identity: store.meta.identity,
        model,
        suite: config.suite,
        shard: store.meta.shard || null,
        mergedFrom: store.meta.mergedFrom ?? null,
      },
      records,
    };
  } finally {
    store.close();
  }
}

// ---- predictions.jsonl ----------------------------------------------------------------------------------------------

export function writePredictions(file: string, records: readonly PredictionRecord[]): void {
  const fd = openSync(file, 'w');
  try {
    let chunk: string[] = [];
    let size = 0;
    for (const r of records) {
      const line = JSON.stringify(r) + '\n';
      chunk.push(line);
      size += line.length;
      if (size > 1 << 20) {
        writeSync(fd, chunk.join(''));
        chunk = [];
        size = 0;
      }
    }
    if (chunk.length) writeSync(fd, chunk.join(''));
  } finally {
    closeSync(fd);
  }
}

/** Reads predictions.jsonl line by line (without holding the file as one string). */
export function readPredictions(file: string): PredictionRecord[] {
  const fd = openSync(file, 'r');
  const records: PredictionRecord[] = [];
  try {
    const buffer = Buffer.alloc(1 << 20);
    let rest = Buffer.alloc(0);
    let line = 0;
    const take = (bytes: Buffer) => {
      const text = bytes.toString('utf8');
      line++;
      if (text.trim() === '') return;
      try {
        records.push(JSON.parse(text) as PredictionRecord);
      } catch (e) {
        throw new InputError(`${file}:${line}: not a JSON record: ${(e as Error).message}`);
      }
    };
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      let data = Buffer.concat([rest, buffer.subarray(0, n)]);
      let nl: number;
      while ((nl = data.indexOf(0x0a)) >= 0) {
        take(data.subarray(0, nl));
        data = data.subarray(nl + 1);
      }
      rest = Buffer.from(data);
    }
    if (rest.length) take(rest);
  } finally {
    closeSync(fd);
  }
  return records;
}

// ---- writing reports ------------------------------------------------------------------------------------------------

export function runFigures(results: RunResults): ReportFigure[] {
  return [
    { file: 'figure2-progression.svg', caption: 'Stable (dashed) and evolving (solid) APIs across normalised versions: mean of API-C@L1 exact, API-I exact and SR F1 (Figure 2)', svg: progressionSvg(results) },
    { file: 'figure3-staircase.svg', caption: 'API-C levels: API exact match at L0–L2, parameter recall at L3 (Figure 3)', svg: staircaseSvg(results) },
    { file: 'figure5-taxonomy.svg', caption: 'Taxonomy per version: API level for API-C@L2 and API-I, parameter level for API-C@L3 and SR (Figure 5)', svg: taxonomySvg(results) },
    { file: 'leaderboard.svg', caption: 'SEUS with its 95% bootstrap interval', svg: leaderboardSvg(compareRuns([results], results.seus.lambda, results.seus.gamma)) },
    ...(results.arms ? [{ file: 'arms.svg', caption: "Evolving APIs per task without and with anachron's answer in the prompt (the grounded arm), with 95% bootstrap intervals", svg: armsSvg(results) }] : []),
  ];
}

/** Aggregates the records and writes the run's report into `dir`; returns the results and the files written. */
export function writeRunReport(dir: string, scored: ScoredRun, options: ScoringOptions): { results: RunResults; files: string[] } {
  return writeScoredReport(dir, scored, aggregateResults(scored.records, options, scored.info));
}

/** Writes the report of a run already aggregated into `dir`; returns the results and the files written. */
export function writeScoredReport(dir: string, scored: ScoredRun, results: RunResults): { results: RunResults; files: string[] } {
  mkdirSync(dir, { recursive: true });
  writePredictions(join(dir, 'predictions.jsonl'), scored.records);
  const markdown = runMarkdown(results);
  const figures = runFigures(results);
  const files = writeReportFiles(dir, { json: { file: 'results.json', value: results }, csv: runCsvFiles(results), markdown, figures, title: `Benchmark results: ${results.run.label}` });
  return { results, files: ['predictions.jsonl', ...files] };
}

/** Writes the comparison of several runs (leaderboard, sweep with rank correlations, side-by-side figures). */
export function writeComparisonReport(dir: string, runs: readonly RunResults[], lambda: number, gamma: number): { comparison: Comparison; files: string[] } {
  const comparison = compareRuns(runs, lambda, gamma);
  const markdown = comparisonMarkdown(comparison, runs);
  const figures: ReportFigure[] = [
    { file: 'leaderboard.svg', caption: 'SEUS leaderboard with 95% bootstrap intervals (Table 7)', svg: leaderboardSvg(comparison) },
    { file: 'figure2-progression.svg', caption: 'Stable (dashed) and evolving (solid) APIs across normalised versions, averaged over libraries, by run (Figure 2)', svg: comparisonProgressionSvg(runs) },
    { file: 'figure3-staircase.svg', caption: 'API-C levels by run (Figure 3)', svg: comparisonStaircaseSvg(runs) },
  ];
  const title = `Benchmark comparison: ${runs.map((r) => r.run.label).join(', ')}`;
  const files = writeReportFiles(dir, { json: { file: 'comparison.json', value: comparison }, csv: comparisonCsvFiles(comparison), markdown, figures, title });
  return { comparison, files };
}
