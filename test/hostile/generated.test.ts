// Seeded hostile projects (test/support/hostile-generator.ts), each read and checked the way the CLI and the editor
// do it: the project walked, the pins of its file read from every manifest format, the file checked at those pins.
// Every case must finish without an exception, quote no byte of the secret kept outside the project nor write it into
// the project, and keep each problem short and free of control characters. The default run is small; the long run (reported in the closing
// note of issue 17) is:
//   ANACHRON_HOSTILE_CASES=10000 ANACHRON_HOSTILE_SEED=17 node --import tsx --test test/hostile/generated.test.ts
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { checkPythonSource } from '../../server/src/check-source.js';
import { MAX_PROBLEM_MESSAGE } from '../../server/src/core/excerpt.js';
import { withLoneCrAsNewline } from '../../server/src/core/manifests/index.js';
import { loadPythonParser, type PythonParser } from '../../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../../server/src/store/catalog.js';
import { MAX_SOURCE_BYTES, readBoundedText } from '../../server/src/workspace/bounded-read.js';
import { pinsForFile } from '../../server/src/workspace/manifests.js';
import { walkFiles } from '../../server/src/workspace/python-files.js';
import { REPO_ROOT } from '../support/cli.js';
import { seededRandom } from '../support/fuzz.js';
import { hostileProject } from '../support/hostile-generator.js';

const CASES = Number(process.env.ANACHRON_HOSTILE_CASES ?? 120);
const SEED = Number(process.env.ANACHRON_HOSTILE_SEED ?? 20261207);
const SECRET = `anachron-outside-${randomUUID()}`;

/** Regular files under `dir` (symlinks not followed: the generator links to the secret on purpose) that hold `text`. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      if (e.isDirectory()) stack.push(path);
      else if (e.isFile() && readFileSync(path, 'latin1').includes(text)) found.push(path);
    }
  }
  return found;
}

let parser: PythonParser;
let catalog: LoadedCatalog;
let scratch: string;
let outside: string;

before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog(join(REPO_ROOT, 'matrices'));
  scratch = mkdtempSync(join(tmpdir(), 'anachron-generated-'));
  outside = join(mkdtempSync(join(tmpdir(), 'anachron-outside-')), 'secret.txt');
  writeFileSync(outside, `${SECRET}==1.0\nnumpy==${SECRET}\n`);
});
after(() => {
  catalog?.close();
  rmSync(scratch, { recursive: true, force: true });
});

test(`${CASES} generated hostile projects (seed ${SEED}): read and checked, no exception, no secret, short problems`, (t) => {
  const random = seededRandom(SEED);
  let slowest = { ms: 0, at: -1, recipe: '' };
  const overTwoSeconds: string[] = [];
  let problems = 0;
  let findings = 0;
  let peakRss = process.memoryUsage().rss;
  for (let i = 0; i < CASES; i++) {
    const c = hostileProject(random, join(scratch, `case${i}`), outside);
    const started = process.hrtime.bigint();
    const where = `case ${i} (seed ${SEED}): ${c.recipe.join('; ')}`;
    let said = '';
    try {
      walkFiles(c.dir, (name) => name.endsWith('.py'));
      const pins = pinsForFile(c.file, { displayBase: c.dir });
      for (const p of pins.problems) {
        assert.ok(p.message.length <= MAX_PROBLEM_MESSAGE, `${where}: a problem of ${p.message.length} characters`);
        assert.doesNotMatch(p.message, /[\u0000-\u001f\u007f]/, `${where}: a control character in ${JSON.stringify(p.message)}`);
      }
      problems += pins.problems.length;
      const read = readBoundedText(c.file, MAX_SOURCE_BYTES);
      const found = read.text === undefined ? [] : checkPythonSource(parser, withLoneCrAsNewline(read.text), { catalog, pins: pins.pins, settings: pins.settings, localModules: pins.localModules });
      findings += found.length;
      said = JSON.stringify({ pins: [...pins.candidates.values()].flat(), problems: pins.problems, manifests: pins.manifests, found });
    } catch (e) {
      assert.fail(`${where}: ${(e as Error).stack}`);
    }
    assert.ok(!said.includes(SECRET), `${where}: the secret outside the project was read`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (ms > slowest.ms) slowest = { ms, at: i, recipe: c.recipe.join('; ') };
    if (ms > 2000) overTwoSeconds.push(`case ${i} ${ms.toFixed(0)} ms (${c.recipe.join('; ').slice(0, 200)})`);
    assert.deepEqual(filesHolding(c.dir, SECRET), [], `${where}: the secret was written into the project`);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    rmSync(c.dir, { recursive: true, force: true });
  }
  // Figures for the long run's report; nothing is asserted on them.
  t.diagnostic(`${CASES} cases: ${problems} problems, ${findings} findings; ${overTwoSeconds.length} over 2 s${overTwoSeconds.length ? ` [${overTwoSeconds.slice(0, 5).join(' | ')}]` : ''}, slowest case ${slowest.at} ${slowest.ms.toFixed(0)} ms (${slowest.recipe.slice(0, 300)}); peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
});
