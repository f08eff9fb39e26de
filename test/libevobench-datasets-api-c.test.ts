// API-C on synthetic matrices: call sites through the checker's analysis with Appendix D.1's de-duplication, the
// right context, the truncation cascade of Appendix F.6 (class scope, method removal, function scope, discard),
// import re-attachment, the 50-per-cell cap and the stable group's n snippets, the four levels and their round trip
// through the prompt contract, and corpora read from folders with their manifests.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Node } from 'web-tree-sitter';
import { apiCFileOrder } from '../server/src/eval/libevobench/datasets/api-c.js';
import { buildDataset, finishDataset, planDataset, type DatasetMatrix } from '../server/src/eval/libevobench/datasets/build.js';
import { harvestSetupOf } from '../server/src/eval/libevobench/datasets/harvest-setup.js';
import { runJobs } from '../server/src/cli/worker-pool.js';
import { emptyCallSiteStats, findCallSites, type TrackedLibrary } from '../server/src/eval/libevobench/datasets/call-sites.js';
import { corpusFromFiles, type CorpusFile } from '../server/src/eval/libevobench/datasets/corpus.js';
import { listPythonFiles, readCorpusFolder } from '../server/src/eval/libevobench/datasets/corpus-reader.js';
import { selectApis } from '../server/src/eval/libevobench/datasets/sampling.js';
import { buildSnippet, OMITTED_NOTE, rightContext, type Snippet, type SnippetResult } from '../server/src/eval/libevobench/datasets/snippets.js';
import { parsePrompt, renderPrompt } from '../server/src/eval/libevobench/prompt-contract.js';
import type { GroundTruthHistory } from '../server/src/core/ground-truth.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';

const stableFns = Array.from({ length: 10 }, (_, i) => api(`fakelib.s${i}`, 'function', [p('a')], `Compute statistic number ${i} of an array of samples.`));
const common = [
  api('fakelib', 'module'),
  api('fakelib.sub', 'module'),
  api('fakelib.mean', 'function', [p('a'), p('axis', 'poskw', 'None')], 'Compute the arithmetic average along an axis.'),
  api('fakelib.sub.solve', 'function', [p('a'), p('b')], 'Solve a linear system of equations.'),
  api('fakelib.Gen', 'class', [p('seed')], 'A random generator object.'),
  api('fakelib.Gen.draw', 'method', [p('size', 'poskw', 'None')], 'Draw samples from the generator.'),
  ...stableFns,
];
const v1 = surface('fakelib', '1.0', [
  ...common,
  api('fakelib.old', 'function', [p('y')], 'Integrate samples with the old rule.'),
  api('fakelib.grow', 'function', [p('a')], 'Grow the array by padding its edges.'),
  api('fakelib.nodoc', 'function', [p('a')]),
]);
const v2 = surface('fakelib', '2.0', [
  ...common,
  api('fakelib.new', 'function', [p('y')], 'Integrate samples with the new rule.'),
  api('fakelib.grow', 'function', [p('a'), p('mode', 'kw', "'edge'")], 'Grow the array by padding its edges.'),
  api('fakelib.nodoc', 'function', [p('a'), p('b')]),
]);

let parser: PythonParser;
let catalog: LoadedCatalog;
let matrix: DatasetMatrix;
let tracked: Map<string, TrackedLibrary>;

before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog(buildSyntheticMatrices([v1, v2]));
  matrix = catalog.matrices[0]!;
  const histories = new Map<string, GroundTruthHistory>(matrix.apiPaths().map((a) => [a, matrix.groundTruth(a)!]));
  tracked = new Map([['fakelib', { library: 'fakelib', distribution: 'fakelib', versions: matrix.versions, histories }]]);
});
after(() => catalog.close());

function callNode(text: string, callText: string): { node: Node; tree: ReturnType<PythonParser['parse']> } {
  const tree = parser.parse(text);
  const start = text.indexOf(callText);
  assert.ok(start >= 0, `no ${callText}`);
  let node: Node | null = tree.rootNode.descendantForIndex(start, start + callText.length);
  while (node && node.type !== 'call') node = node.parent;
  assert.ok(node && node.text === callText);
  return { node, tree };
}

function snippet(text: string, callText: string): SnippetResult {
  const { node, tree } = callNode(text, callText);
  try {
    return buildSnippet(text, tree, node, { libraries: new Set(['fakelib']) });
  } finally {
    tree.delete();
  }
}

function kept(result: SnippetResult): Snippet {
  assert.ok(!('discarded' in result), 'the snippet was discarded');
  return result;
}

/** A method of about `size` characters. */
function method(name: string, size: number, decorator = ''): string {
  const head = `${decorator ? `    ${decorator}\n` : ''}    def ${name}(self, a):\n        """${name}."""\n`;
  const body: string[] = [];
  for (let i = 0; head.length + body.join('').length < size; i++) body.push(`        a = a + ${i}  # ${name} step\n`);
  return head + body.join('') + '        return a\n';
}

/** Comment lines of 40 characters, at least `chars` in all. */
const filler = (chars: number) => Array.from({ length: Math.ceil(chars / 40) }, (_, i) => `# filler line ${String(i).padStart(4, '0')}`.padEnd(39, '.') + '\n').join('');

describe('call sites', () => {
  test('resolved through the analysis, present at the pin, outermost per line, first per name', () => {
    const text = [
      'import fakelib as fl',
      'from fakelib import sub',
      'from fakelib.sub import solve as sv',
      '',
      'def f(a, rest, opts):',
      '    b = fl.mean(fl.grow(a), axis=0)',
      '    c = fl.mean(a)',
      '    d = fl.grow(',
      '        a, fl.old(a))',
      '    e = sub.solve(a, b, *rest, **opts)',
      '    g = sv(a, b)',
      '    gen = fl.Gen(1)',
      '    h = gen.draw(size=3)',
      '    k = fl.new(a)',
      '    return fl.unknown(a)',
      '',
    ].join('\n');
    const file: CorpusFile = { path: 'a.py', text, pins: { fakelib: '1.0' } };
    const tree = parser.parse(text);
    const stats = emptyCallSiteStats();
    const sites = findCallSites(file, tree, tracked, stats).map((s) => s.site);
    tree.delete();
    assert.deepEqual(sites.map((s) => [s.api, s.line + 1, s.call]), [
      ['fakelib.mean', 6, 'fl.mean(fl.grow(a), axis=0)'],
      ['fakelib.grow', 8, 'fl.grow(\n        a, fl.old(a))'],
      ['fakelib.old', 9, 'fl.old(a)'],
      ['fakelib.sub.solve', 10, 'sub.solve(a, b, *rest, **opts)'],
      ['fakelib.Gen', 12, 'fl.Gen(1)'],
      ['fakelib.Gen.draw', 13, 'gen.draw(size=3)'],
    ]);
    assert.deepEqual(stats, { calls: 10, unpinned: 0, untrackedPin: 0, notPresent: 1, nested: 1, repeated: 2, kept: 6 });
    const [mean, , , solve, , draw] = sites;
    assert.deepEqual([mean!.callee, mean!.positional, mean!.keywords, mean!.unpacking, mean!.direct], ['fl.mean', ['fl.grow(a)'], [{ name: 'axis', value: '0' }], [], true]);
    assert.deepEqual([solve!.positional, solve!.unpacking], [['a', 'b'], ['*rest', '**opts']]);
    assert.deepEqual([draw!.callee, draw!.keywords, draw!.direct], ['gen.draw', [{ name: 'size', value: '3' }], false]);
    assert.equal(mean!.version, '1.0');
  });

  test('files without an exact pin, or pinned at an untracked version, give none', () => {
    const text = 'import fakelib as fl\nfl.mean([1])\n';
    for (const [pins, key] of [[{}, 'unpinned'], [{ fakelib: '3.0' }, 'untrackedPin']] as const) {
      const tree = parser.parse(text);
      const stats = emptyCallSiteStats();
      assert.deepEqual(findCallSites({ path: 'x.py', text, pins }, tree, tracked, stats), []);
      tree.delete();
      assert.equal(stats[key], 1);
    }
  });
});

describe('right context', () => {
  test('3 to 10 lines, ending at a def, class or decorator no deeper than the call', () => {
    const a = 'def f():\n    x = CALL\n    y = 1\n    z = 2\n\ndef g():\n    pass\n';
    assert.equal(rightContext(a, a.indexOf('CALL') + 4, 4), '\n    y = 1\n    z = 2\n');
    // the first three lines are always taken
    const b = 'def f():\n    return CALL\n\ndef g():\n    pass\ndef h():\n    pass\n';
    assert.equal(rightContext(b, b.indexOf('CALL') + 4, 4), '\n\ndef g():\n    pass\n');
    // at most ten; a deeper def does not end it, a decorator at the same level does
    const c = 'x = CALL  # tail\n' + Array.from({ length: 15 }, (_, i) => `a${i} = ${i}\n`).join('');
    assert.equal(rightContext(c, c.indexOf('CALL') + 4, 0), '  # tail\n' + Array.from({ length: 10 }, (_, i) => `a${i} = ${i}\n`).join(''));
    const d = '    x = CALL\n    a = 1\n    b = 2\n    c = 3\n        def inner():\n            pass\n    @decorator\n    def other():\n';
    assert.equal(rightContext(d, d.indexOf('CALL') + 4, 4), '\n    a = 1\n    b = 2\n    c = 3\n        def inner():\n            pass\n');
    assert.equal(rightContext('x = CALL', 8, 0), '');
  });
});

describe('the truncation cascade', () => {
  const header = 'import os\nimport fakelib as fl\nfrom fakelib import sub\nfrom fakelib.sub import solve\n';

  test('within the budget: the whole prefix, nothing re-attached', () => {
    const text = `${header}\nvalues = fl.mean([1, 2], axis=0)\nprint(values)\n`;
    assert.deepEqual(kept(snippet(text, 'fl.mean([1, 2], axis=0)')), { prefix: `${header}\nvalues = `, suffix: '\nprint(values)\n', truncation: 'none', removedMethods: 0, imports: [] });
  });

  test('class scope: the prefix starts at the class line, used library imports put back', () => {
    const text = `${header}${filler(3100)}\n\nclass Model:\n    def fit(self, a):\n        return fl.mean(a, axis=0)\n`;
    assert.deepEqual(kept(snippet(text, 'fl.mean(a, axis=0)')), {
      prefix: `import fakelib as fl\n${OMITTED_NOTE}\nclass Model:\n    def fit(self, a):\n        return `,
      suffix: '\n',
      truncation: 'class-scope',
      removedMethods: 0,
      imports: ['import fakelib as fl'],
    });
  });

  test('method removal: the farthest methods go first, decorators and trailing blank lines with them', () => {
    const methods = [method('m1', 900), method('m2', 900, '@staticmethod'), method('m3', 900), method('m4', 900), method('m5', 500)];
    const text = `${header}\nclass Model:\n    """A model."""\n\n${methods.join('\n\n')}\n    def target(self, a):\n        return sub.solve(a, a)\n`;
    const s = kept(snippet(text, 'sub.solve(a, a)'));
    assert.equal(s.truncation, 'method-removal');
    assert.equal(s.removedMethods, 2);
    assert.deepEqual(s.imports, ['from fakelib import sub']);
    assert.ok(s.prefix.length <= 3000);
    assert.ok(s.prefix.startsWith(`from fakelib import sub\n${OMITTED_NOTE}\nclass Model:\n    """A model."""\n\n    def m3(self, a):`), s.prefix.slice(0, 200));
    assert.ok(!s.prefix.includes('def m1') && !s.prefix.includes('def m2') && !s.prefix.includes('@staticmethod'));
    assert.ok(s.prefix.endsWith(`${methods[4]}\n    def target(self, a):\n        return `));
  });

  test('function scope: a standalone function is cut at its def line', () => {
    const text = `${header}\n${['one', 'two', 'three'].map((n) => `def ${n}(a):\n${filler(1200).replace(/^/gm, '    ')}    return a\n`).join('\n\n')}\n\n@decorator\ndef target(a):\n    b = solve(a, a)\n    return fl.mean(b)\n`;
    assert.deepEqual(kept(snippet(text, 'fl.mean(b)')), {
      prefix: `import fakelib as fl\nfrom fakelib.sub import solve\n${OMITTED_NOTE}\ndef target(a):\n    b = solve(a, a)\n    return `,
      suffix: '\n',
      truncation: 'function-scope',
      removedMethods: 0,
      imports: ['import fakelib as fl', 'from fakelib.sub import solve'],
    });
  });

  test('discard: module-level code, a function or a method that alone exceeds the budget', () => {
    assert.deepEqual(snippet(`${header}${filler(3100)}x = fl.mean([1])\n`, 'fl.mean([1])'), { discarded: 'too-long' });
    assert.deepEqual(snippet(`${header}def f(a):\n${filler(3100).replace(/^/gm, '    ')}    return fl.mean(a)\n`, 'fl.mean(a)'), { discarded: 'too-long' });
    assert.deepEqual(snippet(`${header}class C:\n${method('m1', 400)}\n${method('big', 3100).replace('        return a\n', '        return fl.mean(a)\n')}`, 'fl.mean(a)'), { discarded: 'too-long' });
  });

  test('at most 8 imports, only those the kept code uses, in source order', () => {
    const imports = Array.from({ length: 10 }, (_, i) => `from fakelib import s${i}`);
    const uses = Array.from({ length: 10 }, (_, i) => `    b = s${9 - i}(b)`).join('\n');
    const text = `${imports.join('\n')}\nimport fakelib.sub\nfrom fakelib import grow, nodoc\n${filler(3100)}\ndef f(a):\n    b = grow(a)\n${uses}\n    return fl.mean(b)\n`;
    const s = kept(snippet(text, 'fl.mean(b)'));
    assert.equal(s.truncation, 'function-scope');
    assert.deepEqual(s.imports, [...imports.slice(0, 8)]);
    assert.ok(s.prefix.startsWith(imports.slice(0, 8).join('\n') + `\n${OMITTED_NOTE}\ndef f(a):`));
  });
});

function fileSet(count: number, version: string, body: (i: number) => string): CorpusFile[] {
  return Array.from({ length: count }, (_, i) => corpusFromFiles([{ path: `v${version}/f${String(i).padStart(3, '0')}.py`, text: `import fakelib as fl\n\n${body(i)}` }], { fakelib: version })[0]!);
}

describe('API-C sampling and levels', () => {
  test('at most 50 snippets per (evolving API, version); the stable group gets m versions with n snippets', () => {
    const caps = { stableApis: 4, versionsPerApi: 1, snippetsPerCell: 3, apiCPerCell: 50 };
    const files = [
      ...fileSet(60, '2.0', (i) => `x = fl.grow([${i}], mode='edge')\n`),
      ...fileSet(8, '1.0', (i) => stableFns.map((f, k) => `r${k} = fl.${f.path.slice(8)}([${i}])`).join('\n') + `\nm = fl.mean([${i}])\n`),
      ...fileSet(8, '2.0', (i) => stableFns.map((f, k) => `r${k} = fl.${f.path.slice(8)}([${i}, ${k}])`).join('\n') + `\nm = fl.mean([${i}, 0])\n`),
    ];
    const { samples, summary } = buildDataset({ libraries: ['fakelib'], tasks: ['API-C', 'API-I', 'SR'], levels: ['L0'], sampling: caps, seed: 3 }, { matrices: [matrix], corpus: { files, parser } });
    const apiC = samples.filter((s) => s.task === 'API-C');
    assert.equal(apiC.filter((s) => s.api === 'fakelib.grow').length, 50);
    const group = selectApis('fakelib', [...tracked.get('fakelib')!.histories.values()], matrix.versions, caps, 3).stable;
    const called = group.filter((m) => /^fakelib\.(s\d|mean)$/.test(m.history.api)).length;
    assert.ok(called > 0, 'the seed puts called APIs in the group');
    // grow: 60 → 50; each called group API: 8 → 3 at its version, and its other version is left out entirely
    assert.deepEqual(summary.build.apiC!.sampling, { outsideStableGroup: 8 * 2 * (11 - called), beyondVersions: 8 * called, overCap: 10 + 5 * called, kept: 50 + 3 * called });
    const groupVersions = new Map(group.map((m) => [m.history.api, m.versions]));
    const stableC = apiC.filter((s) => !s.evolving);
    const cells = new Map<string, number>();
    for (const s of stableC) cells.set(`${s.api}@${s.version}`, (cells.get(`${s.api}@${s.version}`) ?? 0) + 1);
    for (const [cell, n] of cells) {
      const [a, v] = cell.split('@') as [string, string];
      assert.ok(groupVersions.has(a), `${a} is not in the control group`);
      assert.deepEqual(groupVersions.get(a), [v]);
      assert.equal(n, 3);
    }
    // the same population in the three tasks
    const stableApis = (task: string) => [...new Set(samples.filter((s) => s.task === task && !s.evolving).map((s) => s.api))].sort();
    assert.deepEqual(stableApis('API-I'), [...groupVersions.keys()].filter((a) => a !== 'fakelib').sort());
    assert.deepEqual(stableApis('SR'), [...groupVersions.keys()].filter((a) => a !== 'fakelib' && a !== 'fakelib.sub').sort());
    assert.ok(stableApis('API-C').every((a) => groupVersions.has(a)));
    // the same seed draws the same snippets
    const again = buildDataset({ libraries: ['fakelib'], tasks: ['API-C'], levels: ['L0'], sampling: caps, seed: 3 }, { matrices: [matrix], corpus: { files, parser } }).samples;
    assert.deepEqual(again.map((s) => s.id), apiC.map((s) => s.id));
  });

  test('the corpus read file by file over worker threads gives the same dataset', async () => {
    const files = [
      ...fileSet(12, '2.0', (i) => `x = fl.grow([${i}], mode='edge')\nfor k in range(3):\n    y = fl.mean(fl.grow([k]))\n`),
      ...fileSet(6, '1.0', (i) => stableFns.map((f, k) => `r${k} = fl.${f.path.slice(8)}([${i}])`).join('\n') + '\n'),
    ];
    const config = { libraries: ['fakelib'], tasks: ['API-C', 'SR'] as const, sampling: { stableApis: 4, versionsPerApi: 2, snippetsPerCell: 3, apiCPerCell: 5 }, seed: 9 };
    const inThisThread = buildDataset({ ...config, tasks: [...config.tasks] }, { matrices: [matrix], corpus: { files, parser } });
    const plan = planDataset({ ...config, tasks: [...config.tasks] }, [matrix]);
    const harvests = await runJobs('api-c-harvest', harvestSetupOf(plan.apiC!), apiCFileOrder(files), { threads: 2 });
    const overThreads = finishDataset(plan, harvests);
    assert.ok(inThisThread.samples.filter((s) => s.task === 'API-C').length > 10);
    assert.deepEqual(overThreads, inThisThread);
  });

  test('the four levels, their prompts round-trip, L1/L2 only with a description', () => {
    const text = 'import fakelib as fl\n\ndef f(a):\n    b = fl.grow(a)\n    c = fl.nodoc(b, a)\n    return c\n';
    const files = corpusFromFiles([{ path: 'src/f.py', text }], { fakelib: '2.0' });
    const { samples, summary } = buildDataset({ libraries: ['fakelib'], tasks: ['API-C'], seed: 1 }, { matrices: [matrix], corpus: { files, parser } });
    const grow = samples.filter((s) => s.api === 'fakelib.grow');
    assert.deepEqual(grow.map((s) => s.level), ['L0', 'L1', 'L2', 'L3']);
    const prefix = 'import fakelib as fl\n\ndef f(a):\n    b = ';
    const suffix = '\n    c = fl.nodoc(b, a)\n    return c\n';
    const description = 'Grow the array by padding its edges.';
    assert.deepEqual(grow.map((s) => parsePrompt(s.prompt)), [
      { task: 'API-C', level: 'L0', library: 'fakelib', prefix, suffix },
      { task: 'API-C', level: 'L1', library: 'fakelib', prefix, suffix, description: description.replace('Grow', '[API]') },
      { task: 'API-C', level: 'L2', library: 'fakelib', prefix, suffix, description: description.replace('Grow', '[API]'), version: '2.0' },
      { task: 'API-C', level: 'L3', library: 'fakelib', prefix, suffix, description: description.replace('Grow', '[API]'), version: '2.0', api: 'fakelib.grow' },
    ]);
    for (const s of grow) assert.deepEqual(renderPrompt(parsePrompt(s.prompt)), s.prompt);
    assert.ok(grow[2]!.prompt[1]!.content.includes('# requires: fakelib==2.0\n'));
    const gt = grow[3]!.groundTruth as Record<string, unknown>;
    assert.deepEqual(
      { ...gt, snippet: typeof gt.snippet },
      {
        snippet: 'string', api: 'fakelib.grow', name: 'grow', kind: 'function', call: 'fl.grow(a)', callee: 'fl.grow', positional: ['a'], keywords: [], unpacking: [], direct: true,
        presentIn: ['1.0', '2.0'], parameters: ['a', 'mode'], source: { file: 'src/f.py', line: 4, column: 9, truncation: 'none', removedMethods: 0, imports: 0 },
        description: { from: '2.0', tier: 'short' },
      },
    );
    // no description for nodoc: L0 and L3 only
    assert.deepEqual(samples.filter((s) => s.api === 'fakelib.nodoc').map((s) => s.level), ['L0', 'L3']);
    assert.equal(summary.build.apiC!.levels.noDescription, 2);
    assert.deepEqual(summary.libraries[0]!.levels, { L0: 2, L1: 1, L2: 1, L3: 2 });
  });
});

describe('corpora from folders', () => {
  const folder = join(__dirname, 'fixtures', 'bench-datasets', 'corpus');

  test('each file gets the exact pins of its nearest manifest; ranges and stray files get none', () => {
    assert.deepEqual(listPythonFiles(folder), ['legacy/analysis.py', 'legacy/pkg/helpers.py', 'loose.py', 'modern/integrate.py', 'ranged/script.py']);
    const files = readCorpusFolder(folder);
    assert.deepEqual(Object.fromEntries(files.map((f) => [f.path, f.pins])), {
      'legacy/analysis.py': { numpy: '1.24.2' },
      'legacy/pkg/helpers.py': { numpy: '1.24.2' },
      'loose.py': {},
      'modern/integrate.py': { numpy: '2.2.4' },
      'ranged/script.py': {},
    });
    const pinned = readCorpusFolder(folder, { pins: { NumPy: '2.4.6' } });
    assert.ok(pinned.every((f) => f.pins.numpy === '2.4.6'));
  });
});
