// The requests the VS Code client sends beyond LSP (server/src/lsp/protocol.ts), over a real stdio session with the
// bundled server and matrices: pins and their origins, API history, checking closed files, editor settings,
// installed versions from an interpreter, and a user's matrix layered on the bundled one.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { CheckFilesResult, HistoryResponse, HistoryResult, LibraryInfo, PinsResult } from '../server/src/lsp/protocol.js';
import { fileUri as uri, withSession } from './support/lsp-session.js';
import { api, buildSyntheticMatrices, p, surface } from './support/synthetic-matrix.js';
import { writeProject } from './support/project.js';

const project = (files: Record<string, string>) => writeProject(files, 'anachron-custom-');

const TRAPEZOID = 'import numpy as np\nnp.trapezoid([1])\n';

describe('custom requests of the VS Code client', () => {
  test('anachron/pins names each pin, where it is written, and the versions checked', async () => {
    const dir = project({ 'requirements.txt': '# pins\nnumpy==1.24.2\nrequests>=2\n', 'a.py': TRAPEZOID });
    await withSession(dir, async (session) => {
      const result = (await session.connection.sendRequest('anachron/pins', { uri: uri(join(dir, 'a.py')) })) as PinsResult;
      const numpy = result.pins.find((p) => p.distribution === 'numpy')!;
      assert.equal(numpy.library, 'numpy');
      assert.equal(numpy.specifier, '==1.24.2');
      assert.equal(numpy.origin, 'requirements.txt:2');
      assert.equal(numpy.originUri, uri(join(dir, 'requirements.txt')));
      assert.equal(numpy.originLine, 1);
      assert.deepEqual(numpy.checkedVersions, ['1.24.2']);
      assert.ok(numpy.trackedVersions.includes('2.2.4'));
      assert.equal(result.pins[0]!.distribution, 'numpy', 'tracked libraries first');
      assert.equal(result.pins.find((p) => p.distribution === 'requests')!.library, null);
      assert.deepEqual(result.manifests, [uri(join(dir, 'requirements.txt'))]);
    });
  });

  test('anachron/history: by name and under the cursor, with the pinned version marked', async () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n' });
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      await session.open(file, TRAPEZOID);
      const atCursor = (await session.connection.sendRequest('anachron/history', { uri: uri(file), position: { line: 1, character: 5 } })) as HistoryResult;
      assert.equal(atCursor.api, 'numpy.trapezoid');
      assert.equal(atCursor.pin, 'numpy==1.24.2 (requirements.txt:1)');
      assert.deepEqual(atCursor.atPin, { version: '1.24.2', state: 'absent', basis: 'tracked' });
      const v124 = atCursor.versions.find((v) => v.version === '1.24.2')!;
      assert.equal(v124.pinned, true);
      assert.equal(v124.state, 'absent');
      assert.match(atCursor.versions.find((v) => v.version === '2.2.4')!.signature!, /^trapezoid\(y, x=None/);
      assert.ok(atCursor.related.includes('numpy.trapz'), atCursor.related.join(', '));
      // The versions in bands as the hover groups them: every tracked version in one band, the pin's band marked.
      assert.equal(atCursor.bands.reduce((n, b) => n + b.count, 0), atCursor.versions.length);
      assert.ok(atCursor.bands.length < atCursor.versions.length / 4, `${atCursor.bands.length} bands for ${atCursor.versions.length} versions`);
      assert.deepEqual(atCursor.bands.filter((b) => b.pinned).map((b) => b.state), ['absent']);
      assert.deepEqual([atCursor.bands[0]!.first, atCursor.bands.at(-1)!.last], [atCursor.versions[0]!.version, atCursor.versions.at(-1)!.version]);

      const byName = (await session.connection.sendRequest('anachron/history', { api: 'numpy.trapz' })) as HistoryResult;
      assert.equal(byName.pin, null);
      assert.deepEqual(byName.versions.map((v) => v.state).slice(-1), ['absent']);
      const missing = (await session.connection.sendRequest('anachron/history', { api: 'numpy.linalg.nosuchthing' })) as HistoryResponse;
      assert.ok('error' in missing);
      assert.match(missing.error, /in no tracked version of numpy/);
      assert.deepEqual(missing.suggestions, ['numpy.linalg']);
      const libraries = (await session.connection.sendRequest('anachron/libraries')) as LibraryInfo[];
      assert.ok(libraries.some((l) => l.library === 'numpy' && l.userVersions.length === 0));
    });
  });

  test('anachron/checkFiles publishes diagnostics for closed files and counts open ones without publishing', async () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n', 'pkg/closed.py': TRAPEZOID, 'ok.py': 'import numpy as np\nnp.trapz([1])\n' });
    await withSession(dir, async (session) => {
      const open = join(dir, 'open.py');
      await session.open(open, TRAPEZOID + TRAPEZOID);
      const closed = uri(join(dir, 'pkg', 'closed.py'));
      const published = session.nextDiagnostics(closed);
      const result = (await session.connection.sendRequest('anachron/checkFiles', { uris: [closed, uri(join(dir, 'ok.py')), uri(open), uri(join(dir, 'gone.py'))] })) as CheckFilesResult;
      assert.equal(result.checked, 3);
      assert.equal(result.findings, 1 + 0 + 2);
      assert.equal(result.failed.length, 1);
      assert.match(result.failed[0]!.reason, /ENOENT/);
      const diagnostics = (await published).diagnostics;
      assert.equal(diagnostics.length, 1);
      assert.equal(diagnostics[0]!.code, 'anachronistic-api');
    });
  });

  test('editor settings: severity overrides, ignored codes, manifests switched off, assumed versions; applied live', async () => {
    const dir = project({ 'requirements.txt': 'numpy==1.24.2\n' });
    const folder = uri(dir);
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      const first = await session.open(file, TRAPEZOID);
      assert.equal(first.length, 1);
      assert.equal(first[0]!.severity, 2, 'the initial editor settings apply to the first diagnostics');

      let next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { ignore: ['anachronistic-api'] } }] });
      assert.deepEqual((await next).diagnostics, []);

      // requirements switched off and numpy 2.2.4 assumed: trapezoid exists there.
      next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { manifests: ['pyproject'], assumeVersions: { numpy: '1.19.5' } } }] });
      const assumed = (await next).diagnostics;
      assert.equal(assumed.length, 1);
      assert.match(assumed[0]!.message, /\(assumed 1\.19\.5\)$/);
      assert.equal(assumed[0]!.relatedInformation?.[0]?.message, 'setting anachron.assumeVersions assumes numpy==1.19.5');
      const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.deepEqual(pins.manifestsOff, ['requirements', 'setup.cfg', 'pipfile', 'conda', 'python-version', 'lock']);
      assert.equal(pins.pins[0]!.origin, 'setting anachron.assumeVersions');
      assert.deepEqual(pins.pins[0]!.overridden, []);

      // Back to the manifests: the exact requirement outranks the assumed version.
      next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { assumeVersions: { numpy: '1.19.5' } } }] });
      assert.match((await next).diagnostics[0]!.message, /\(pinned 1\.24\.2\)$/);
    }, { editorSettings: [{ folder, settings: { severity: { 'anachronistic-api': 'warning' } } }] });
  });

  test('installed versions from the interpreter count as pins below exact requirements', async () => {
    const dir = project({ 'requirements.txt': 'numpy\n' });
    const folder = uri(dir);
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      assert.deepEqual(await session.open(file, TRAPEZOID), [], 'a bare name pins nothing');
      const next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('anachron/didChangeEnvironments', { environments: [{ folder, interpreter: '/venv/bin/python', distributions: { NumPy: '1.24.2', pip: '24.0' } }] });
      const diagnostics = (await next).diagnostics;
      assert.equal(diagnostics.length, 1);
      assert.match(diagnostics[0]!.message, /\(installed 1\.24\.2\)$/);
      const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      const numpy = pins.pins.find((p) => p.distribution === 'numpy')!;
      assert.equal(numpy.kind, 'installed');
      assert.equal(numpy.originUri, null);
      assert.deepEqual(numpy.overridden, ['numpy (requirements.txt:1)']);
      assert.equal(numpy.origin, 'interpreter /venv/bin/python');
    });
  });

  test("a user's matrix adds its version columns to the bundled library", async () => {
    const dir = project({ 'requirements.txt': 'numpy==1.26.1\n' });
    // A one-version numpy matrix at a version the bundle does not track, where trapezoid exists (made up, to see
    // that the user's column decides at its own version and the bundled ones elsewhere).
    const userMatrices = buildSyntheticMatrices([surface('numpy', '1.26.1', [api('numpy', 'module'), api('numpy.trapezoid', 'function', [p('y')], 'Integrate.')])]);
    await withSession(dir, async (session) => {
      const file = join(dir, 'a.py');
      assert.deepEqual(await session.open(file, TRAPEZOID), [], 'numpy 1.26.1 is now a tracked version that has trapezoid');
      const history = (await session.connection.sendRequest('anachron/history', { api: 'numpy.trapezoid', uri: uri(file) })) as HistoryResult;
      const cells = history.versions.map((v) => `${v.version}:${v.state}${v.user ? ':user' : ''}${v.pinned ? ':pinned' : ''}`);
      const at = cells.indexOf('1.26.1:present:user:pinned');
      assert.ok(at > 0, cells.join(' '));
      assert.deepEqual(cells.slice(at - 1, at + 2), ['1.26.0:absent', '1.26.1:present:user:pinned', '1.26.3:absent']);
      assert.equal(cells.find((c) => c.startsWith('2.0.0:')), '2.0.0:present');
      const libraries = (await session.connection.sendRequest('anachron/libraries')) as LibraryInfo[];
      assert.deepEqual(libraries.find((l) => l.library === 'numpy')!.userVersions, ['1.26.1']);
    }, { userMatricesFolder: userMatrices });
  });
});
