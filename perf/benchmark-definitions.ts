// What issue 22's definitions do to a library's LibEvoBench dataset, from its bundled matrix: how many cells the
// paper's na rule (point 1) takes from "absent" to na (resolvable but undocumented before the API is first documented,
// or between documented versions) and how many stay absent (not resolvable, or documentation dropped for good); how many APIs
// are evolving by the matrix's stored label (every tracked version, cell by cell) and over the run's versions
// (evolutionOver: the na rule, by what a caller can pass; points 3 and 4); and the dataset's API-I and SR questions
// (absent-cell questions asked, those skipped for want of a correct answer: point 2).
// Usage: node --import tsx perf/benchmark-definitions.ts [LIBRARY=numpy] [VERSIONS=all|v1,v2,…] [SEED=1]
import path from 'node:path';
import { buildDataset } from '../server/src/eval/libevobench/datasets/build.js';
import { evolutionOver } from '../server/src/eval/libevobench/datasets/sampling.js';
import { openMatrixCatalog } from '../server/src/store/catalog.js';
import type { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';

const library = process.argv[2] ?? 'numpy';
const versionsArg = process.argv[3] ?? 'all';
const seed = Number(process.argv[4] ?? 1);

const catalog = openMatrixCatalog(path.join(__dirname, '..', 'matrices'));
const matrix = catalog.matrices.find((m) => m.library === library) as SqliteMatrix | undefined;
if (!matrix) throw new Error(`no bundled matrix for ${library}`);
const versions = versionsArg === 'all' ? matrix.benchmarkVersions() : versionsArg.split(',');
const selected = new Set(versions);

const count = { gapOrLeading: 0, stillAbsent: 0, apisWithNewNa: 0, storedEvolving: 0, evolvingOverAll: 0, evolvingOverRun: 0 };
const apis = matrix.apiPaths();
for (const api of apis) {
  const history = matrix.groundTruth(api);
  const cells = matrix.cellStates(api);
  if (!history || !cells) continue;
  let moved = false;
  history.versions.forEach((cell, i) => {
    if (!selected.has(cell.version) || cells[i]!.state !== 'absent') return;
    if (cell.state === 'na') {
      count.gapOrLeading++;
      moved = true;
    } else count.stillAbsent++;
  });
  if (moved) count.apisWithNewNa++;
  if (history.evolution === 'evolving') count.storedEvolving++;
  if (evolutionOver(history, matrix.versions) === 'evolving') count.evolvingOverAll++;
  if (evolutionOver(history, versions) === 'evolving') count.evolvingOverRun++;
}

const t0 = performance.now();
const { samples, summary } = buildDataset({ libraries: [library], versions: { [library]: versions }, tasks: ['API-I', 'SR'], seed }, { matrices: catalog.matrices });
const ms = performance.now() - t0;
const apiI = samples.filter((s) => s.task === 'API-I');
const absentAsked = apiI.filter((s) => (s.groundTruth as { state?: string }).state === 'absent').length;
const skipped = summary.build.libraries.find((l) => l.library === library)!.apiI;

const n = (x: number) => x.toLocaleString('en-US');
console.log(`${library}: ${versions.length} of ${matrix.versions.length} tracked versions (${versions.length > 6 ? `${versions[0]} … ${versions.at(-1)}` : versions.join(', ')}), ${n(apis.length)} APIs in the benchmark view, seed ${seed}`);
console.log(`point 1, cells absent cell by cell at the run's versions: ${n(count.gapOrLeading)} resolvable, undocumented, leading or in a gap -> na (${n(count.apisWithNewNa)} APIs); ${n(count.stillAbsent)} stay absent (not resolvable, or documentation dropped for good)`);
console.log(`points 3-4, evolving APIs: stored label ${n(count.storedEvolving)}; evolutionOver all tracked versions ${n(count.evolvingOverAll)}; over the run's versions ${n(count.evolvingOverRun)}`);
console.log(`point 2, dataset (API-I + SR, ${ms.toFixed(0)} ms): API-I ${n(apiI.length)} questions, ${n(absentAsked)} of them absent cells; skipped: no correct answer ${n(skipped.unanswerable)}, no description ${n(skipped.noDescription)}, parent missing ${n(skipped.parentMissing)}; SR ${n(samples.length - apiI.length)}`);
