// initializationOptions (and the settings notifications that replace parts of them later) of the wrong shape, through a
// real language server session: initialize answers, the server says once what it ignored and what it uses instead,
// the well-formed parts still count, and the file is checked. Before, a string editorSettings or a null entry made
// initialize fail with a TypeError, and a number matricesFolder checked nothing without a word.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileUri, withSession } from '../support/lsp-session.js';
import { writeProject } from '../support/project.js';

const TRAPEZOID = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';

interface Case {
  name: string;
  options: (folder: string) => unknown;
  /** What the server must say (window/showMessage or its log), one pattern per ignored part. */
  said: RegExp[];
  /** The severity the well-formed settings give the finding (the default is error, 1). */
  severity?: number;
}

const CASES: Case[] = [
  { name: 'options that are a string', options: () => 'editorSettings', said: [/initializationOptions must be an object \(got a string\)/] },
  { name: 'options that are a list', options: () => [1, 2], said: [/initializationOptions must be an object \(got a list\)/] },
  { name: 'a string editorSettings', options: () => ({ editorSettings: 'strict' }), said: [/initializationOptions\.editorSettings must be a list of \{ folder, settings \} \(got a string\); no editor settings are used/] },
  {
    name: 'null and ill-shaped entries among well-formed ones',
    options: (folder) => ({ editorSettings: [null, 7, { folder: 5, settings: {} }, { folder, settings: 'x' }, { folder, settings: { severity: { 'anachronistic-api': 'warning' } } }] }),
    said: [/editorSettings\[0\] is not a \{ folder, settings \} object \(got null\); ignored/, /editorSettings\[1\] is not .*\(got a number\)/, /editorSettings\[2\]\.folder must be a file: URI or null \(got a number\)/, /editorSettings\[3\]\.settings must be an object \(got a string\)/],
    severity: 2,
  },
  { name: 'a number matricesFolder', options: () => ({ matricesFolder: 42 }), said: [/initializationOptions\.matricesFolder must be a path \(got a number\); the bundled matrices are used/] },
  { name: 'an empty matricesFolder', options: () => ({ matricesFolder: '' }), said: [/initializationOptions\.matricesFolder must be a path \(got an empty string\)/] },
  {
    name: 'environments, userMatricesFolder, cacheFolder and trusted of the wrong kinds',
    options: () => ({ environments: { numpy: '2.0' }, userMatricesFolder: ['a'], cacheFolder: false, trusted: 'yes' }),
    said: [/initializationOptions\.environments must be a list .*\(got an object\)/, /initializationOptions\.userMatricesFolder must be a path \(got a list\)/, /initializationOptions\.cacheFolder must be a path \(got a boolean\)/, /initializationOptions\.trusted must be true or false \(got a string\); the workspace is taken as untrusted/],
  },
  { name: 'environments with a null entry and one without an interpreter', options: (folder) => ({ environments: [null, { folder, distributions: { numpy: '2.0.0' } }] }), said: [/environments\[0\] is not .*\(got null\)/, /environments\[1\]\.interpreter must be a string/] },
];

describe('initializationOptions of the wrong shape', () => {
  for (const c of CASES) {
    test(`${c.name}: initialize answers, the server says what it ignored, the file is still checked`, async () => {
      const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
      await withSession(dir, async (session) => {
        const diagnostics = await session.open(join(dir, 'a.py'), TRAPEZOID);
        assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [['anachronistic-api', c.severity ?? 1]], session.logs.join('\n'));
        const logs = session.logs.join('\n');
        for (const pattern of c.said) assert.match(logs, pattern);
        assert.ok(session.logs.some((l) => l.startsWith('showMessage: anachron:')), 'the user is told, not only the log');
        assert.doesNotMatch(logs, /TypeError|internal error|is not a function|is not iterable/);
      }, c.options(fileUri(dir)) as object);
    });
  }

  test('well-formed options give no message', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
    await withSession(dir, async (session) => {
      await session.open(join(dir, 'a.py'), TRAPEZOID);
      assert.deepEqual(session.logs.filter((l) => /initializationOptions|showMessage/.test(l)), []);
    }, { editorSettings: [{ folder: fileUri(dir), settings: { hover: 'always' } }, { folder: null, settings: {} }], environments: [], trusted: false });
  });
});

describe('settings notifications of the wrong shape', () => {
  test('didChangeEditorSettings and didChangeEnvironments with a string, null entries: said, ignored, the server still checks', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n' });
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      await session.open(file, TRAPEZOID);
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: 'all' });
      await session.connection.sendNotification('anachron/didChangeEnvironments', null);
      const next = session.nextDiagnostics(fileUri(file));
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [null, { folder: fileUri(dir), settings: { severity: { 'anachronistic-api': 'hint' } } }] });
      // The string list clears the settings (a recheck, severity error), the last ones give a hint.
      let severity = (await next).diagnostics[0]?.severity;
      while (severity !== 4) severity = (await session.nextDiagnostics(fileUri(file))).diagnostics[0]?.severity;
      assert.equal(severity, 4);
      const logs = session.logs.join('\n');
      assert.match(logs, /anachron\/didChangeEditorSettings: folders must be a list of \{ folder, settings \} \(got a string\)/);
      assert.match(logs, /anachron\/didChangeEnvironments: the params must be an object \(got null\)/);
      assert.match(logs, /anachron\/didChangeEditorSettings: folders\[0\] is not a \{ folder, settings \} object \(got null\); ignored/);
      assert.doesNotMatch(logs, /TypeError|internal error|is not a function|is not iterable/);
    });
  });
});
