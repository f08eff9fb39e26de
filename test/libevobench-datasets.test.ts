// The dataset builder end to end on the bundled numpy matrix, with the generated example corpus and the hand-written
// fixture projects for API-C: determinism (same seed, byte-identical dataset), stable unique ids, every prompt
// round-tripping through the prompt contract, every sample consistent with the matrix, the Table 1 figures
// recomputable from the samples, and the reference models meeting the trapz/trapezoid mechanism. Prints the dataset's
// size per task and level and the build times.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildDataset, type Dataset, type DatasetConfig } from '../server/src/eval/libevobench/datasets/build.js';
import { corpusDigest, type CorpusFile } from '../server/src/eval/libevobench/datasets/corpus.js';
import { readCorpusFolder } from '../server/src/eval/libevobench/datasets/corpus-reader.js';
import { exampleNumpyCorpus, exampleNumpyProjects } from '../server/src/eval/libevobench/datasets/example-corpus.js';
import { evolutionOver } from '../server/src/eval/libevobench/datasets/sampling.js';
import { formatTable1, summarizeSamples } from '../server/src/eval/libevobench/datasets/summary.js';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { parsePrompt, renderPrompt, BENCH_LEVELS, BENCH_TASKS } from '../server/src/eval/libevobench/prompt-contract.js';
import { ReferenceModel } from '../server/src/eval/libevobench/reference-models.js';
import { selectSamples } from '../server/src/eval/runs/samples.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import type { SqliteMatrix } from '../server/src/store/sqlite-matrix.js';

const FIXTURES = join(__dirname, 'fixtures', 'bench-datasets', 'corpus');
const config: DatasetConfig = { libraries: ['numpy'], tasks: ['API-C', 'API-I', 'SR'], levels: BENCH_LEVELS, seed: 1 };

let parser: PythonParser;
let catalog: LoadedCatalog;
let numpy: SqliteMatrix;
let files: CorpusFile[];
let dataset: Dataset;
let buildMs: number;

function timed<T>(f: () => T): [T, number] {
  const t0 = performance.now();
  const out = f();
  return [out, performance.now() - t0];
}

before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog('matrices');
  const found = catalog.matrices.find((m) => m.library === 'numpy');
  assert.ok(found, `the bundled numpy matrix does not open: ${catalog.problems.join('; ')}`);
  numpy = found;
  files = [...exampleNumpyCorpus({ versions: numpy.benchmarkVersions(), projectsPerVersion: 3, seed: 1 }), ...readCorpusFolder(FIXTURES).map((f) => ({ ...f, path: `fixtures/${f.path}` }))];
  [dataset, buildMs] = timed(() => buildDataset(config, { matrices: catalog.matrices, corpus: { files, parser } }));
});
after(() => catalog?.close());

const stateAt = (api: string, version: string) => numpy.groundTruth(api)?.versions.find((c) => c.version === version);

describe('the dataset on the bundled numpy matrix', () => {
  test('sizes per task and level, and build times', () => {
    const [matrixOnly, matrixMs] = timed(() => buildDataset({ ...config, tasks: ['API-I', 'SR'] }, { matrices: catalog.matrices }));
    const count = (task: string, level: string | null = null) => dataset.samples.filter((s) => s.task === task && (level === null || s.level === level)).length;
    const figures = dataset.summary.libraries[0]!;
    const apiC = dataset.summary.build.apiC!;
    console.log(`numpy ${numpy.versions.join(', ')}; corpus ${files.length} files (${apiC.pool.kept} call sites kept, pool ${apiC.pool.pool}, discarded ${apiC.pool.discarded})`);
    console.log(`samples: ${dataset.samples.length} = API-C ${count('API-C')} (${BENCH_LEVELS.map((l) => `${l} ${count('API-C', l)}`).join(', ')}), API-I ${count('API-I')}, SR ${count('SR')}`);
    console.log(`build: ${Math.round(buildMs)} ms with API-C (${files.length} files), ${Math.round(matrixMs)} ms API-I + SR alone`);
    console.log(formatTable1(dataset.summary));
    console.log(`truncation: ${JSON.stringify(apiC.pool.truncation)}; tiers API-I ${JSON.stringify(figures.tasks['API-I']!.tiers)}, API-C ${JSON.stringify(figures.tasks['API-C']!.tiers)}`);
    assert.equal(matrixOnly.samples.length, count('API-I') + count('SR'));
    for (const task of BENCH_TASKS) assert.ok(count(task) > 0, task);
    for (const level of BENCH_LEVELS) assert.ok(count('API-C', level) > 0, level);
    assert.ok(apiC.pool.discarded > 0 && apiC.pool.truncation['method-removal'] > 0 && apiC.pool.truncation['function-scope'] > 0 && apiC.pool.truncation['class-scope'] > 0);
  });

  test('the same seed gives a byte-identical dataset; another seed reorders and re-picks, never renames', () => {
    const again = buildDataset(config, { matrices: catalog.matrices, corpus: { files: [...files].reverse(), parser } });
    assert.equal(JSON.stringify(again), JSON.stringify(dataset));
    const other = buildDataset({ ...config, seed: 2 }, { matrices: catalog.matrices, corpus: { files, parser } });
    assert.notDeepEqual(other.samples.slice(0, 50).map((s) => s.id), dataset.samples.slice(0, 50).map((s) => s.id));
    const evolving = (d: Dataset) => d.samples.filter((s) => s.evolving && s.task !== 'API-C').map((s) => s.id).sort();
    assert.deepEqual(evolving(other), evolving(dataset));
    // what a run identity would add for the corpus
    assert.equal(corpusDigest([...files].reverse()), corpusDigest(files));
    assert.notEqual(corpusDigest([{ ...files[0]!, text: files[0]!.text + '\n# edited\n' }, ...files.slice(1)]), corpusDigest(files));
  });

  test('ids are unique; every prompt round-trips through the prompt contract', () => {
    assert.equal(new Set(dataset.samples.map((s) => s.id)).size, dataset.samples.length);
    assert.equal(selectSamples(dataset.samples, { limit: 2000, shard: { index: 1, count: 4 } }).samples.length > 0, true);
    for (const s of dataset.samples) {
      const spec = parsePrompt(s.prompt);
      assert.deepEqual(renderPrompt(spec), s.prompt, s.id);
      assert.equal(spec.task, s.task);
      if (spec.task === 'API-C') assert.equal(spec.level, s.level);
      else assert.equal(spec.version, s.version);
      if (spec.task === 'SR' || (spec.task === 'API-C' && spec.level === 'L3')) assert.equal(spec.api, s.api);
      if (spec.task === 'API-C') assert.ok(spec.prefix.length <= 3000, s.id);
    }
  });

  test('every sample agrees with the matrix', () => {
    for (const s of dataset.samples) {
      const cell = stateAt(s.api, s.version);
      assert.ok(cell, `${s.api} has no cell at ${s.version}`);
      const gt = s.groundTruth as { presentIn: string[]; state?: string };
      assert.deepEqual(gt.presentIn, numpy.groundTruth(s.api)!.versions.filter((c) => c.state === 'present').map((c) => c.version));
      // stable and evolving over the dataset's versions (issue 22, point 3)
      assert.equal(s.evolving, evolutionOver(numpy.groundTruth(s.api)!, numpy.benchmarkVersions()) === 'evolving');
      if (s.task === 'API-I') {
        assert.notEqual(cell.state, 'na');
        assert.equal(gt.state, cell.state);
      } else {
        assert.equal(cell.state, 'present', s.id);
        if (s.task === 'SR') assert.ok(cell.signature);
      }
    }
  });

  test('trapz before numpy 2, trapezoid from 2: the corpus, the queries and the reference models', () => {
    const find = (task: string, api: string, version: string, level: string | null = null) =>
      dataset.samples.filter((s) => s.task === task && s.api === api && s.version === version && s.level === level);
    const legacy = find('API-C', 'numpy.trapz', '1.24.2', 'L2');
    assert.ok(legacy.some((s) => (s.groundTruth as { source: { file: string } }).source.file === 'fixtures/legacy/analysis.py'));
    assert.ok(find('API-C', 'numpy.trapezoid', '2.2.4', 'L2').some((s) => (s.groundTruth as { source: { file: string } }).source.file === 'fixtures/modern/integrate.py'));
    assert.deepEqual(find('API-C', 'numpy.trapz', '2.2.4', 'L0'), []);
    const [query] = find('API-I', 'numpy.trapezoid', '1.24.2');
    assert.ok(query);
    assert.deepEqual((query.groundTruth as { state: string; equivalents: string[] }).state, 'absent');
    assert.deepEqual((query.groundTruth as { equivalents: string[] }).equivalents, ['numpy.trapz']);
    // the version-aware reference model names the API of the pinned version, the oblivious one the newest
    const pinned = new ReferenceModel(catalog, listMatrixApis, 'pinned');
    const newest = new ReferenceModel(catalog, listMatrixApis, 'newest');
    assert.equal(pinned.answerPrompt(query.prompt), 'trapz');
    assert.equal(newest.answerPrompt(query.prompt), 'trapezoid');
    const l3 = find('API-C', 'numpy.trapz', '1.24.2', 'L3').find((s) => (s.groundTruth as { source: { file: string } }).source.file === 'fixtures/legacy/analysis.py');
    assert.ok(l3);
    assert.match(pinned.answerPrompt(l3.prompt), /trapz\(/);
  });

  test('the Table 1 figures are recomputed from the samples alone', () => {
    const surfaces = dataset.summary.libraries.map((l) => ({ library: l.library, versions: l.versions, surface: l.surface }));
    const { libraries, totals } = summarizeSamples(dataset.samples, surfaces);
    assert.deepEqual({ libraries, totals }, { libraries: dataset.summary.libraries, totals: dataset.summary.totals });
    const apiC = dataset.summary.libraries[0]!.tasks['API-C']!;
    assert.equal(apiC.instances, dataset.summary.build.apiC!.sampling.kept);
    const tiers = dataset.summary.libraries[0]!.tasks['API-I']!.tiers;
    assert.equal(Object.values(tiers).reduce((a, b) => a + b, 0), dataset.summary.libraries[0]!.tasks['API-I']!.instances);
  });

  test('a corpus folder written to disk reads back as the example corpus', () => {
    const root = mkdtempSync(join(tmpdir(), 'anachron-corpus-'));
    const projects = exampleNumpyProjects({ versions: numpy.versions, projectsPerVersion: 1, seed: 4 });
    for (const f of projects) {
      mkdirSync(dirname(join(root, f.path)), { recursive: true });
      writeFileSync(join(root, f.path), f.text);
    }
    const read = readCorpusFolder(root);
    const expected = exampleNumpyCorpus({ versions: numpy.versions, projectsPerVersion: 1, seed: 4 });
    const key = (fs: CorpusFile[]) => fs.map((f) => [f.path, f.pins, f.text]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    assert.deepEqual(key(read), key(expected));
  });
});
