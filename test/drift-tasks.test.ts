// The drift suite's task files (tasks/drift/*.json) and their loaders: the shipped sets load and validate, the
// loader rejects malformed input naming the task and the field, the HumanEval-style loader reads JSON arrays and JSONL.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isValidSpecifier, satisfies } from '../server/src/core/versions';
import { DEFAULT_ANCHOR, loadAnyTaskFile, loadHumanEval, parseHumanEval } from '../server/src/eval/drift/humaneval';
import {
  DRIFT_CATEGORIES,
  coverageGrid,
  coverageIssues,
  definesName,
  formatIssue,
  harnessApiUses,
  isDriftCategory,
  loadTaskSet,
  newestSolution,
  oldestSolution,
  parseApiEntry,
  parseTaskSet,
  renderPrompt,
  solutionFor,
  type DriftTask,
  type DriftTaskIssue,
} from '../server/src/eval/drift/tasks';

const TASK_DIR = join(__dirname, '..', 'tasks', 'drift');

/** The environments each set was validated in: the four Debian ones (upstream versions of the Debian packages), and
 *  the three Qiskit releases of the quantum-api-drift paper. */
const ENVIRONMENTS: Record<string, string[]> = {
  numpy: ['1.19.5', '1.24.2', '2.2.4', '2.4.6'],
  scipy: ['1.6.0', '1.10.1', '1.15.3', '1.17.1'],
  torch: ['1.7.1', '1.13.1', '2.6.0', '2.14.1'],
  qiskit: ['0.43.3', '1.3.0', '2.0.0'],
};
const MINIMUM: Record<string, number> = { numpy: 40, scipy: 40, torch: 20, qiskit: 50 };
/** The quantum-api-drift paper's eight task categories, in its order. */
const PAPER_CATEGORIES = ['circuit-construction', 'gate-operations', 'transpilation', 'simulation-execution', 'measurement', 'classical-quantum', 'serialization', 'algorithms'];

function messages(issues: readonly DriftTaskIssue[]): string[] {
  return issues.map(formatIssue);
}

describe('shipped task sets', () => {
  for (const library of Object.keys(ENVIRONMENTS)) {
    test(`${library}.json loads, validates and covers 1.0-3.0 and the versions of its environments`, () => {
      const text = readFileSync(join(TASK_DIR, `${library}.json`), 'utf8');
      const r = loadTaskSet(text, { coverVersions: coverageGrid(ENVIRONMENTS[library]) });
      assert.ok(r.ok, r.ok ? '' : messages(r.issues).join('\n'));
      const set = r.taskSet;
      assert.equal(set.library, library);
      assert.equal(set.distribution, library);
      assert.ok(set.tasks.length >= MINIMUM[library]!, `${set.tasks.length} tasks`);
      assert.equal(new Set(set.tasks.map((t) => t.id)).size, set.tasks.length, 'ids are unique');

      const categories = new Set<string>();
      for (const t of set.tasks) {
        assert.ok(set.categories ? set.categories.includes(t.category) : isDriftCategory(t.category), `${t.id}: ${t.category}`);
        categories.add(t.category);
        assert.ok(t.id.startsWith(`${library}/`), t.id);
        assert.ok(t.prompt.startsWith('Using {library} v{version}, '), `${t.id}: the prompt starts with the version anchor`);
        assert.ok(t.prompt.includes(`\`${t.entryPoint}(`), `${t.id}: the prompt names the entry point`);
        assert.match(t.harness, /^def check\(candidate\):/m, t.id);
        assert.deepEqual(harnessApiUses(t), [], `${t.id}: the harness must not use the task's APIs`);
        assert.ok(t.solutions.length >= 2, `${t.id}: at least two eras`);
        for (const s of t.solutions) {
          assert.ok(isValidSpecifier(s.versions), `${t.id}: ${s.versions}`);
          assert.ok(definesName(s.code, t.entryPoint), `${t.id} ${s.versions}: defines ${t.entryPoint}`);
          assert.ok(!/\t/.test(s.code), `${t.id}: no tabs`);
        }
        // Exactly one solution per environment's version, and per version of the 1.0-3.0 grid.
        for (const v of ENVIRONMENTS[library]!) {
          assert.equal(t.solutions.filter((s) => satisfies(v, s.versions)).length, 1, `${t.id} at ${v}`);
        }
        assert.deepEqual(coverageIssues(t, coverageGrid(ENVIRONMENTS[library])), [], t.id);
        // The newest solution is the open-ended one, and differs from the oldest.
        const newest = newestSolution(t)!;
        assert.ok(satisfies('9999.0', newest.versions), `${t.id}: newest ${newest.versions}`);
        assert.notEqual(newest, oldestSolution(t), `${t.id}: the newest and oldest solutions differ`);
        for (const api of t.apis) assert.ok(parseApiEntry(api), `${t.id}: ${api}`);
      }
      assert.ok(categories.size >= 6, `${library} spans ${[...categories].join(', ')}`);
    });
  }

  test("qiskit.json: the paper's eight categories, each with at least five tasks, its version anchor, no execute() in a harness", () => {
    const set = parseTaskSet(readFileSync(join(TASK_DIR, 'qiskit.json'), 'utf8'));
    assert.deepEqual(set.categories, PAPER_CATEGORIES);
    assert.deepEqual(set.versions, ENVIRONMENTS.qiskit, 'the versions editors and CI make environments for');
    for (const c of PAPER_CATEGORIES) assert.ok(set.tasks.filter((t) => t.category === c).length >= 5, c);
    for (const t of set.tasks) {
      assert.ok(t.prompt.startsWith('Using {library} v{version}, '), t.id);
      // Version-agnostic harnesses: no execution API, simulator backend or primitive that changed across releases.
      assert.doesNotMatch(t.harness, /\bexecute\(|BasicAer|BasicSimulator|Sampler|Estimator|\.run\(/, t.id);
      assert.ok(t.solutions.every((s) => !/\bAer\b|qiskit_aer/.test(s.code)), `${t.id}: solutions use the built-in simulators only`);
    }
  });

  test('every change-kind category is used across the numpy, scipy and torch sets', () => {
    const used = new Set<string>();
    for (const library of ['numpy', 'scipy', 'torch']) {
      for (const t of parseTaskSet(readFileSync(join(TASK_DIR, `${library}.json`), 'utf8')).tasks) used.add(t.category);
    }
    assert.deepEqual([...used].sort(), [...DRIFT_CATEGORIES].sort());
  });

  test('a file declaring its categories: tasks must use one of them; the declaration is checked', () => {
    const file = (categories: unknown, category: string) => JSON.stringify({ library: 'numpy', distribution: 'numpy', categories, tasks: [task({ category })] });
    assert.ok(loadTaskSet(file(['arrays', 'io'], 'io')).ok);
    const unknown = loadTaskSet(file(['arrays', 'io'], 'renamed'));
    assert.ok(!unknown.ok && messages(unknown.issues).some((m) => /numpy\/double: category: unknown category "renamed" \(expected one of arrays, io\)/.test(m)), JSON.stringify(unknown));
    const twice = loadTaskSet(file(['io', 'io'], 'io'));
    assert.ok(!twice.ok && messages(twice.issues).some((m) => /categories: names a category twice/.test(m)));
    const bad = loadTaskSet(file('io', 'io'));
    assert.ok(!bad.ok && messages(bad.issues).some((m) => /categories: must be a non-empty list/.test(m)));
    const versions = (v: unknown) => loadTaskSet(JSON.stringify({ library: 'numpy', distribution: 'numpy', versions: v, tasks: [task()] }));
    assert.deepEqual((versions(['1.24.2', '2.2.4']) as { taskSet: { versions: string[] } }).taskSet.versions, ['1.24.2', '2.2.4']);
    for (const bad of [[], ['2.2.4', '1.24.2'], ['one'], '1.24.2']) {
      const r = versions(bad);
      assert.ok(!r.ok && messages(r.issues).some((m) => /^versions: must be/.test(m)), JSON.stringify(bad));
    }
  });

  test('the README table lists the task counts of the files', () => {
    const readme = readFileSync(join(TASK_DIR, 'README.md'), 'utf8');
    for (const library of Object.keys(ENVIRONMENTS)) {
      const n = parseTaskSet(readFileSync(join(TASK_DIR, `${library}.json`), 'utf8')).tasks.length;
      assert.match(readme, new RegExp(`\\| \`${library}\\.json\` \\| ${library} \\| ${n} \\|`));
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------

const HARNESS = 'def check(candidate):\n    assert candidate(1) == 2\n';

function task(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'numpy/double',
    category: 'renamed',
    prompt: 'Using {library} v{version}, write a Python function `double(x)` that doubles x.',
    entryPoint: 'double',
    harness: HARNESS,
    solutions: [
      { versions: '>=2.0', code: 'import numpy as np\ndef double(x):\n    return np.multiply(x, 2)\n' },
      { versions: '<2.0', code: 'def double(x):\n    return x * 2\n' },
    ],
    apis: ['numpy.multiply'],
    ...overrides,
  };
}

function file(tasks: unknown[], top: Record<string, unknown> = {}): string {
  return JSON.stringify({ library: 'numpy', distribution: 'numpy', tasks, ...top });
}

function issuesOf(text: string): string[] {
  const r = loadTaskSet(text);
  assert.equal(r.ok, false, 'expected the file to be rejected');
  return r.ok ? [] : messages(r.issues);
}

describe('loader', () => {
  test('a well-formed file loads', () => {
    const r = loadTaskSet(file([task()]));
    assert.ok(r.ok, r.ok ? '' : messages(r.issues).join('\n'));
    const t = r.taskSet.tasks[0]!;
    assert.equal(t.entryPoint, 'double');
    assert.equal(solutionFor(t, '1.24.2')?.versions, '<2.0');
    assert.equal(solutionFor(t, '2.4.6')?.versions, '>=2.0');
    assert.equal(newestSolution(t)?.versions, '>=2.0');
    assert.equal(oldestSolution(t)?.versions, '<2.0');
  });

  test('invalid JSON is reported with its line and column', () => {
    const [msg] = issuesOf('{\n  "library": "numpy",\n  "tasks": [,]\n}');
    assert.match(msg!, /invalid JSON at line 3, column \d+/);
  });

  test('a file that is not an object, or lacks its fields', () => {
    assert.match(issuesOf('[]')[0]!, /must hold a JSON object with library, distribution and tasks/);
    const msgs = issuesOf(JSON.stringify({ library: 'numpy' }));
    assert.ok(msgs.includes('distribution: missing'), msgs.join('\n'));
    assert.ok(msgs.includes('tasks: missing'), msgs.join('\n'));
    assert.ok(issuesOf(file([])).includes('tasks: must hold at least one task'));
    assert.ok(issuesOf(file([task()], { extra: 1 })).some((m) => m.startsWith('extra: unknown field')));
  });

  test('missing and mistyped task fields name the task and the field', () => {
    const t = task();
    delete t.harness;
    assert.ok(issuesOf(file([t])).includes('numpy/double: harness: missing'));
    assert.ok(issuesOf(file([task({ entryPoint: 3 })])).includes('numpy/double: entryPoint: must be a string, not a number'));
    assert.ok(issuesOf(file([task({ entryPoint: 'not valid' })])).some((m) => m.startsWith('numpy/double: entryPoint: "not valid" is not a Python identifier')));
    assert.ok(issuesOf(file([task({ entrypoint: 'double' })])).some((m) => m.startsWith('numpy/double: entrypoint: unknown field')));
    assert.ok(issuesOf(file(['nope'])).includes('tasks[0]: must be an object, not the string "nope"'));
    const noId = task();
    delete noId.id;
    assert.ok(issuesOf(file([noId])).includes('tasks[0].id: missing'));
  });

  test('ids: prefix and uniqueness', () => {
    assert.ok(issuesOf(file([task({ id: 'scipy/double' })])).includes('scipy/double: id: must start with "numpy/"'));
    const msgs = issuesOf(file([task(), task()]));
    assert.ok(msgs.includes('numpy/double: id: duplicate id (also tasks[0])'), msgs.join('\n'));
  });

  test('unknown categories are rejected', () => {
    const msgs = issuesOf(file([task({ category: 'renaming' })]));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: category: unknown category "renaming" (expected one of renamed, removed,')), msgs.join('\n'));
  });

  test('prompts need both placeholders and the entry point', () => {
    let msgs = issuesOf(file([task({ prompt: 'Using numpy v{version}, write a Python function `double(x)`.' })]));
    assert.ok(msgs.includes('numpy/double: prompt: must contain the placeholder {library}'), msgs.join('\n'));
    msgs = issuesOf(file([task({ prompt: 'Using {library}, write a Python function `double(x)`.' })]));
    assert.ok(msgs.includes('numpy/double: prompt: must contain the placeholder {version}'), msgs.join('\n'));
    msgs = issuesOf(file([task({ prompt: 'Using {library} v{version}, write a function that doubles.' })]));
    assert.ok(msgs.includes('numpy/double: prompt: must name the entry point `double`'), msgs.join('\n'));
  });

  test('the harness must define check(candidate)', () => {
    const msgs = issuesOf(file([task({ harness: 'def test(candidate):\n    pass\n' })]));
    assert.ok(msgs.includes('numpy/double: harness: must define check(candidate) at its top level'), msgs.join('\n'));
  });

  test('solutions: specifiers, code, coverage, overlap and the open upper end', () => {
    const sol = (versions: string, code = 'def double(x):\n    return 2 * x\n') => ({ versions, code });
    let msgs = issuesOf(file([task({ solutions: [sol('>=2.0,'), sol('<2.0')] })]));
    assert.ok(msgs.includes('numpy/double: solutions[0].versions: ">=2.0," is not a valid PEP 440 specifier'), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [sol('>=2.0', 'def triple(x):\n    return 3 * x\n'), sol('<2.0')] })]));
    assert.ok(msgs.includes('numpy/double: solutions[0].code: does not define `double` at its top level'), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [sol('>=2.0'), sol('<1.20')] })]));
    assert.ok(msgs.some((m) => m.startsWith("numpy/double: solutions: no solution's versions admit 1.20.0")), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [sol('>=1.20'), sol('<2.0')] })]));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: solutions: several solutions admit the same version: 1.20.0 (">=1.20", "<2.0")')), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [sol('>=2.0,<4'), sol('<2.0')] })]));
    assert.ok(msgs.includes('numpy/double: solutions: exactly one solution must have an open upper end (the newest versions)'), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [] })]));
    assert.ok(msgs.includes('numpy/double: solutions: must hold at least one solution'), msgs.join('\n'));
    msgs = issuesOf(file([task({ solutions: [{ versions: '', code: 'def double(x):\n    return 2 * x\n', python: '3' }] })]));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: solutions[0].python: unknown field')), msgs.join('\n'));
  });

  test('coverage can be checked against chosen versions only', () => {
    const r = loadTaskSet(file([task({ solutions: [{ versions: '>=2.0', code: 'def double(x):\n    return 2 * x\n' }] })]), { coverVersions: [] });
    assert.ok(r.ok);
    assert.deepEqual(coverageIssues(r.taskSet.tasks[0]!, ['2.2.4', '2.4.6']), []);
    assert.equal(coverageIssues(r.taskSet.tasks[0]!, ['1.24.2'])[0]?.message, "no solution's versions admit 1.24.2");
  });

  test('apis are dotted paths of the library, optionally with a keyword', () => {
    let msgs = issuesOf(file([task({ apis: ['scipy.integrate.simps'] })]));
    assert.ok(msgs.includes('numpy/double: apis[0]: "scipy.integrate.simps" is not an API of numpy'), msgs.join('\n'));
    msgs = issuesOf(file([task({ apis: ['numpy.unique(equal_nan=True)'] })]));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: apis[0]:')), msgs.join('\n'));
    msgs = issuesOf(file([task({ apis: [] })]));
    assert.ok(msgs.includes('numpy/double: apis: must name at least one API'), msgs.join('\n'));
    assert.deepEqual(parseApiEntry('numpy.unique(equal_nan)'), { path: 'numpy.unique', keyword: 'equal_nan' });
    assert.deepEqual(parseApiEntry('numpy.trapz'), { path: 'numpy.trapz', keyword: null });
    assert.equal(parseApiEntry('numpy..trapz'), null);
  });

  test('every problem is reported, not only the first', () => {
    const msgs = issuesOf(file([task({ category: 'x', entryPoint: 'd-d' }), task({ id: 'numpy/other', harness: '' })]));
    assert.ok(msgs.length >= 3, msgs.join('\n'));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: category')));
    assert.ok(msgs.some((m) => m.startsWith('numpy/double: entryPoint')));
    assert.ok(msgs.some((m) => m.startsWith('numpy/other: harness: must not be empty')));
  });

  test('parseTaskSet throws one error listing the problems', () => {
    assert.throws(() => parseTaskSet(file([task({ category: 'x' })]), { source: 'numpy.json' }), (e: Error) => {
      assert.equal(e.name, 'DriftTaskFormatError');
      assert.match(e.message, /^numpy\.json: 1 problem in the drift task file\n {2}numpy\/double: category: unknown category "x"/);
      return true;
    });
  });

  test('harness API check: attributes, imports and keywords of the listed APIs', () => {
    const t = (harness: string, apis: string[]): Pick<DriftTask, 'harness' | 'apis'> => ({ harness, apis });
    assert.deepEqual(harnessApiUses(t('def check(candidate):\n    assert np.trapz([1], [1]) == 0\n', ['numpy.trapz'])), ['numpy.trapz']);
    assert.deepEqual(harnessApiUses(t('def check(candidate):\n    from numpy import trapz\n', ['numpy.trapz'])), ['numpy.trapz']);
    assert.deepEqual(harnessApiUses(t('def check(candidate):\n    np.unique([1.0], equal_nan=True)\n', ['numpy.unique(equal_nan)'])), ['numpy.unique(equal_nan)']);
    // float64 is not float; the builtin float() is not numpy.float.
    assert.deepEqual(harnessApiUses(t('def check(candidate):\n    assert candidate().dtype == np.float64 and float(1)\n', ['numpy.float'])), []);
  });

  test('prompts render only the exact placeholders', () => {
    const p = renderPrompt({ prompt: 'Using {library} v{version}, return {"a": 1} or {lib}.' }, 'numpy', '2.2.4');
    assert.equal(p, 'Using numpy v2.2.4, return {"a": 1} or {lib}.');
  });

  test('definesName finds top-level definitions only', () => {
    assert.ok(definesName('import x\n\ndef f(a):\n    return a\n', 'f'));
    assert.ok(definesName('async def f():\n    pass\n', 'f'));
    assert.ok(definesName('f = lambda a: a\n', 'f'));
    assert.ok(!definesName('def g():\n    def f():\n        pass\n', 'f'));
    assert.ok(!definesName('def fx():\n    pass\n', 'f'));
    assert.ok(!definesName('f == 1\n', 'f'));
  });
});

// ---------------------------------------------------------------------------------------------------------------

const HE = [
  {
    task_id: 'qiskit/0',
    prompt: 'from qiskit import QuantumCircuit\n\ndef bell():\n    """Return a Bell-state circuit; uses {} in a dict literal."""\n',
    canonical_solution: '    qc = QuantumCircuit(2)\n    qc.h(0)\n    qc.cx(0, 1)\n    return qc\n',
    test: 'def check(candidate):\n    qc = candidate()\n    assert qc.num_qubits == 2\n',
    entry_point: 'bell',
  },
  {
    task_id: 'qiskit/1',
    prompt: 'def ghz(n):\n    """GHZ state on n qubits."""\n',
    test: 'def check(candidate):\n    assert candidate(3).num_qubits == 3\n',
    entry_point: 'ghz',
    category: 'circuit construction',
    apis: ['qiskit.QuantumCircuit.cx'],
  },
];

describe('HumanEval-style files', () => {
  test('a JSON array maps into drift tasks', () => {
    const r = loadHumanEval(JSON.stringify(HE), { library: 'qiskit' });
    assert.ok(r.ok, r.ok ? '' : messages(r.issues).join('\n'));
    const [a, b] = r.taskSet.tasks;
    assert.equal(r.taskSet.library, 'qiskit');
    assert.equal(r.taskSet.distribution, 'qiskit');
    assert.equal(a!.id, 'qiskit/0');
    assert.equal(a!.entryPoint, 'bell');
    assert.equal(a!.category, 'uncategorized');
    assert.equal(a!.prompt, `${DEFAULT_ANCHOR.replace('ENTRY', 'bell')}\n\n${HE[0]!.prompt}`);
    assert.ok(a!.prompt.includes('{library}') && a!.prompt.includes('{version}'));
    assert.equal(a!.harness, HE[0]!.test);
    assert.deepEqual(a!.solutions, [{ versions: '', code: HE[0]!.prompt + HE[0]!.canonical_solution }]);
    assert.equal(solutionFor(a!, '0.43.3'), a!.solutions[0]);
    assert.deepEqual(a!.apis, []);
    assert.equal(b!.category, 'circuit construction');
    assert.deepEqual(b!.solutions, []);
    assert.deepEqual(b!.apis, ['qiskit.QuantumCircuit.cx']);
    // Braces in the HumanEval prompt survive rendering.
    assert.match(renderPrompt(a!, 'Qiskit', '1.3'), /^Using Qiskit v1\.3, complete the following Python function `bell`:\n\nfrom qiskit[\s\S]*uses \{\} in a dict literal/);
  });

  test('JSON Lines, with blank lines, options and a prompt that already has the anchor', () => {
    const lines = [
      JSON.stringify(HE[0]),
      '',
      JSON.stringify({ ...HE[1], task_id: 7, prompt: 'Using {library} v{version}, write `ghz(n)`.\n' }),
      '',
    ].join('\n');
    const r = loadHumanEval(lines, { library: 'qiskit', distribution: 'qiskit-terra', idPrefix: 'qhe', category: 'misc', solutionVersions: '>=1.0' });
    assert.ok(r.ok, r.ok ? '' : messages(r.issues).join('\n'));
    assert.deepEqual(r.taskSet.tasks.map((t) => t.id), ['qiskit/0', 'qhe/7']);
    assert.equal(r.taskSet.distribution, 'qiskit-terra');
    assert.equal(r.taskSet.tasks[0]!.category, 'misc');
    assert.equal(r.taskSet.tasks[0]!.solutions[0]!.versions, '>=1.0');
    assert.equal(r.taskSet.tasks[1]!.prompt, 'Using {library} v{version}, write `ghz(n)`.\n');
  });

  test('malformed records are rejected with the record and the field', () => {
    const bad = [
      JSON.stringify({ task_id: 'a', prompt: 'def f():\n', entry_point: 'f' }),
      '{"task_id": "b", "prompt": ',
    ].join('\n');
    let r = loadHumanEval(bad, { library: 'qiskit' });
    assert.equal(r.ok, false);
    assert.match(messages(r.ok ? [] : r.issues)[0]!, /^line 2: invalid JSON/);

    r = loadHumanEval(
      [
        JSON.stringify({ task_id: 'a', prompt: 'def f():\n', entry_point: 'f' }),
        JSON.stringify({ task_id: 'b', prompt: 'def g():\n', entry_point: 'g', test: 'assert True\n' }),
        JSON.stringify({ prompt: 'def h():\n', entry_point: 'h', test: HARNESS }),
        JSON.stringify({ task_id: 'c', prompt: 'def k():\n', entry_point: 'k x', test: HARNESS }),
        JSON.stringify({ task_id: 'd', prompt: 'x = 1\n', entry_point: 'k', test: HARNESS, canonical_solution: 'y = 2\n' }),
        JSON.stringify([1]),
      ].join('\n'),
      { library: 'qiskit' },
    );
    assert.equal(r.ok, false);
    const msgs = messages(r.ok ? [] : r.issues);
    assert.ok(msgs.includes('a: test: missing (a string)'), msgs.join('\n'));
    assert.ok(msgs.includes('b: test: must define check(candidate) at its top level'), msgs.join('\n'));
    assert.ok(msgs.includes('line 3.task_id: missing (a string)'), msgs.join('\n'));
    assert.ok(msgs.includes('c: entry_point: "k x" is not a Python identifier'), msgs.join('\n'));
    assert.ok(msgs.includes('d: canonical_solution: prompt + canonical_solution does not define `k`'), msgs.join('\n'));
    assert.ok(msgs.includes('line 6: must be a JSON object'), msgs.join('\n'));
  });

  test('duplicate ids, empty files and bad options', () => {
    let r = loadHumanEval(JSON.stringify([HE[0], HE[0]]), { library: 'qiskit' });
    assert.ok(!r.ok && messages(r.issues).includes('qiskit/0: task_id: duplicate task_id (also record 0)'));
    r = loadHumanEval('\n\n', { library: 'qiskit' });
    assert.ok(!r.ok && messages(r.issues)[0] === 'no task records');
    r = loadHumanEval('[1', { library: 'qiskit' });
    assert.ok(!r.ok && /^invalid JSON array/.test(messages(r.issues)[0]!));
    r = loadHumanEval(JSON.stringify(HE), { library: 'qiskit', anchor: 'Using {library}:' });
    assert.ok(!r.ok && messages(r.issues)[0] === 'options.anchor must contain {library} and {version}');
    r = loadHumanEval(JSON.stringify(HE), { library: 'qiskit', solutionVersions: '>=1,' });
    assert.ok(!r.ok && /solutionVersions/.test(messages(r.issues)[0]!));
    assert.throws(() => parseHumanEval('[]', { library: '', source: 'x.jsonl' }), /x\.jsonl: 1 problem in the HumanEval task file/);
  });

  test('loadAnyTaskFile tells the formats apart', () => {
    const drift = loadAnyTaskFile(file([task()]));
    assert.ok(drift.ok);
    assert.equal(drift.format, 'drift');
    const jsonl = loadAnyTaskFile(HE.map((r) => JSON.stringify(r)).join('\n'), { humanEval: { library: 'qiskit' } });
    assert.ok(jsonl.ok);
    assert.equal(jsonl.format, 'humaneval');
    const single = loadAnyTaskFile(JSON.stringify(HE[0]), { humanEval: { library: 'qiskit' } });
    assert.ok(single.ok && single.taskSet.tasks.length === 1 && single.format === 'humaneval');
    const array = loadAnyTaskFile(JSON.stringify(HE), {});
    assert.ok(!array.ok && /needs the library/.test(messages(array.issues)[0]!));
  });
});
