// Migration notes generated from the bundled matrices (numpy and scipy): what differs for a piece of code between two
// versions, with replacements spelled through the code's own aliases; the prompts (generation, repair, read back)
// and code extraction; the built-in reference models answering them, the oblivious one applying the notes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { listMatrixApis } from '../server/src/store/api-listing.js';
import { migrationNotes, spellLike, type MigrationNotes } from '../server/src/knowledge/migration-notes.js';
import { extractPythonCode, generationPrompt, parseRepairPrompt, repairPrompt } from '../server/src/eval/drift/prompts.js';
import { applyMigrationNotes, dropKeyword, DriftReferenceModel, newestSolution, solutionFor } from '../server/src/eval/drift/reference-models.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';

const MATRICES = join(__dirname, '..', 'matrices');
let catalog: LoadedCatalog;
let parser: PythonParser;

before(async () => {
  catalog = openMatrixCatalog(MATRICES);
  parser = await loadPythonParser();
});
after(() => catalog.close());

function notes(code: string, library: string, from: string, to: string): MigrationNotes {
  const tree = parser.parse(code);
  try {
    return migrationNotes({ tree, code, catalog, library, from, to, listing: listMatrixApis });
  } finally {
    tree.delete();
  }
}

describe('migration notes from the matrices', () => {
  test('numpy: np.trapezoid from 2.2.4 to 1.24.2 is np.trapz there; the keyword 1.19.5 lacks', () => {
    const code = 'import numpy as np\n\n\ndef area(y, x):\n    return np.trapezoid(y, x)\n';
    const n = notes(code, 'numpy', '2.2.4', '1.24.2');
    assert.equal(n.items.length, 1);
    const [item] = n.items;
    assert.equal(item!.kind, 'api');
    assert.equal(item!.line, 5);
    assert.equal(item!.api, 'numpy.trapezoid');
    assert.equal(item!.written, 'np.trapezoid');
    assert.equal(item!.replacement, 'numpy.trapz');
    assert.equal(item!.replacementBasis, 'documentation');
    assert.equal(item!.replacementWritten, 'np.trapz');
    assert.equal(item!.alsoAtSource, false);
    assert.match(n.text, /^Migration notes for this code, numpy 2\.2\.4 → 1\.24\.2 \(downgrade\)/);
    assert.match(n.text, /- line 5: `np\.trapezoid` \(numpy\.trapezoid\) is not in numpy 1\.24\.2\. It exists in numpy [^\n]+\. Use `np\.trapz` instead\.$/m);

    const kw = notes('import numpy as np\n\ndef u(a):\n    return np.unique(a, equal_nan=False)\n', 'numpy', '2.2.4', '1.19.5');
    const p = kw.items.find((i) => i.kind === 'parameter')!;
    assert.deepEqual([p.api, p.parameter, p.line], ['numpy.unique', 'equal_nan', 4]);
    assert.match(p.targetSignature!, /^unique\(ar, /);
    assert.ok(!p.targetSignature!.includes('equal_nan'));
    assert.match(kw.text, /`numpy\.unique` takes no keyword `equal_nan` in numpy 1\.19\.5/);
  });

  test('a from-import is spelled as a bare name; code without differences gets a note saying so', () => {
    const n = notes('from numpy import trapezoid\n\ndef area(y):\n    return trapezoid(y)\n', 'numpy', '2.2.4', '1.24.2');
    const item = n.items.find((i) => i.api === 'numpy.trapezoid')!;
    assert.equal(item.written, 'trapezoid');
    assert.equal(item.replacementWritten, 'trapz');
    const none = notes('import numpy as np\n\ndef f(x):\n    return np.sum(x)\n', 'numpy', '1.24.2', '2.2.4');
    assert.deepEqual(none.items, []);
    assert.match(none.text, /No API or keyword this code uses differs between numpy 1\.24\.2 and 2\.2\.4/);
    assert.match(notes('import fakelib\n', 'fakelib', '1', '2').text, /No compatibility matrix for fakelib/);
  });

  test('scipy: removed integrators have their successors, module aliases kept', () => {
    const code = 'import scipy.integrate as si\n\ndef f(y):\n    return si.simps(y), si.cumtrapz(y)\n';
    const n = notes(code, 'scipy', '1.6.0', '1.17.1');
    const byApi = new Map(n.items.map((i) => [i.api, i] as const));
    assert.equal(byApi.get('scipy.integrate.simps')?.replacementWritten, 'si.simpson');
    assert.equal(byApi.get('scipy.integrate.cumtrapz')?.replacementWritten, 'si.cumulative_trapezoid');
    assert.match(n.text, /`si\.simps` \(scipy\.integrate\.simps\) is not in scipy 1\.17\.1/);
  });

  test('qiskit: a method follows its class to the replacement without a note of its own; a same-name hint keeps the kind', () => {
    const code = "from qiskit.quantum_info import OneQubitEulerDecomposer\n\ndef zyz(u):\n    return OneQubitEulerDecomposer('ZYZ').angles_and_phase(u)\n";
    const n = notes(code, 'qiskit', '0.43.3', '1.3.0');
    assert.deepEqual(n.items.map((i) => [i.line, i.api, i.replacement]), [[1, 'qiskit.quantum_info.OneQubitEulerDecomposer', 'qiskit.synthesis.OneQubitEulerDecomposer']]);
    assert.equal(
      applyMigrationNotes(code, n.text),
      "from qiskit.synthesis import OneQubitEulerDecomposer\n\ndef zyz(u):\n    return OneQubitEulerDecomposer('ZYZ').angles_and_phase(u)\n",
    );
    // qiskit.execute is gone at 1.3.0; GenericPass.execute, a method of that name, is no hint for a function.
    const run = notes('from qiskit import execute\n\ndef counts(qc, backend):\n    return execute(qc, backend).result().get_counts()\n', 'qiskit', '0.43.3', '1.3.0');
    const execute = run.items.find((i) => i.api === 'qiskit.execute')!;
    assert.equal(execute.replacement, null);
    assert.match(run.text, /`execute` \(qiskit\.execute\) is not in qiskit 1\.3\.0\. It exists in qiskit [^\n]+\. No replacement is known in the matrices\.$/m);
  });

  test('spelling a replacement like the code spells the API', () => {
    assert.equal(spellLike('np.trapz', 'numpy.trapz', 'numpy.trapezoid'), 'np.trapezoid');
    assert.equal(spellLike('np.linalg.norm', 'numpy.linalg.norm', 'numpy.linalg.vector_norm'), 'np.linalg.vector_norm');
    assert.equal(spellLike('misc.face', 'scipy.misc.face', 'scipy.datasets.face'), null);
    assert.equal(spellLike('trapz', 'numpy.trapz', 'numpy.trapezoid'), 'trapezoid');
    assert.equal(spellLike('comb', 'scipy.misc.comb', 'scipy.special.comb'), null);
  });
});

describe('prompts', () => {
  const task = { id: 'numpy/area', prompt: 'Using {library} v{version}, integrate y. Implement area(y).', entryPoint: 'area' };

  test('generation: the version anchor; repair: every section, read back', () => {
    const g = generationPrompt(task, 'numpy', '1.24.2');
    assert.equal(g[0]!.role, 'system');
    assert.equal(g[1]!.content, 'Using numpy v1.24.2, integrate y. Implement area(y).');
    const spec = { library: 'numpy', from: '1.24.2', to: '2.4.6', round: 2, task: 'Using numpy v2.4.6, integrate y. Implement area(y).', entryPoint: 'area', code: 'x = "```"\n', error: 'Traceback …\nAttributeError: x', notes: 'Migration notes …\n- line 1: …' };
    const r = repairPrompt(spec);
    assert.match(r[1]!.content, /still fails on numpy 2\.4\.6/);
    assert.deepEqual(parseRepairPrompt(r), { ...spec, code: 'x = "```"' });
    assert.equal(parseRepairPrompt(repairPrompt({ ...spec, notes: null }))!.notes, null);
    assert.equal(parseRepairPrompt(g), null);
  });

  test('code extraction: the block defining the entry point, raw code, truncated fences, empty answers', () => {
    assert.deepEqual(extractPythonCode('Here:\n```python\nimport numpy as np\ndef area(y):\n    return 1\n```\nDone.', 'area'), { code: 'import numpy as np\ndef area(y):\n    return 1\n', kind: 'fenced' });
    assert.equal(extractPythonCode('```python\nprint(1)\n```\n```py\ndef area(y):\n    pass\n```', 'area').code, 'def area(y):\n    pass\n');
    assert.equal(extractPythonCode('```\ndef area(y):\n    return 2', 'area').code, 'def area(y):\n    return 2\n');
    assert.deepEqual(extractPythonCode('def area(y):\n    return 3\n', 'area'), { code: 'def area(y):\n    return 3\n', kind: 'raw' });
    assert.deepEqual(extractPythonCode('  \n', 'area'), { code: '', kind: 'empty' });
  });
});

describe('the reference models', () => {
  const set = {
    library: 'numpy',
    tasks: [
      {
        id: 'numpy/area',
        prompt: 'Using {library} v{version}, integrate y (version {version}). Implement area(y).',
        entryPoint: 'area',
        solutions: [
          { versions: '<2.0', code: 'import numpy as np\n\ndef area(y):\n    return np.trapz(y)\n' },
          { versions: '>=2.0', code: 'import numpy as np\n\ndef area(y):\n    return np.trapezoid(y)\n' },
        ],
      },
    ],
  };
  const code = (text: string) => extractPythonCode(text, 'area').code;

  test('solutions by version; the newest is the open-ended one', () => {
    assert.match(solutionFor(set.tasks[0]!, '1.24.2')!.code, /trapz/);
    assert.match(newestSolution(set.tasks[0]!)!.code, /trapezoid/);
  });

  test('version-aware answers the prompted version; version-oblivious the newest; unknown prompts get nothing', () => {
    const aware = new DriftReferenceModel([set], 'version-aware');
    const oblivious = new DriftReferenceModel([set], 'version-oblivious');
    const prompt = generationPrompt(set.tasks[0]!, 'numpy', '1.24.2');
    assert.match(code(aware.answer(prompt)), /np\.trapz\(/);
    assert.match(code(oblivious.answer(prompt)), /np\.trapezoid\(/);
    assert.match(code(aware.answer(generationPrompt(set.tasks[0]!, 'numpy', '2.2.4'))), /np\.trapezoid\(/);
    assert.equal(aware.answer([{ role: 'user', content: 'Using numpy v1.24.2, something else.' }]), '');
  });

  test('repair: aware answers the target version; oblivious applies the matrices\' notes to the failing code', () => {
    const failing = 'import numpy as np\n\ndef area(y):\n    return np.trapezoid(y)\n';
    const n = notes(failing, 'numpy', '2.2.4', '1.24.2');
    const prompt = repairPrompt({ library: 'numpy', from: '2.2.4', to: '1.24.2', round: 1, task: 'Using numpy v1.24.2, integrate y (version 1.24.2). Implement area(y).', entryPoint: 'area', code: failing, error: "AttributeError: module 'numpy' has no attribute 'trapezoid'", notes: n.text });
    assert.match(code(new DriftReferenceModel([set], 'version-aware').answer(prompt)), /np\.trapz\(y\)/);
    assert.equal(code(new DriftReferenceModel([set], 'version-oblivious').answer(prompt)), 'import numpy as np\n\ndef area(y):\n    return np.trapz(y)\n');
  });

  test('applying notes: replacements by name, imports from a new module, keywords dropped', () => {
    const notesText = [
      'Migration notes …',
      '- line 4: `np.trapezoid` (numpy.trapezoid) is not in numpy 1.24.2. It exists in numpy 2.0.0–2.5.2. Use `np.trapz` instead.',
      '- line 2: `comb` (scipy.misc.comb) is not in scipy 1.17.1. Use `scipy.special.comb` instead (import it from `scipy.special`).',
      '- line 5: `misc.face` (scipy.misc.face) is not in scipy 1.17.1. Use `scipy.datasets.face` instead (import it from `scipy.datasets`).',
      '- line 6: `numpy.unique` takes no keyword `equal_nan` in numpy 1.19.5. Signature in numpy 1.19.5: `unique(ar)`.',
    ].join('\n');
    const before = 'import numpy as np\nfrom scipy.misc import comb\nfrom scipy import misc\nx = np.trapezoid([1]) + np.trapezoidal\nf = misc.face()\nu = np.unique(a, equal_nan=False, axis=0)\n';
    assert.equal(
      applyMigrationNotes(before, notesText),
      'from scipy.datasets import face\nimport numpy as np\nfrom scipy.special import comb\nfrom scipy import misc\nx = np.trapz([1]) + np.trapezoidal\nf = face()\nu = np.unique(a, axis=0)\n',
    );
    assert.equal(dropKeyword('f(equal_nan=g(1, 2), b)', 'equal_nan'), 'f(b)');
    assert.equal(dropKeyword('f(a, k="x,y")', 'k'), 'f(a)');
    assert.equal(dropKeyword('f(a, kk=1)', 'k'), 'f(a, kk=1)');
  });
});
