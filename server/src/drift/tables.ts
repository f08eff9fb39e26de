// CSV and Markdown tables of drift results, laid out like the paper's tables (2: fidelity, 3: error counts, 4: repair,
// 5: categories) plus the drift matrices and the comparison across runs. Pure: results in, text out.
import { FIGURES_MARKER, markdownTable, pct, toCsv } from '../bench/reports/tables.js';
import type { Proportion } from './metrics.js';
import { headlines, type DriftHeadline, type DriftResults } from './report.js';

/** "75.0 [53.1, 89.1]": a proportion in percent with its Wilson interval. */
export function pctWilson(p: Proportion | null | undefined): string {
  if (!p || p.value === null) return '–';
  return p.ci ? `${pct(p.value)} [${pct(p.ci[0])}, ${pct(p.ci[1])}]` : pct(p.value);
}

function fraction(p: Proportion): string {
  return `${p.successes}/${p.n}`;
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
      ['library', 'measure', 'prompted', 'environment', 'value', 'successes', 'n', 'ci_low', 'ci_high'],
      results.results.flatMap((l) => [
        ['fidelity', l.matrix.meanFidelity],
        ['forward', l.matrix.forward],
        ['backward', l.matrix.backward],
      ].map(([name, p]) => [l.library, name, '', '', (p as Proportion).value, (p as Proportion).successes, (p as Proportion).n, (p as Proportion).ci?.[0], (p as Proportion).ci?.[1]]).concat(
        l.matrix.forwardDrops.map((d) => [l.library, 'forward-drop', d.prompted, d.environment, d.drop, '', '', '', '']),
      )),
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
    [...(withRun ? ['run', 'model'] : []), 'library', 'fidelity (Pass@1)', 'forward', 'backward', 'largest forward drop', 'Pass@1', `Pass@${k}`, 'repair, 1 round', 'repair, all rounds', 'repairs'],
    rows.map((r) => [
      ...(withRun ? [r.run, r.model] : []),
      r.library,
      r.fidelity === null ? '–' : `${pct(r.fidelity)}${r.fidelityCi ? ` [${pct(r.fidelityCi[0])}, ${pct(r.fidelityCi[1])}]` : ''}`,
      pct(r.forward),
      pct(r.backward),
      r.largestDrop ? `${pct(r.largestDrop.drop)} (${r.largestDrop.prompted}→${r.largestDrop.environment})` : '–',
      pct(r.passAt1),
      pct(r.passAtK),
      pct(r.repairSingleShot),
      pct(r.repairAll),
      String(r.repairAttempts),
    ]),
    [...(withRun ? ['l', 'l'] as const : []), 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

export function driftMarkdown(results: DriftResults): string {
  const out: string[] = [];
  const c = results.counts;
  const s = results.settings;
  const k = s.samplesPerPrompt;
  out.push(`# Drift results: ${results.run.label}\n\n`);
  out.push(
    `Model ${results.run.model}; ${c.samples} generated samples (${k} per prompt, temperature ${s.temperature}, at most ${s.maxTokens} tokens): ${c.answered} answered, ${c.modelFailures} model failures, ${c.pending} pending, ${c.noCode} without code. ${c.executions} executions (timeout ${Math.round(s.timeoutMs / 1000)} s); ${c.repairCases} repair cases, ${c.repairAttempts} repair attempts executed (up to ${s.repairRounds} rounds, migration notes ${s.migrationNotes ? 'from the matrices' : 'left out'}). Percentages; brackets are 95% Wilson score intervals. Pass means the test passed without deprecation warnings from the library (a soft fail is warning-level drift); drift-matrix.csv also gives the share that passes or only warns.\n\n`,
  );
  out.push('## Summary\n\n');
  out.push(headlineTable(headlines(results), false));
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
        ['version', 'Pass@1', ...(k > 1 ? [`Pass@${k}`] : []), 'executions'],
        l.matrix.fidelity.map((f) => [f.version, pctWilson(f.pass), ...(k > 1 ? [(() => {
          const x = f.passAtK[k - 1];
          return x?.value === null || x?.value === undefined ? '–' : `${pct(x.value)}${x.ci ? ` [${pct(x.ci[0])}, ${pct(x.ci[1])}]` : ''}`;
        })()] : []), String(f.pass.n)]),
        ['l', 'r', ...(k > 1 ? ['r' as const] : []), 'r'],
      ),
    );
    out.push(`\nMean fidelity ${pctWilson(l.matrix.meanFidelity)}; forward compatibility (t newer than s) ${pctWilson(l.matrix.forward)}; backward (t older) ${pctWilson(l.matrix.backward)}.\n`);
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
  const rows = runs.flatMap(headlines).sort((a, b) => (a.library < b.library ? -1 : a.library > b.library ? 1 : (b.fidelity ?? -1) - (a.fidelity ?? -1)));
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
  const rows = runs.flatMap(headlines);
  return {
    'leaderboard.csv': toCsv(
      ['run', 'model', 'library', 'fidelity', 'fidelity_ci_low', 'fidelity_ci_high', 'forward', 'backward', 'largest_drop', 'largest_drop_from', 'largest_drop_to', 'pass_at_1', 'k', 'pass_at_k', 'repair_single_shot', 'repair_all_rounds', 'repair_attempts'],
      rows.map((r) => [r.run, r.model, r.library, r.fidelity, r.fidelityCi?.[0], r.fidelityCi?.[1], r.forward, r.backward, r.largestDrop?.drop, r.largestDrop?.prompted, r.largestDrop?.environment, r.passAt1, r.k, r.passAtK, r.repairSingleShot, r.repairAll, r.repairAttempts]),
    ),
  };
}
