// CSV and Markdown tables of a run's results and of a comparison of runs, laid out like the paper's tables (3, 5, 6,
// 7, 14 and the Figure 3 staircase). Pure: results in, text out.
import { runCoverage, type Comparison } from '../scoring/compare.js';
import { ALL, PRIMARY_METRIC, SCORING_UNITS, SEUS_UNITS, type MetricRow, type RunResults, type ScoringUnit } from '../scoring/types.js';
import { FIGURES_MARKER, markdownTable, pct, pctCi, toCsv } from '../../reports/tables.js';

function kinds(k: Record<string, number>): string {
  return Object.entries(k)
    .sort()
    .map(([name, n]) => `${name}=${n}`)
    .join(';');
}

export function unitLabel(unit: ScoringUnit): string {
  const metric = PRIMARY_METRIC[unit];
  return metric === 'exact' ? `${unit} exact` : `${unit} ${metric === 'f1' ? 'F1' : metric}`;
}

// ---- CSV ------------------------------------------------------------------------------------------------------------

export function runCsvFiles(results: RunResults): Record<string, string> {
  return {
    'metrics.csv': toCsv(
      ['library', 'unit', 'metric', 'group', 'version', 'n', 'mean', 'ci_low', 'ci_high'],
      results.metrics.map((m) => [m.library, m.unit, m.metric, m.group, m.version, m.n, m.mean, m.ci?.[0], m.ci?.[1]]),
    ),
    'taxonomy-api.csv': toCsv(
      ['library', 'unit', 'group', 'version', 'n', 'correct', 'invalid', 'anachronistic', 'unknown', 'failed'],
      results.taxonomy.api.map((t) => [t.library, t.unit, t.group, t.version, t.n, t.correct, t.invalid, t.anachronistic, t.unknown, t.failed]),
    ),
    'taxonomy-parameters.csv': toCsv(
      ['library', 'unit', 'group', 'version', 'samples', 'parameters', 'correct', 'anachronistic', 'unknown'],
      results.taxonomy.parameters.map((t) => [t.library, t.unit, t.group, t.version, t.samples, t.parameters, t.correct, t.anachronistic, t.unknown]),
    ),
    'failures.csv': toCsv(
      ['library', 'unit', 'samples', 'answered', 'extraction_failures', 'extraction_rate', 'extraction_kinds', 'model_failures', 'model_kinds', 'pending'],
      results.failures.map((f) => [f.library, f.unit, f.samples, f.answered, f.extraction, f.extractionRate, kinds(f.extractionKinds), f.model, kinds(f.modelKinds), f.pending]),
    ),
    'seus.csv': toCsv(
      ['library', 'unit', 'balanced', 'evolving_std', 'anachronism', 'stable', 'evolving', 'retention', 'term'],
      results.seus.components.map((c) => [c.library, c.unit, c.balanced, c.evolvingStd, c.anachronism, c.stable, c.evolving, c.retention, c.term]),
    ),
    'seus-versions.csv': toCsv(
      ['library', 'unit', 'version', 'stable', 'evolving', 'balanced', 'n_stable', 'n_evolving'],
      results.seus.components.flatMap((c) => c.versions.map((v) => [c.library, c.unit, v.version, v.stable, v.evolving, v.balanced, v.nStable, v.nEvolving])),
    ),
    'sweep.csv': toCsv(['lambda', 'gamma', 'seus'], results.seus.sweep.map((s) => [s.lambda, s.gamma, s.seus])),
    'ceiling.csv': toCsv(
      ['library', 'unit', 'version', 'questions', 'ceiling', 'unanswerable', 'unknown', 'ceiling_with_unanswerable'],
      (results.ceiling ?? []).map((r) => [r.library, r.unit, r.version, r.questions, r.ceiling, r.unanswerable, r.unknown, r.withUnanswerable]),
    ),
    ...(results.arms
      ? {
          'arms.csv': toCsv(
            ['library', 'unit', 'group', 'metric', 'pairs', 'plain', 'plain_ci_low', 'plain_ci_high', 'grounded', 'grounded_ci_low', 'grounded_ci_high', 'delta', 'delta_ci_low', 'delta_ci_high', 'improved', 'worsened', 'anachronistic_plain', 'anachronistic_grounded'],
            results.arms.rows.map((r) => [r.library, r.unit, r.group, r.metric, r.pairs, r.plain.mean, r.plain.ci?.[0], r.plain.ci?.[1], r.grounded.mean, r.grounded.ci?.[0], r.grounded.ci?.[1], r.delta.mean, r.delta.ci?.[0], r.delta.ci?.[1], r.improved, r.worsened, r.anachronistic.plain, r.anachronistic.grounded]),
          ),
        }
      : {}),
  };
}

/** A signed difference in points with its interval: "+22.7 [19.5, 25.9]". */
function deltaCi(d: number | null, ci: [number, number] | null | undefined): string {
  if (d === null) return '–';
  const sign = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;
  return ci ? `${sign(d)} [${sign(ci[0])}, ${sign(ci[1])}]` : sign(d);
}

/** The grounded arm's section: the model with and without anachron's answer, per task and group, side by side. */
export function armsMarkdown(results: RunResults): string {
  const arms = results.arms;
  if (!arms) return '';
  const out: string[] = ['## With and without anachron (grounded arm)\n\n'];
  out.push(
    `Each prompt was also asked with anachron's answer for it (the \`anachron_lookup\` tool at the sample's version) in a Documentation section. ` +
      `Per task and group, over the samples scored in both arms: the primary metric in each arm and the difference, with 95% bootstrap intervals (the difference's paired), ` +
      `the samples grounding turned right (↑) and wrong (↓), and the anachronistic share in each arm. ` +
      `SEUS: ${pctCi(arms.seus.plain, arms.seus.plainCi)} plain, ${pctCi(arms.seus.grounded, arms.seus.groundedCi)} grounded.` +
      (arms.ungrounded ? ` ${arms.ungrounded} samples (API-C@L0: no API name or description to look up) have no grounded twin.` : '') +
      '\n\n',
  );
  out.push(
    markdownTable(
      ['library', 'task', 'group', 'pairs', 'plain', 'grounded', 'Δ (points)', '↑', '↓', 'anachronistic plain → grounded'],
      arms.rows.filter((r) => r.group !== ALL || !arms.rows.some((x) => x.library === r.library && x.unit === r.unit && x.group !== ALL && x.pairs === r.pairs)).map((r) => [
        r.library,
        unitLabel(r.unit),
        r.group,
        String(r.pairs),
        pctCi(r.plain.mean, r.plain.ci),
        pctCi(r.grounded.mean, r.grounded.ci),
        deltaCi(r.delta.mean, r.delta.ci),
        String(r.improved),
        String(r.worsened),
        `${pct(r.anachronistic.plain)} → ${pct(r.anachronistic.grounded)}`,
      ]),
      ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  return out.join('');
}

export function comparisonCsvFiles(comparison: Comparison): Record<string, string> {
  return {
    'leaderboard.csv': toCsv(
      ['rank', 'run', 'model', 'seus', 'ci_low', 'ci_high', 'stable', 'evolving', 'retention', 'stability_penalty', 'anachronism_penalty', 'samples', 'table', 'coverage', 'subset'],
      comparison.leaderboard.map((r) => [r.rank, r.label, r.model, r.seus, r.ci?.[0], r.ci?.[1], r.stable, r.evolving, r.retention, r.stabilityPenalty, r.anachronismPenalty, r.samples, r.table, r.coverage, r.subset]),
    ),
    'sweep.csv': toCsv(
      ['lambda', 'gamma', 'spearman', ...comparison.leaderboard.map((r) => `seus:${r.label}`)],
      comparison.sweep.map((s) => [s.lambda, s.gamma, s.spearman, ...s.seus]),
    ),
  };
}

// ---- Markdown -------------------------------------------------------------------------------------------------------

function findMetric(results: RunResults, library: string, unit: ScoringUnit, group: string, version: string | null): MetricRow | undefined {
  const metric = PRIMARY_METRIC[unit];
  return results.metrics.find((m) => m.library === library && m.unit === unit && m.metric === metric && m.group === group && m.version === version);
}

function libraryKeys(results: RunResults): string[] {
  return results.libraries.length > 1 ? [...results.libraries, ALL] : [...results.libraries];
}

export function seusSummaryTable(results: RunResults): string {
  const s = results.seus;
  const h = s.headline;
  return markdownTable(
    ['SEUS', 'Stable', 'Evolving', 'Retention', 'Stability penalty', 'Anachronism penalty', `λ, γ`],
    [[pctCi(s.value, s.ci), pct(h.stable), pct(h.evolving), pct(h.retention), pct(h.stabilityPenalty), pct(h.anachronismPenalty), `${s.lambda}, ${s.gamma}`]],
    ['r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

/**
 * The perfect model's ceiling per task and version: what the ground truth, written as an answer, scores (100 where the
 * scorer reads every answerable question right), and what it would be with the unanswerable questions scored.
 */
export function ceilingMarkdown(results: RunResults): string {
  const rows = results.ceiling ?? [];
  if (rows.length === 0) return '';
  const out: string[] = ['\n## Perfect-model ceiling\n\n'];
  out.push(
    'The score of the ground truth written as the answer, per task and version. Questions with no correct answer at their version (an API-I cell where the API is absent and nothing replaced it) are not asked; "with them" is the ceiling had they been scored. "no answer to write": ground truths without a call or signature text, not counted.\n\n',
  );
  out.push(
    markdownTable(
      ['library', 'task', 'version', 'questions', 'ceiling', 'unanswerable', 'with them', 'no answer to write'],
      rows.map((r) => [r.library, unitLabel(r.unit), r.version ?? 'all', String(r.questions), pct(r.ceiling), String(r.unanswerable), pct(r.withUnanswerable), String(r.unknown)]),
      ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  return out.join('');
}

export function runMarkdown(results: RunResults): string {
  const c = results.counts;
  return [
    `# Benchmark results: ${results.run.label}\n\n`,
    `Model ${results.run.model ?? 'unknown'}; suite ${results.run.suite ?? 'unknown'}; ${c.samples} samples${c.unanswerable ? ` (and ${c.unanswerable} with no correct answer at their version, left out of every score)` : ''}: ${c.answered} answered (${c.extractionFailures} extraction failures), ${c.modelFailures} model failures, ${c.pending} pending. Scores in percent; brackets are the 95% percentile bootstrap interval [low, high] (${results.options.bootstrap} resamples, seed ${results.options.seed}; SEUS's the basic bootstrap interval, which corrects for its replicates sitting below the estimate), not symmetric about the estimate in general.\n\n`,
    seusMarkdown(results),
    results.arms ? `\n${armsMarkdown(results)}` : '',
    `\n${FIGURES_MARKER}\n`,
    stableEvolvingMarkdown(results),
    perVersionMarkdown(results),
    staircaseMarkdown(results),
    taxonomiesMarkdown(results),
    ceilingMarkdown(results),
    failuresMarkdown(results),
    sensitivityMarkdown(results),
  ].join('');
}

/** SEUS over the run's coverage, and its components per library and task. */
function seusMarkdown(results: RunResults): string {
  const out = ['## SEUS\n\n'];
  const coverage = runCoverage(results);
  out.push(`Over ${coverage.text}${coverage.subset ? ` — a SEUS ${coverage.subset}, not of the paper's four tasks` : ''}.\n\n`);
  out.push(seusSummaryTable(results));
  if (results.seus.excluded.length) out.push(`\nLeft out of SEUS: ${results.seus.excluded.map((e) => `${e.library} ${e.unit} (${e.reason})`).join('; ')}.\n\n`);
  out.push('\n### Components\n\n');
  out.push(
    markdownTable(
      ['library', 'task', 'E_v[B_v]', 'Std_v(E_v)', 'A', 'Stable', 'Evolving', 'Retention', 'term'],
      results.seus.components.map((x) => [x.library, unitLabel(x.unit), pct(x.balanced), pct(x.evolvingStd), pct(x.anachronism), pct(x.stable), pct(x.evolving), pct(x.retention), pct(x.term)]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  return out.join('');
}

/** Table 3: stable, evolving and all APIs per library and task. */
function stableEvolvingMarkdown(results: RunResults): string {
  const rows: string[][] = [];
  for (const lib of libraryKeys(results)) {
    for (const unit of SCORING_UNITS) {
      const st = findMetric(results, lib, unit, 'stable', null);
      const ev = findMetric(results, lib, unit, 'evolving', null);
      const all = findMetric(results, lib, unit, ALL, null);
      if (!all) continue;
      rows.push([lib, unitLabel(unit), pctCi(st?.mean, st?.ci), String(st?.n ?? 0), pctCi(ev?.mean, ev?.ci), String(ev?.n ?? 0), pctCi(all.mean, all.ci), String(all.n)]);
    }
  }
  return '\n## Stable and evolving APIs (Table 3)\n\n' + markdownTable(['library', 'task', 'Stable', 'n', 'Evolving', 'n', 'All', 'n'], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

function perVersionMarkdown(results: RunResults): string {
  const rows: string[][] = [];
  for (const lib of results.libraries) {
    for (const version of results.versions[lib] ?? []) {
      for (const unit of SCORING_UNITS) {
        const st = findMetric(results, lib, unit, 'stable', version);
        const ev = findMetric(results, lib, unit, 'evolving', version);
        if (!st && !ev) continue;
        rows.push([lib, version, unitLabel(unit), pct(st?.mean), String(st?.n ?? 0), pct(ev?.mean), String(ev?.n ?? 0)]);
      }
    }
  }
  return '\n## Per version\n\n' + markdownTable(['library', 'version', 'task', 'Stable', 'n', 'Evolving', 'n'], rows, ['l', 'l', 'l', 'r', 'r', 'r', 'r']);
}

/** Figure 3's staircase: exact match per API-C level (and L3's recall), per library and group; empty without API-C. */
function staircaseMarkdown(results: RunResults): string {
  if (!results.staircase.length) return '';
  const keys = [...new Set(results.staircase.map((s) => `${s.library}\u0000${s.group}`))];
  return '\n## API-C levels (Figure 3)\n\n' + markdownTable(
    ['library', 'group', 'L0 exact', 'L1 exact', 'L2 exact', 'L3 exact', 'L3 recall'],
    keys.map((k) => {
      const [lib, group] = k.split('\u0000') as [string, string];
      const at = (level: string) => results.staircase.find((s) => s.library === lib && s.group === group && s.level === level);
      return [lib, group, pct(at('L0')?.exact), pct(at('L1')?.exact), pct(at('L2')?.exact), pct(at('L3')?.exact), pct(at('L3')?.recall)];
    }),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
  );
}

/** The taxonomies over all versions (Tables 5 and 6): a section where there are rows; three label columns, the rest figures. */
function taxonomiesMarkdown(results: RunResults): string {
  const taxonomy = (heading: string, legend: string, header: string[], rows: string[][]) =>
    rows.length ? `\n## ${heading}\n\n${legend}\n\n${markdownTable(header, rows, header.map((_, i) => (i < 3 ? 'l' : 'r')))}` : '';
  return taxonomy(
    'API-level taxonomy (Table 5)',
    'Shares of answered samples: C correct, I invalid, A anachronistic, U unknown, F extraction failure.',
    ['library', 'task', 'group', 'n', 'C', 'I', 'A', 'U', 'F'],
    results.taxonomy.api.filter((t) => t.version === null)
      .map((t) => [t.library, t.unit, t.group, String(t.n), pct(t.correct), pct(t.invalid), pct(t.anachronistic), pct(t.unknown), pct(t.failed)]),
  ) + taxonomy(
    'Parameter-level taxonomy (Table 6)',
    'Shares of predicted parameters: C correct, A anachronistic, U unknown; the score is the task\'s metric.',
    ['library', 'task', 'group', 'score', 'samples', 'parameters', 'C', 'A', 'U'],
    results.taxonomy.parameters.filter((t) => t.version === null).map((t) => {
      const m = findMetric(results, t.library, t.unit, t.group, null);
      return [t.library, unitLabel(t.unit), t.group, pct(m?.mean), String(t.samples), String(t.parameters), pct(t.correct), pct(t.anachronistic), pct(t.unknown)];
    }),
  );
}

/** Table 14: extraction failures per library and unit, then the failures by kind where there are any. */
function failuresMarkdown(results: RunResults): string {
  const out = ['\n## Extraction failures (Table 14)\n\n'];
  out.push('Answered samples from which no prediction could be extracted, in percent; the model\'s own failures (never answered) are counted apart.\n\n');
  out.push(
    markdownTable(
      ['library', ...SCORING_UNITS, 'model failures', 'pending'],
      libraryKeys(results).map((lib) => {
        const rs = results.failures.filter((f) => f.library === lib);
        return [lib, ...SCORING_UNITS.map((u) => pct(rs.find((f) => f.unit === u)?.extractionRate)), String(rs.reduce((s, f) => s + f.model, 0)), String(rs.reduce((s, f) => s + f.pending, 0))];
      }),
      ['l', ...SCORING_UNITS.map(() => 'r' as const), 'r', 'r'],
    ),
  );
  const kindsSeen = results.failures.filter((f) => f.extraction > 0 || f.model > 0);
  if (kindsSeen.length) {
    out.push('\n' + markdownTable(['library', 'task', 'extraction failures by kind', 'model failures by kind'], kindsSeen.map((f) => [f.library, f.unit, kinds(f.extractionKinds) || '–', kinds(f.modelKinds) || '–'])));
  }
  return out.join('');
}

/** Appendix C: SEUS over the grid of λ and γ. */
function sensitivityMarkdown(results: RunResults): string {
  const grid = [...new Set(results.seus.sweep.map((s) => s.lambda))];
  return '\n## SEUS sensitivity (Appendix C)\n\n' + markdownTable(
    ['λ \\ γ', ...grid.map(String)],
    grid.map((l) => [String(l), ...grid.map((g) => pct(results.seus.sweep.find((s) => s.lambda === l && s.gamma === g)?.seus))]),
    ['l', ...grid.map(() => 'r' as const)],
  );
}

export function comparisonMarkdown(comparison: Comparison, runs: readonly RunResults[]): string {
  const out: string[] = [];
  out.push(`# Benchmark comparison: ${runs.length} runs\n\n`);
  out.push(`## SEUS leaderboard (Table 7), λ = ${comparison.lambda}, γ = ${comparison.gamma}\n\n`);
  // Runs are ranked only against runs over the same libraries, versions and tasks: one table each.
  if (comparison.tables.length > 1) out.push(`The runs cover ${comparison.tables.length} different sets of libraries, versions and tasks: each is ranked in its own table, and SEUS values from different tables do not compare.\n\n`);
  for (const t of comparison.tables) {
    if (comparison.tables.length > 1) out.push(`### Table ${t.table}: ${t.coverage}\n\n`);
    else out.push(`Over ${t.coverage}.\n\n`);
    out.push(
      markdownTable(
        ['rank', 'run', 'model', 'SEUS', 'Stable', 'Evolving', 'Retention', 'Stability', 'Anach.', 'samples'],
        comparison.leaderboard.filter((r) => r.table === t.table).map((r) => [String(r.rank), r.label, r.model ?? '–', `${pctCi(r.seus, r.ci)}${r.subset ? ` (${r.subset})` : ''}`, pct(r.stable), pct(r.evolving), pct(r.retention), pct(r.stabilityPenalty), pct(r.anachronismPenalty), String(r.samples)]),
        ['r', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
      ),
    );
    if (comparison.tables.length > 1) out.push('\n');
  }
  out.push(`\n${FIGURES_MARKER}\n`);
  out.push(`\n## Per task, stable and evolving\n\n`);
  const rows: string[][] = [];
  for (const r of comparison.leaderboard) {
    const res = runs.find((x) => x.run.label === r.label)!;
    for (const unit of SEUS_UNITS) {
      const st = res.metrics.find((m) => m.library === (res.libraries.length > 1 ? ALL : res.libraries[0]) && m.unit === unit && m.metric === PRIMARY_METRIC[unit] && m.group === 'stable' && m.version === null);
      const ev = res.metrics.find((m) => m.library === (res.libraries.length > 1 ? ALL : res.libraries[0]) && m.unit === unit && m.metric === PRIMARY_METRIC[unit] && m.group === 'evolving' && m.version === null);
      if (!st && !ev) continue;
      rows.push([r.label, unitLabel(unit), pctCi(st?.mean, st?.ci), pctCi(ev?.mean, ev?.ci)]);
    }
  }
  out.push(markdownTable(['run', 'task', 'Stable', 'Evolving'], rows, ['l', 'l', 'r', 'r']));
  out.push(`\n## Sensitivity to (λ, γ) (Appendix C)\n\n`);
  out.push(
    comparison.minSpearman === null
      ? 'Rank correlation needs at least two runs with a SEUS.\n\n'
      : `Spearman rank correlation with the ranking at the default weights${comparison.tables.length > 1 ? ', within each table' : ''}: minimum ${comparison.minSpearman.toFixed(3)} over ${comparison.sweep.length} settings.\n\n`,
  );
  out.push(
    markdownTable(
      ['λ', 'γ', 'Spearman ρ', ...comparison.leaderboard.map((r) => r.label)],
      comparison.sweep.map((s) => [String(s.lambda), String(s.gamma), s.spearman === null ? '–' : s.spearman.toFixed(3), ...s.seus.map(pct)]),
      ['r', 'r', 'r', ...comparison.leaderboard.map(() => 'r' as const)],
    ),
  );
  return out.join('');
}
