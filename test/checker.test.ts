// The checker on a small hand-written library whose history the tests control exactly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkPythonSource } from '../server/src/check-source.js';
import { fullMessage, type Finding } from '../server/src/core/findings.js';
import { parseCommandLinePin, type Pin } from '../server/src/core/pins.js';
import type { ProjectSettings } from '../server/src/core/settings.js';
import { loadPythonParser, type PythonParser } from '../server/src/parser/python-parser.js';
import { openMatrixCatalog, type LoadedCatalog } from '../server/src/store/catalog.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';

const common = [
  api('fakelib', 'module'), api('fakelib.sub', 'module'), api('fakelib.sub.thing', 'function', [p('x')]), api('fakelib.Klass', 'class', [p('a')]),
  api('fakelib.make', 'function', [p('seed', 'poskw', 'None')], null, 'Klass'), api('fakelib.Klass.stable', 'method', [p('n')]),
  api('fakelib.maybe', 'function', [], null, 'Optional[Klass]'),
];
const history = [
  surface('fakelib', '1.0', [...common, api('fakelib.old', 'function', [p('x')], 'Integrate along the given axis somehow.'), api('fakelib.Klass.meth', 'method', []), api('fakelib.pair', 'function', [p('a'), p('b')]), api('fakelib.kw', 'function', [p('x'), p('kwargs', 'vkw')])], {
    errors: [{ module: 'fakelib.broken', error: 'ImportError: no _native' }],
  }),
  surface('fakelib', '2.0', [...common, api('fakelib.pair', 'function', [p('a'), p('b')]), api('fakelib.old', 'function', [p('x')], 'Integrate along the given axis somehow.'), api('fakelib.new', 'function', [p('x')], 'Integrate along the given axis somehow.'), api('fakelib.broken', 'module'), api('fakelib.broken.x', 'function', []), api('fakelib.kw', 'function', [p('x'), p('kwargs', 'vkw')])]),
  surface('fakelib', '3.0', [...common, api('fakelib.pair', 'function', [p('a'), p('b'), p('c', 'poskw', 'None')]), api('fakelib.new', 'function', [p('x'), p('axis', 'kw', 'None')], 'Integrate along the given axis somehow.'), api('fakelib.broken', 'module'), api('fakelib.broken.x', 'function', []), api('fakelib.kw', 'function', [p('x'), p('kwargs', 'vkw')])]),
];

let parser: PythonParser;
let catalog: LoadedCatalog;
before(async () => {
  parser = await loadPythonParser();
  catalog = openMatrixCatalog(buildSyntheticMatrices(history));
});
after(() => catalog.close());

function check(code: string, pin: string): Finding[] {
  const parsed = parseCommandLinePin(pin) as Pin;
  return checkPythonSource(parser, code, { catalog, pins: new Map([[parsed.distribution, parsed]]) });
}

const brief = (fs: Finding[]) => fs.map((f) => `${f.range.start.line + 1}:${f.range.start.column + 1} ${f.code} ${f.api}${f.parameter ? ` ${f.parameter}` : ''}`);

describe('API level', () => {
  test('an API added later is anachronistic at an older pin, with its history in the message', () => {
    const found = check('import fakelib as fl\nfl.new(1)\n', 'fakelib==1.0');
    assert.deepEqual(brief(found), ['2:1 anachronistic-api fakelib.new']);
    assert.equal(found[0]!.severity, 'error');
    assert.equal(found[0]!.message, '`fakelib.new` needs fakelib ≥ 2.0 (pinned 1.0)');
    assert.deepEqual(found[0]!.notes.map((n) => n.text), ['--pin fakelib==1.0', 'in fakelib 2.0–3.0 (added between 1.0 and 2.0)', 'use `fakelib.old`, which has the same documentation']);
    assert.deepEqual(found[0]!.availableIn, ['2.0', '3.0']);
  });

  test('a renamed API gets its version-correct name, found by its unchanged documentation', () => {
    const added = check('import fakelib as fl\nfl.new(1)\n', 'fakelib==1.0');
    assert.equal(added[0]!.replacement, 'fakelib.old');
    assert.match(added[0]!.message, /^`fakelib\.new` needs fakelib ≥ 2\.0 \(pinned 1\.0\)$/, 'the alternative is a note, not part of the short message');
    assert.match(fullMessage(added[0]!), /; use `fakelib.old`, which has the same documentation$/);
    assert.equal(check('import fakelib as fl\nfl.old(1)\n', 'fakelib==3.0')[0]!.replacement, 'fakelib.new');
    assert.equal(check('import fakelib as fl\nfl.Klass.meth()\n', 'fakelib==3.0')[0]!.replacement, null);
  });

  test('an API removed earlier is anachronistic at a newer pin', () => {
    const found = check('from fakelib import old\n', 'fakelib==3.0');
    assert.deepEqual(brief(found), ['1:21 anachronistic-api fakelib.old']);
    assert.equal(found[0]!.message, '`fakelib.old` was removed in fakelib 3.0 (pinned 3.0)');
    assert.match(fullMessage(found[0]!), /removed between 2.0 and 3.0/);
  });

  test('every import form and alias resolves', () => {
    const code = [
      'import fakelib',
      'import fakelib.sub as s',
      'from fakelib import sub',
      'from fakelib.sub import thing as t',
      'alias = fakelib.sub',
      'fakelib.new()',
      's.thing(1)',
      'sub.thing(1)',
      't(1)',
      'alias.thing(1)',
      'alias.missing(1)',
    ].join('\n');
    assert.deepEqual(brief(check(code, 'fakelib==1.0')), ['6:1 anachronistic-api fakelib.new', '11:1 unknown-api fakelib.sub.missing']);
  });

  test('no findings at a version that has everything used', () => {
    assert.deepEqual(check('import fakelib\nfakelib.new(1)\nfakelib.sub.thing(2)\n', 'fakelib==2.0'), []);
  });

  test('an API in no version is a possible hallucination, at lower severity', () => {
    const found = check('import fakelib\nfakelib.imaginary()\n', 'fakelib==2.0');
    assert.deepEqual(brief(found), ['2:1 unknown-api fakelib.imaginary']);
    assert.equal(found[0]!.severity, 'warning');
  });

  test('class members are checked, unknown class members are not guessed at', () => {
    assert.deepEqual(brief(check('import fakelib\nfakelib.Klass.meth\nfakelib.Klass.other\n', 'fakelib==2.0')), ['2:1 anachronistic-api fakelib.Klass.meth']);
  });

  test('a module that failed to import in the pinned version gives no verdict', () => {
    const found = check('import fakelib\nfakelib.broken.x()\n', 'fakelib==1.0');
    assert.deepEqual(brief(found), ['2:1 unconfirmed-api fakelib.broken']);
    assert.equal(found[0]!.severity, 'information');
  });

  test('private names, unpinned libraries and untracked libraries are left alone', () => {
    assert.deepEqual(check('import fakelib\nfakelib._private()\nfakelib.__version__\n', 'fakelib==1.0'), []);
    assert.deepEqual(check('import fakelib\nfakelib.new()\n', 'otherlib==1.0'), []);
    assert.deepEqual(check('import otherlib\notherlib.anything()\n', 'fakelib==1.0'), []);
  });

  test('a name rebound locally is not the library any more', () => {
    assert.deepEqual(check('import fakelib as fl\nfl = make()\nfl.new()\n', 'fakelib==1.0'), []);
    assert.deepEqual(check('import fakelib\nfakelib.new = lambda: 0\n', 'fakelib==1.0'), []);
  });

  test('star imports resolve names the file does not bind itself', () => {
    assert.deepEqual(brief(check('from fakelib import *\nnew(1)\nprint(1)\nold = 2\nold\n', 'fakelib==1.0')), ['2:1 anachronistic-api fakelib.new']);
  });
});

describe('guards', () => {
  test('imports under try/except ImportError and their fallbacks are deliberate', () => {
    const code = 'try:\n    from fakelib import new\nexcept ImportError:\n    from fakelib import old as new\n';
    assert.deepEqual(check(code, 'fakelib==1.0'), []);
    assert.deepEqual(check(code, 'fakelib==3.0'), []);
  });
  test('uses under hasattr() and their else branch are deliberate', () => {
    const code = 'import fakelib\nif hasattr(fakelib, "new"):\n    fakelib.new(1)\nelse:\n    fakelib.old(1)\n';
    assert.deepEqual(check(code, 'fakelib==1.0'), []);
    assert.deepEqual(check(code, 'fakelib==3.0'), []);
  });
  test('branches selected by the library version are deliberate', () => {
    const code = [
      'import fakelib',
      'if fakelib.__version__ >= "2":',
      '    fakelib.new(1)',
      'else:',
      '    fakelib.old(1)',
      'NEW_API = tuple(int(x) for x in fakelib.__version__.split(".")[:2]) >= (2, 0)',
      'f = fakelib.new if NEW_API else fakelib.old',
    ].join('\n');
    assert.deepEqual(check(code, 'fakelib==1.0'), []);
    assert.deepEqual(check(code, 'fakelib==3.0'), []);
  });
  test('blocks that expect an exception (pytest.raises, assert_raises, assertRaises) are deliberate', () => {
    const code = 'import fakelib\nimport pytest\nwith pytest.raises(AttributeError):\n    fakelib.new(1)\nwith self.assertRaises(TypeError):\n    fakelib.new(1, axis=0)\nfakelib.new(2)\n';
    assert.deepEqual(brief(check(code, 'fakelib==1.0')), ['7:1 anachronistic-api fakelib.new']);
  });
  test('a try/except that catches something unrelated is no guard', () => {
    assert.equal(check('import fakelib\ntry:\n    fakelib.new()\nexcept KeyError:\n    pass\n', 'fakelib==1.0').length, 1);
  });
});

describe('parameter level', () => {
  test('a keyword added later is anachronistic at an older pin', () => {
    const found = check('import fakelib\nfakelib.new(1, axis=0)\n', 'fakelib==2.0');
    assert.deepEqual(brief(found), ['2:16 anachronistic-parameter fakelib.new axis']);
    assert.match(found[0]!.message, /^`fakelib\.\w+\(axis=\)` needs fakelib ≥ 3\.0 \(pinned 2\.0\)$/);
    assert.match(fullMessage(found[0]!), /accepted by fakelib 3\.0$/);
  });
  test('a keyword no version accepts is unknown', () => {
    assert.deepEqual(brief(check('import fakelib\nfakelib.new(1, bogus=0)\n', 'fakelib==3.0')), ['2:16 unknown-parameter fakelib.new bogus']);
  });
  test('callees taking **kwargs accept any keyword', () => {
    assert.deepEqual(check('import fakelib\nfakelib.kw(1, anything=0)\n', 'fakelib==1.0'), []);
  });
  test('keywords are checked through from-imports too', () => {
    assert.deepEqual(brief(check('from fakelib import new\nnew(1, axis=0)\n', 'fakelib==2.0')), ['2:8 anachronistic-parameter fakelib.new axis']);
  });
});

describe('values produced by library calls', () => {
  test('an instance from a class, or from a function whose return type is recorded, has its members checked', () => {
    const code = 'import fakelib\nk = fakelib.Klass(1)\nk.meth()\nm = fakelib.make()\nm.meth()\nm.stable(1)\nfakelib.make().meth()\n';
    assert.deepEqual(brief(check(code, 'fakelib==2.0')), ['3:1 anachronistic-api fakelib.Klass.meth', '5:1 anachronistic-api fakelib.Klass.meth', '7:16 anachronistic-api fakelib.Klass.meth']);
    assert.deepEqual(check(code, 'fakelib==1.0'), []);
  });
  test('where the type is not certain, nothing is said', () => {
    const code = 'import fakelib\nm = fakelib.maybe()\nm.meth()\nk = fakelib.Klass(1)\nk = other()\nk.meth()\nz = fakelib.Klass(1)\nz.unknown_attribute\n';
    assert.deepEqual(check(code, 'fakelib==2.0'), []);
  });
  test('keywords on a method of a produced value are checked', () => {
    assert.deepEqual(brief(check('import fakelib\nk = fakelib.Klass(1)\nk.stable(1, bogus=2)\n', 'fakelib==2.0')), ['3:13 unknown-parameter fakelib.Klass.stable bogus']);
  });
});

describe('positional arity', () => {
  test('more positionals than the pinned signature takes, where another version takes them', () => {
    const found = check('import fakelib\nfakelib.pair(1, 2, 3)\n', 'fakelib==2.0');
    assert.deepEqual(brief(found), ['2:1 too-many-positional fakelib.pair']);
    assert.match(found[0]!.message, /takes at most 2 positional arguments in fakelib 2\.0, not 3 \(pinned 2\.0\)$/);
    assert.match(fullMessage(found[0]!), /3 accepted by fakelib 3\.0$/);
    assert.deepEqual(check('import fakelib\nfakelib.pair(1, 2, 3)\n', 'fakelib==3.0'), []);
  });
  test('unpacked arguments and methods reached through their class are not counted', () => {
    assert.deepEqual(check('import fakelib\nfakelib.pair(*xs)\nfakelib.Klass.stable(obj, 1)\n', 'fakelib==2.0'), []);
  });
});

describe('suppressions and settings', () => {
  test('a suppression comment silences its line: every code, or the codes named', () => {
    const code = 'import fakelib\nfakelib.new(1)  # anachron: ignore\nfakelib.new(2)  # anachron: ignore[anachronistic-api]\nfakelib.new(3)  # anachron: ignore[unknown-api]\n';
    assert.deepEqual(brief(check(code, 'fakelib==1.0')), ['4:1 anachronistic-api fakelib.new']);
  });
  test('project settings ignore codes, override severities and limit libraries', () => {
    const pin = parseCommandLinePin('fakelib==1.0') as Pin;
    const run = (settings: ProjectSettings) => checkPythonSource(parser, 'import fakelib\nfakelib.new(1)\nfakelib.imaginary()\n', { catalog, pins: new Map([[pin.distribution, pin]]), settings });
    assert.deepEqual(run({ ignore: ['unknown-api'] }).map((f) => f.code), ['anachronistic-api']);
    assert.deepEqual(run({ severity: { 'anachronistic-api': 'hint', 'unknown-api': 'off' } }).map((f) => `${f.code}:${f.severity}`), ['anachronistic-api:hint']);
    assert.deepEqual(run({ libraries: ['numpy'] }), []);
  });
});

describe('where a pin comes from', () => {
  test('the installed version of an interpreter is named as such', () => {
    const pin: Pin = { distribution: 'fakelib', kind: 'installed', specifier: '==1.0', exactVersion: '1.0', origin: { file: 'interpreter /venv/bin/python', line: null } };
    const [f] = checkPythonSource(parser, 'import fakelib\nfakelib.new(1)\n', { catalog, pins: new Map([['fakelib', pin]]) });
    assert.match(f!.message, /needs fakelib ≥ 2\.0 \(installed 1\.0\)$/);
    assert.equal(f!.notes[0]!.text, 'interpreter /venv/bin/python has fakelib==1.0 installed');
  });
  test('a requirement written with spaces is named without them (`fakelib == 1.0`, not `fakelib== 1.0`)', () => {
    const pin: Pin = { distribution: 'fakelib', kind: 'requirement', specifier: '== 1.0', exactVersion: '1.0', origin: { file: 'requirements.txt', line: 3 } };
    const [f] = checkPythonSource(parser, 'import fakelib\nfakelib.new(1)\n', { catalog, pins: new Map([['fakelib', pin]]) });
    assert.equal(f!.message, '`fakelib.new` needs fakelib ≥ 2.0 (pinned 1.0)');
    assert.equal(f!.notes[0]!.text, 'requirements.txt:3 pins fakelib==1.0');
  });
});

describe('ranges and untracked pins', () => {
  test('a range is checked at every tracked version it allows', () => {
    const found = check('import fakelib\nfakelib.new(1)\n', 'fakelib>=1.0,<3');
    assert.deepEqual(brief(found), ['2:1 anachronistic-api fakelib.new']);
    assert.equal(found[0]!.message, '`fakelib.new` needs fakelib ≥ 2.0 (allowed >=1.0,<3)');
    assert.equal(found[0]!.notes[0]!.text, '--pin fakelib>=1.0,<3, which allows fakelib 1.0');
  });
  test('a pin between tracked versions that disagree cannot be confirmed', () => {
    assert.deepEqual(brief(check('import fakelib\nfakelib.new(1)\n', 'fakelib==1.5')), ['2:1 unconfirmed-api fakelib.new']);
  });
  test('a pin between tracked versions that agree is decided, as a warning when something is missing', () => {
    assert.deepEqual(check('import fakelib\nfakelib.old(1)\nfakelib.new(1)\n', 'fakelib==1.5').map((f) => f.api), ['fakelib.new']);
    assert.deepEqual(check('import fakelib\nfakelib.new(1)\n', 'fakelib==2.5'), []);
    const found = check('import fakelib\nfakelib.Klass.meth()\n', 'fakelib==2.5');
    assert.deepEqual(brief(found), ['2:1 anachronistic-api fakelib.Klass.meth']);
    assert.equal(found[0]!.severity, 'warning');
  });
  test('a pin newer than every tracked version is judged by the newest, as a warning', () => {
    const found = check('import fakelib\nfakelib.old(1)\n', 'fakelib==4.0');
    assert.deepEqual(brief(found), ['2:1 anachronistic-api fakelib.old']);
    assert.equal(found[0]!.severity, 'warning');
    assert.match(fullMessage(found[0]!), /4.0 is newer than every tracked version, so 3.0 stands in for it/);
  });
});

describe('half-typed code', () => {
  test('syntax errors do not stop the rest of the file from being checked', () => {
    const found = check('import fakelib\nfakelib.new(\nx = [1, 2\nfakelib.\n', 'fakelib==1.0');
    assert.ok(found.some((f) => f.api === 'fakelib.new'));
  });
});
