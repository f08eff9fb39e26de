// CSV and Markdown tables of drift results, laid out like the paper's tables (2: fidelity, 3: error counts, 4: repair,
// 5: categories) plus the drift matrices and the comparison across runs. Pure: results in, text out.
import { FIGURES_MARKER, markdownTable, pct, toCsv } from '../reports/tables.js';
import type { DriftArmRow } from './arms.js';
import type { CellMean, PassAtKFigure, Proportion } from './metrics.js';
import { allHeadlines, headlines, type DriftHeadline, type DriftResults } from './report.js';

/** "75.0 [53.1, 89.1]": a proportion in percent with its Wilson interval. */
export function pctWilson(p: Proportion | null | undefined): string {
  if (!p || p.value === null) return '–';
  return p.ci ? `${pct(p.value)} [${pct(p.ci[0])}, ${pct(p.ci[1])}]` : pct(p.value);
}

function fraction(p: Proportion): string {
  return `${p.successes}/${p.n}`;
}

/**
 * "100.0 [98.6, 100.0]": a macro-averaged Pass@k with its Wilson interval over prompts (n = prompts). The samples of
 * one prompt are correlated (3 identical samples are one observation, not three), so beside the execution-level
 * Wilson interval the fidelity table shows this one, which counts each prompt once.
 */
export function pctPassAtK(x: PassAtKFigure | undefined): string {
  if (!x || x.value === null) return '–';
  return `${pct(x.value)}${x.ci ? ` [${pct(x.ci[0])}, ${pct(x.ci[1])}]` : ''}`;
}

/**
 * "62.5 [31.2, 86.1] clustered by 2 tasks (range 50.0–75.0, 2 cells; pooled 57.1 [25.0, 84.2])": a mean over
 * drift-matrix cells with its interval clustered by task, its range and the pooled rate with its Wilson interval.
 */
export function pctCellMean(m: CellMean): string {
  if (m.value === null) return '–';
  const range = m.range && m.cells > 1 ? `range ${pct(m.range[0])}–${pct(m.range[1])}, ` : '';
  const byTask = m.byTask?.ci ? ` [${pct(m.byTask.ci[0])}, ${pct(m.byTask.ci[1])}] clustered by ${m.byTask.tasks} task${m.byTask.tasks === 1 ? '' : 's'}` : '';
  return `${pct(m.value)}${byTask} (${range}${m.cells} cell${m.cells === 1 ? '' : 's'}; pooled ${pctWilson(m.pooled)})`;
}

/** "62.5 (50.0–75.0)": a headline's mean with its range over the cells. */
function pctRange(value: number | null, range: [number, number] | null): string {
  if (value === null) return '–';
  return range && range[0] !== range[1] ? `${pct(value)} (${pct(range[0])}–${pct(range[1])})` : pct(value);
}

/** "+25.8 [22.3, 29.2]": a difference in points with its interval. */
export function pointsWithCi(value: number | null, ci: [number, number] | null): string {
  if (value === null) return '–';
  const points = (x: number) => {
    const text = Math.abs(x * 100).toFixed(1);
    return text === '0.0' ? text : `${x > 0 ? '+' : '−'}${text}`;
  };
  return ci ? `${points(value)} [${points(ci[0])}, ${points(ci[1])}]` : points(value);
}

/** The name a row's scope goes by in tables and the CLI. */
export function scopeLabel(row: Pick<DriftArmRow, 'scope' | 'version'>): string {
  return row.scope === 'fidelity at version' ? `fidelity ${row.version}` : row.scope;
}

// ---- CSV ------------------------------------------------------------------------------------------------------------

export function driftCsvFiles(results: DriftResults): Record<string, string> {
  const k = results.settings.samplesPerPrompt;
  const ks = Array.from({ length: k }, (_, i) => i + 1);
  const matrixRows: unknown[][] = [];
  for (const l of results.results) {
    l.matrix.cells.forEach((row, i) =>
      row.forEach((c, j) => {
        if (!c) return;
        const lenient = l.lenient.cells[i]![j]!;
        matrixRows.push([l.library, c.prompted, c.environment, c.pass.n, c.pass.successes, c.pass.value, c.pass.ci?.[0], c.pass.ci?.[1], ...ks.map((x) => c.passAtK[x - 1]?.value), lenient.pass.value]);
      }),
    );
  }
  return {
    'drift-matrix.csv': toCsv(['library', 'prompted', 'environment', 'executions', 'passes', 'pass_at_1', 'ci_low', 'ci_high', ...ks.map((x) => `pass_at_${x}_unbiased`), 'pass_or_soft_fail'], matrixRows),
    'fidelity.csv': toCsv(
      ['library', 'version', 'executions', 'passes', 'pass_at_1', 'ci_low', 'ci_high', ...ks.flatMap((x) => [`pass_at_${x}`, `pass_at_${x}_prompts`, `pass_at_${x}_ci_low`, `pass_at_${x}_ci_high`])],
      results.results.flatMap((l) => l.matrix.fidelity.map((f) => [l.library, f.version, f.pass.n, f.pass.successes, f.pass.value, f.pass.ci?.[0], f.pass.ci?.[1], ...ks.flatMap((x) => [f.passAtK[x - 1]?.value, f.passAtK[x - 1]?.prompts, f.passAtK[x - 1]?.ci?.[0], f.passAtK[x - 1]?.ci?.[1]])])),
    ),
    'compatibility.csv': toCsv(
      ['library', 'measure', 'prompted', 'environment', 'value', 'cells', 'range_low', 'range_high', 'pooled', 'successes', 'n', 'pooled_ci_low', 'pooled_ci_high', 'tasks', 'effective_n', 'by_task_ci_low', 'by_task_ci_high'],
      results.results.flatMap((l) =>
        ([
          ['fidelity', l.matrix.meanFidelity],
          ['forward', l.matrix.forward],
          ['backward', l.matrix.backward],
        ] as const)
          .map(([name, m]): unknown[] => [l.library, name, '', '', m.value, m.cells, m.range?.[0], m.range?.[1], m.pooled.value, m.pooled.successes, m.pooled.n, m.pooled.ci?.[0], m.pooled.ci?.[1], m.byTask?.tasks, m.byTask?.effectiveN, m.byTask?.ci?.[0], m.byTask?.ci?.[1]])
          .concat(l.matrix.forwardDrops.map((d) => [l.library, 'forward-drop', d.prompted, d.environment, d.drop, '', '', '', '', '', '', '', '', '', '', '', ''])),
      ),
    ),
    'taxonomy.csv': toCsv(
      ['library', 'by', 'key', 'label', 'count', 'executions', 'share', 'ci_low', 'ci_high'],
      results.results.flatMap((l) => {
        const scopes: [string, typeof l.taxonomy.overall[]][] = [['all', [l.taxonomy.overall]], ['prompted', l.taxonomy.byPrompted], ['environment', l.taxonomy.byEnvironment], ['category', l.taxonomy.byCategory]];
        return scopes.flatMap(([by, rows]) => rows.flatMap((r) => Object.entries(r.shares).map(([label, p]) => [l.library, by, r.key, label, p.successes, p.n, p.value, p.ci?.[0], p.ci?.[1]])));
      }),
    ),
    'categories.csv': toCsv(
      ['library', 'category', 'tasks', 'executions', 'pass_at_1', 'ci_low', 'ci_high', 'min_task', 'max_task', 'fidelity_by_version'],
      results.results.flatMap((l) => l.categories.map((c) => [l.library, c.category, c.tasks, c.pass.n, c.pass.value, c.pass.ci?.[0], c.pass.ci?.[1], c.minTask, c.maxTask, c.fidelity.map((f) => `${f.version}=${f.pass.value === null ? '' : f.pass.value.toFixed(4)}`).join(';')])),
    ),
    ...(results.arms
      ? {
          'arms.csv': toCsv(
            ['library', 'scope', 'version', 'pairs', 'plain_passes', 'plain', 'plain_ci_low', 'plain_ci_high', 'grounded_passes', 'grounded', 'grounded_ci_low', 'grounded_ci_high', 'delta', 'delta_ci_low', 'delta_ci_high', 'improved', 'worsened', `plain_pass_at_${k}`, `grounded_pass_at_${k}`],
            results.arms.rows.map((r) => [r.library, r.scope, r.version ?? '', r.pairs, r.plain.successes, r.plain.value, r.plain.ci?.[0], r.plain.ci?.[1], r.grounded.successes, r.grounded.value, r.grounded.ci?.[0], r.grounded.ci?.[1], r.delta.value, r.delta.ci?.[0], r.delta.ci?.[1], r.improved, r.worsened, r.passAtK.plain[k - 1]?.value, r.passAtK.grounded[k - 1]?.value]),
          ),
          'drift-matrix-grounded.csv': toCsv(
            ['library', 'prompted', 'environment', 'executions', 'passes', 'pass_at_1', 'ci_low', 'ci_high', ...ks.map((x) => `pass_at_${x}_unbiased`)],
            results.arms.grounded.flatMap((l) => l.matrix.cells.flatMap((row) => row.filter((c) => c !== null).map((c) => [l.library, c!.prompted, c!.environment, c!.pass.n, c!.pass.successes, c!.pass.value, c!.pass.ci?.[0], c!.pass.ci?.[1], ...ks.map((x) => c!.passAtK[x - 1]?.value)]))),
          ),
        }
      : {}),
    'repair.csv': toCsv(
      ['library', 'target', 'attempts', 'model_failures', 'round', 'repaired', 'rate', 'ci_low', 'ci_high'],
      results.results.flatMap((l) => l.repair.flatMap((f) => f.byRound.map((r) => [l.library, f.target, f.attempts, f.modelFailures, r.round, r.repaired.successes, r.repaired.value, r.repaired.ci?.[0], r.repaired.ci?.[1]]))),
    ),
  };
}

// ---- Markdown -------------------------------------------------------------------------------------------------------

function headlineTable(rows: readonly DriftHeadline[], withRun: boolean): string {
  const k = Math.max(1, ...rows.map((r) => r.k));
  return markdownTable(
    [...(withRun ? ['run', 'model'] : []), 'library', 'mean fidelity (range)', 'fidelity, pooled', 'mean fidelity, clustered by task', 'forward', 'backward', 'largest forward drop', 'Pass@1', `Pass@${k}`, 'repair, 1 round', 'repair, all rounds', 'repairs'],
    rows.map((r) => [
      ...(withRun ? [r.run, r.model] : []),
      r.library,
      pctRange(r.fidelity, r.fidelityRange),
      r.fidelityPooled === null ? '–' : `${pct(r.fidelityPooled)}${r.fidelityPooledCi ? ` [${pct(r.fidelityPooledCi[0])}, ${pct(r.fidelityPooledCi[1])}]` : ''}`,
      r.fidelityByTaskCi ? `[${pct(r.fidelityByTaskCi[0])}, ${pct(r.fidelityByTaskCi[1])}]` : '–',
      pct(r.forward),
      pct(r.backward),
      r.largestDrop ? `${pct(r.largestDrop.drop)} (${r.largestDrop.prompted}→${r.largestDrop.environment})` : '–',
      pct(r.passAt1),
      pct(r.passAtK),
      pct(r.repairSingleShot),
      pct(r.repairAll),
      String(r.repairAttempts),
    ]),
    [...(withRun ? ['l', 'l'] as const : []), 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

/** The grounded arm beside the plain one: the comparison per scope, both drift matrices, both repair rates. */
export function driftArmsMarkdown(results: DriftResults): string {
  const arms = results.arms;
  if (!arms) return '';
  const k = results.settings.samplesPerPrompt;
  const out: string[] = [];
  out.push(`## Without and with anachron (the grounded arm)\n\n`);
  out.push(
    `Every generation prompt was asked twice: as it is (plain), and with anachron's lookup answers for the APIs its task names, at the prompted version, in a Documentation section (grounded). ` +
      `${arms.counts.plain.samples} plain and ${arms.counts.grounded.samples} grounded samples${arms.counts.ungrounded ? ` (${arms.counts.ungrounded} plain samples had nothing to look up: no grounded twin)` : ''}. ` +
      `A pair is a plain sample and its grounded twin run in the same environment. Pass@1 with 95% Wilson intervals; Δ = grounded − plain in points with Newcombe's 95% interval; ` +
      `turned: pairs passing in one arm only. Drifted prompts: the task's code at the prompted version differs from its code at the newest release. Repairs run in both arms with the same (plain) repair prompts.\n\n`,
  );
  out.push(
    markdownTable(
      ['library', 'cells', 'pairs', 'plain', 'grounded', 'Δ (points)', 'turned pass', 'turned fail', `Pass@${k} plain`, `Pass@${k} grounded`],
      arms.rows.map((r) => [r.library, scopeLabel(r), String(r.pairs), pctWilson(r.plain), pctWilson(r.grounded), pointsWithCi(r.delta.value, r.delta.ci), String(r.improved), String(r.worsened), pct(r.passAtK.plain[k - 1]?.value), pct(r.passAtK.grounded[k - 1]?.value)]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
  );
  for (const l of results.results) {
    const g = arms.grounded.find((x) => x.library === l.library);
    if (!g) continue;
    out.push(`\n### ${l.library}: D[s][t], plain → grounded (Pass@1)\n\n`);
    out.push(
      markdownTable(
        ['prompted \\ executed', ...l.versions],
        l.matrix.cells.map((row, i) => [l.versions[i]!, ...row.map((cell, j) => {
          const other = g.matrix.cells[i]?.[j];
          return cell || other ? `${pct(cell?.pass.value)} → ${pct(other?.pass.value)}` : '–';
        })]),
        ['l', ...l.versions.map(() => 'r' as const)],
      ),
    );
    const repairs = [['plain', l], ['grounded', g]] as const;
    if (repairs.some(([, x]) => x.repair.some((f) => f.attempts > 0))) {
      out.push(`\n${l.library}: repair by arm (all targets): ${repairs.map(([arm, x]) => {
        const all = x.repair.find((f) => f.target === 'all');
        return `${arm} ${all?.attempts ?? 0} cases, round 1 ${pctWilson(all?.byRound[0]?.repaired)}`;
      }).join('; ')}.\n`);
    }
  }
  return out.join('');
}

export function driftMarkdown(results: DriftResults): string {
  const out: string[] = [];
  const c = results.counts;
  const s = results.settings;
  const k = s.samplesPerPrompt;
  out.push(`# Drift results: ${results.run.label}\n\n`);
  out.push(
    `Model ${results.run.model}; ${c.samples} generated samples (${k} per prompt, temperature ${s.temperature}, at most ${s.maxTokens} tokens): ${c.answered} answered, ${c.modelFailures} model failures, ${c.pending} pending, ${c.noCode} without code. ${c.executions} executions (timeout ${Math.round(s.timeoutMs / 1000)} s); ${c.repairCases} repair cases, ${c.repairAttempts} repair attempts executed (up to ${s.repairRounds} rounds, migration notes ${s.migrationNotes ? 'from the matrices' : 'left out'}). Percentages; brackets are 95% Wilson score intervals. Pass means the test passed without a DeprecationWarning from the library (a soft fail is warning-level drift; other warning classes, FutureWarning or PendingDeprecationWarning among them, leave a pass a pass and are labelled "Pass, other warning (CLASS)" in the taxonomy); drift-matrix.csv also gives the share that passes or only warns.\n\n`,
  );
  out.push('## Summary\n\n');
  out.push(results.arms ? headlineTable(allHeadlines(results), true) : headlineTable(headlines(results), false));
  if (results.arms) out.push(`\n${driftArmsMarkdown(results)}`);
  out.push(`\n${FIGURES_MARKER}\n`);
  for (const l of results.results) {
    out.push(`\n## ${l.library}\n\n`);
    out.push(`### Drift matrix D[s][t] (Pass@1; rows prompted, columns executed)\n\n`);
    out.push(
      markdownTable(
        ['prompted \\ executed', ...l.versions],
        l.matrix.cells.map((row, i) => [l.versions[i]!, ...row.map((cell) => (cell ? `${pct(cell.pass.value)} (${fraction(cell.pass)})` : '–'))]),
        ['l', ...l.versions.map(() => 'r' as const)],
      ),
    );
    out.push(`\n### Version fidelity (Table 2)\n\n`);
    out.push(
      markdownTable(
        ['version', 'Pass@1', ...(k > 1 ? ['Pass@1, prompts as units', `Pass@${k}`] : []), 'executions', 'prompts'],
        l.matrix.fidelity.map((f) => [f.version, pctWilson(f.pass), ...(k > 1 ? [pctPassAtK(f.passAtK[0]), pctPassAtK(f.passAtK[k - 1])] : []), String(f.pass.n), String(f.passAtK[0]?.prompts ?? 0)]),
        ['l', 'r', ...(k > 1 ? ['r' as const, 'r' as const] : []), 'r', 'r'],
      ),
    );
    out.push(`\nMean fidelity (the mean of the diagonal cells) ${pctCellMean(l.matrix.meanFidelity)}; forward compatibility (the mean of the cells with t newer than s) ${pctCellMean(l.matrix.forward)}; backward (t older) ${pctCellMean(l.matrix.backward)}.\n`);
    if (l.matrix.forwardDrops.length) {
      out.push(`\n### Forward-compatibility drop D[s][s] − D[s][t]\n\n`);
      out.push(markdownTable(['prompted', 'executed', 'drop (points)'], l.matrix.forwardDrops.map((d) => [d.prompted, d.environment, pct(d.drop)]), ['l', 'l', 'r']));
    }
    out.push(`\n### Error taxonomy (Table 3)\n\n`);
    const labels = Object.keys(l.taxonomy.overall.counts);
    out.push(
      markdownTable(
        ['prompted', 'executions', ...labels],
        [...l.taxonomy.byPrompted, l.taxonomy.overall].map((r) => [r.key === 'all' ? 'all' : r.key, String(r.n), ...labels.map((x) => String(r.counts[x] ?? 0))]),
        ['l', 'r', ...labels.map(() => 'r' as const)],
      ),
    );
    out.push(`\n### Task categories (Table 5)\n\n`);
    out.push(
      markdownTable(
        ['category', 'tasks', 'Pass@1 (all environments)', 'min task', 'max task', ...l.versions.map((v) => `fidelity ${v}`)],
        l.categories.map((cat) => [cat.category, String(cat.tasks), pctWilson(cat.pass), pct(cat.minTask), pct(cat.maxTask), ...l.versions.map((v) => pct(cat.fidelity.find((f) => f.version === v)?.pass.value))]),
        ['l', 'r', 'r', 'r', 'r', ...l.versions.map(() => 'r' as const)],
      ),
    );
    out.push(`\n### Repair (Table 4)\n\n`);
    const rounds = s.repairRounds;
    if (rounds === 0) out.push('Repair was not run (drift.repairRounds = 0).\n');
    else if (!l.repair.some((f) => f.attempts > 0)) out.push('No repair was attempted: no sample passed on its prompted version and failed on a newer one.\n');
    else {
      out.push(
        markdownTable(
          ['target', 'attempts', ...Array.from({ length: rounds }, (_, i) => (i === 0 ? 'round 1 (single shot)' : `within ${i + 1} rounds`)), 'model failures'],
          l.repair.map((f) => [f.target, String(f.attempts), ...f.byRound.map((r) => pctWilson(r.repaired)), String(f.modelFailures)]),
          ['l', 'r', ...Array.from({ length: rounds }, () => 'r' as const), 'r'],
        ),
      );
    }
  }
  return out.join('');
}

// ---- comparison -----------------------------------------------------------------------------------------------------

export function driftComparisonMarkdown(runs: readonly DriftResults[]): string {
  const out: string[] = [];
  out.push(`# Drift comparison: ${runs.map((r) => r.run.label).join(', ')}\n\n`);
  out.push('Each run is one model. Percentages; brackets are 95% Wilson score intervals. Ordered by mean fidelity per library.\n\n');
  const rows = runs.flatMap(allHeadlines).sort((a, b) => (a.library < b.library ? -1 : a.library > b.library ? 1 : (b.fidelity ?? -1) - (a.fidelity ?? -1)));
  out.push(headlineTable(rows, true));
  out.push(`\n${FIGURES_MARKER}\n`);
  const libraries = [...new Set(runs.flatMap((r) => r.libraries))];
  for (const library of libraries) {
    const versions = [...new Set(runs.flatMap((r) => r.results.find((l) => l.library === library)?.versions ?? []))];
    out.push(`\n## ${library}: version fidelity by run (Table 2)\n\n`);
    out.push(
      markdownTable(
        ['run', ...versions],
        runs.map((r) => {
          const l = r.results.find((x) => x.library === library);
          return [r.run.label, ...versions.map((v) => pctWilson(l?.matrix.fidelity.find((f) => f.version === v)?.pass))];
        }),
        ['l', ...versions.map(() => 'r' as const)],
      ),
    );
    out.push(`\n## ${library}: repair by run (Table 4)\n\n`);
    out.push(
      markdownTable(
        ['run', 'target', 'attempts', 'round 1', 'all rounds'],
        runs.flatMap((r) => (r.results.find((x) => x.library === library)?.repair ?? []).filter((f) => f.attempts > 0).map((f) => [r.run.label, f.target, String(f.attempts), pctWilson(f.byRound[0]?.repaired), pctWilson(f.byRound[f.byRound.length - 1]?.repaired)])),
        ['l', 'l', 'r', 'r', 'r'],
      ),
    );
  }
  return out.join('');
}

export function driftComparisonCsv(runs: readonly DriftResults[]): Record<string, string> {
  const rows = runs.flatMap(allHeadlines);
  return {
    'leaderboard.csv': toCsv(
      ['run', 'model', 'library', 'fidelity', 'fidelity_range_low', 'fidelity_range_high', 'fidelity_pooled', 'fidelity_pooled_ci_low', 'fidelity_pooled_ci_high', 'fidelity_by_task_ci_low', 'fidelity_by_task_ci_high', 'forward', 'backward', 'forward_pooled', 'backward_pooled', 'largest_drop', 'largest_drop_from', 'largest_drop_to', 'pass_at_1', 'k', 'pass_at_k', 'repair_single_shot', 'repair_all_rounds', 'repair_attempts'],
      rows.map((r) => [r.run, r.model, r.library, r.fidelity, r.fidelityRange?.[0], r.fidelityRange?.[1], r.fidelityPooled, r.fidelityPooledCi?.[0], r.fidelityPooledCi?.[1], r.fidelityByTaskCi?.[0], r.fidelityByTaskCi?.[1], r.forward, r.backward, r.forwardPooled, r.backwardPooled, r.largestDrop?.drop, r.largestDrop?.prompted, r.largestDrop?.environment, r.passAt1, r.k, r.passAtK, r.repairSingleShot, r.repairAll, r.repairAttempts]),
    ),
  };
}
