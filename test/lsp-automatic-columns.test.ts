// The editor's automatic columns over a real LSP session: a file whose pin no matrix covers gets its columns from a
// package index on 127.0.0.1 (with progress that can be cancelled) and its diagnostics, with the exact boundary from
// bisection, without anything asked; a venv made here with the toy library installed is probed through the
// interpreter the client sends (for a pin the manifests write too, when the index gives nothing); an untrusted workspace (or the setting off) fetches nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { PinsResult } from '../server/src/lsp/protocol.js';
import { fileUri as uri, LspSession } from './support/lsp-session.js';
import { indexForTests, startPackageIndex } from './support/package-index.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const RELEASES = ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '3.0.0'];
const code = (v: string) =>
  `__version__ = "${v}"\n\ndef area(r):\n    return r\n` + (['1.0.0', '1.1.0'].includes(v) ? '' : '\ndef new_api():\n    return 2\n');
const USE = 'import toylib\ntoylib.new_api()\n';
function dir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `anachron-${prefix}-`));
}

/** The environment of a user with nothing configured but the index (own store, cache and home). */
function userEnv(home: string, indexUrl: string): NodeJS.ProcessEnv {
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), PIP_CONFIG_FILE: '/dev/null', PIP_INDEX_URL: indexUrl, PIP_EXTRA_INDEX_URL: '', UV_DEFAULT_INDEX: '', UV_INDEX_URL: '', UV_INDEX: '', UV_NO_CONFIG: '1', NETRC: join(home, 'none'), ANACHRON_USER_MATRICES: join(home, 'cli-matrices'), ANACHRON_CACHE: join(home, 'cli-cache'), ANACHRON_OFFLINE: '' };
}

/** Diagnostics of the file, waited for until `done` says so (each publish is looked at). */
async function diagnosticsUntil(session: LspSession, file: string, done: (d: Diagnostic[]) => boolean, timeoutMs = 60_000): Promise<Diagnostic[]> {
  const deadline = Date.now() + timeoutMs;
  let last = session.latest.get(uri(file))?.diagnostics ?? [];
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`diagnostics never matched; last: ${JSON.stringify(last.map((d) => d.message))}\n${session.logs.join('\n')}`);
    last = (await session.nextDiagnostics(uri(file), Math.max(1000, deadline - Date.now()))).diagnostics;
  }
  return last;
}

describe('automatic columns in the editor', () => {
  const served = indexForTests(PYTHON, 'auto-columns', () => RELEASES.map((version) => ({ name: 'toylib', version, code: code(version) })));

  test('an uncovered pin is fetched from the index, with progress, then checked with the exact boundary', async () => {
    const home = dir('auto-home');
    const project = dir('auto-project');
    writeFileSync(join(project, 'requirements.txt'), 'toylib==1.0.0\n');
    const file = join(project, 'use.py');
    writeFileSync(file, USE);
    const storage = join(home, 'globalStorage');
    const session = new LspSession(userEnv(home, served.index.url));
    try {
      await session.initialize(project, { trusted: true, userMatricesFolder: join(storage, 'matrices'), cacheFolder: join(storage, 'cache') }, { workDoneProgress: true });
      const started = Date.now();
      const first = await session.open(file, USE);
      assert.deepEqual(first, [], 'nothing is known of toylib before its columns land');
      const diagnostics = await diagnosticsUntil(session, file, (d) => d.some((x) => (x.relatedInformation ?? []).some((r) => /added between 1\.1\.0 and 1\.2\.0/.test(r.message))));
      assert.equal(diagnostics[0]!.message, '`toylib.new_api` needs toylib ≥ 1.2 (pinned 1.0.0)');
      assert.deepEqual(diagnostics[0]!.relatedInformation!.map((r) => r.message), ['requirements.txt:1 pins toylib==1.0.0', 'in toylib 1.2.0–3.0.0 (added between 1.1.0 and 1.2.0)']);
      assert.ok(Date.now() - started < 60_000);
      const begin = session.progress.find((p) => p.kind === 'begin');
      assert.equal(begin?.title, 'anachron: fetching toylib==1.0.0 from the package index');
      assert.equal(begin?.cancellable, true);
      assert.ok(session.progress.some((p) => p.kind === 'report' && /toylib-1\.0\.0-py3-none-any\.whl/.test(p.message ?? '')));
      assert.ok(session.progress.some((p) => p.kind === 'end'));
      // The columns are the editor's (its global storage), with their provenance; the status item's coverage says checked.
      const records = JSON.parse(readFileSync(join(storage, 'matrices', 'columns.json'), 'utf8')) as { columns: { version: string; provenance: { file: string } }[] };
      assert.deepEqual(records.columns.map((c) => c.version), ['1.0.0', '1.1.0', '1.2.0', '3.0.0']);
      const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.deepEqual(pins.coverage.map((e) => `${e.library} ${e.state}`), ['toylib checked']);
      const hover = (await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: uri(file) }, position: { line: 1, character: 9 } })) as { contents: { value: string } };
      assert.match(hover.contents.value, /Your column: 1\.0\.0 from toylib-1\.0\.0-py3-none-any\.whl from http:\/\/127\.0\.0\.1:\d+\/simple \(sha256 [0-9a-f]{12}\)\./);
    } finally {
      await session.close();
    }
  });

  test('a fetch cancelled from its progress stops, keeps nothing half-made, and the server goes on', async () => {
    const slow = await startPackageIndex(PYTHON, join(served.work, 'slow'), [{ name: 'slowlib', version: '1.0', code: 'def f():\n    pass\n', fault: 'hang' }]);
    const home = dir('auto-cancel');
    const project = dir('auto-cancel-project');
    writeFileSync(join(project, 'requirements.txt'), 'slowlib==1.0\n');
    const file = join(project, 'use.py');
    const session = new LspSession(userEnv(home, slow.url));
    try {
      await session.initialize(project, { trusted: true, userMatricesFolder: join(home, 'm'), cacheFolder: join(home, 'c') }, { workDoneProgress: true });
      await session.open(file, 'import slowlib\nslowlib.g()\n');
      const deadline = Date.now() + 30_000;
      const downloading = () => slow.hits.some((h) => h.path.startsWith('/files/'));
      while (!(downloading() && session.progress.some((p) => p.kind === 'begin')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const begin = session.progress.find((p) => p.kind === 'begin');
      assert.ok(begin && downloading(), `no download began: ${session.logs.join('\n')}`);
      await session.connection.sendNotification('window/workDoneProgress/cancel', { token: begin.token });
      while (!session.progress.some((p) => p.kind === 'end' && p.token === begin.token) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(session.progress.some((p) => p.kind === 'end' && p.token === begin.token), 'the progress never ended');
      assert.ok(session.logs.some((l) => /fetching slowlib==1\.0 from the package index: cancelled; the columns made before stay/.test(l)), session.logs.join('\n'));
      assert.equal(existsSync(join(home, 'm', 'columns.json')), false);
      const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.deepEqual(pins.coverage.map((e) => `${e.library} ${e.state}`), ['slowlib not-checked']);
    } finally {
      await session.close();
      await slow.close();
    }
  });

  test('untrusted, or with anachron.fetchColumns off: nothing is fetched, the pin stays not checked', async () => {
    for (const options of [{ trusted: false }, { trusted: true, editorSettings: [{ folder: null, settings: { fetchColumns: false } }] }]) {
      const home = dir('auto-off');
      const project = dir('auto-off-project');
      writeFileSync(join(project, 'requirements.txt'), 'toylib==1.0.0\n');
      const file = join(project, 'use.py');
      const session = new LspSession(userEnv(home, served.index.url));
      const hits = served.index.hits.length;
      try {
        await session.initialize(project, { ...options, userMatricesFolder: join(home, 'm'), cacheFolder: join(home, 'c') });
        assert.deepEqual(await session.open(file, USE), []);
        const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
        assert.deepEqual(pins.coverage.map((e) => `${e.library} ${e.state} ${e.fetch}`), ['toylib not-checked toylib==1.0.0']);
        await new Promise((r) => setTimeout(r, 500));
        assert.equal(served.index.hits.length, hits, `${JSON.stringify(options)}: the index was asked`);
        assert.equal(existsSync(join(home, 'm')), false);
      } finally {
        await session.close();
      }
    }
  });

  test('a venv with the toy library installed is probed through the selected interpreter', async (t) => {
    const venv = join(served.work, 'venv');
    const made = spawnSync(PYTHON, ['-m', 'venv', venv], { encoding: 'utf8' });
    const python = join(venv, process.platform === 'win32' ? 'Scripts/python.exe' : 'bin/python');
    if (made.status !== 0 || !existsSync(python)) return t.skip(`no venv here: ${made.stderr.trim().split('\n').pop()}`);
    const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', '--no-index', '--no-deps', join(served.work, 'files', 'toylib-2.0.0-py3-none-any.whl')], { encoding: 'utf8' });
    if (pip.status !== 0) return t.skip(`pip cannot install into the venv: ${pip.stderr.trim().split('\n').pop()}`);
    const home = dir('auto-venv');
    const project = dir('auto-venv-project');
    const file = join(project, 'use.py');
    mkdirSync(join(home, 'm'), { recursive: true });
    const session = new LspSession(userEnv(home, 'http://127.0.0.1:9/simple'));
    try {
      await session.initialize(project, { trusted: true, userMatricesFolder: join(home, 'm'), cacheFolder: join(home, 'c'), environments: [{ folder: null, interpreter: python, distributions: { toylib: '2.0.0' } }] });
      await session.open(file, 'import toylib\ntoylib.area(1, units="m")\ntoylib.new_api()\n');
      const diagnostics = await diagnosticsUntil(session, file, (d) => d.length > 0);
      assert.match(diagnostics.map((d) => d.message).join('\n'), /^`toylib\.area` takes no keyword `units` in any tracked version of toylib$/m, 'only the installed 2.0.0 is tracked');
      const records = JSON.parse(readFileSync(join(home, 'm', 'columns.json'), 'utf8')) as { columns: { version: string; source: string; provenance: { python: string } }[] };
      assert.deepEqual(records.columns.map((c) => [c.version, c.source, c.provenance.python]), [['2.0.0', 'runtime', python]]);
    } finally {
      await session.close();
    }

    // The manifests pin the version the venv has, and the index gives nothing (it does not answer): the venv covers it.
    const pinnedHome = dir('auto-venv-pinned');
    const pinned = dir('auto-venv-pinned-project');
    writeFileSync(join(pinned, 'requirements.txt'), 'toylib==2.0.0\n');
    const pinnedFile = join(pinned, 'use.py');
    const second = new LspSession(userEnv(pinnedHome, 'http://127.0.0.1:9/simple'));
    try {
      await second.initialize(pinned, { trusted: true, userMatricesFolder: join(pinnedHome, 'm'), cacheFolder: join(pinnedHome, 'c'), environments: [{ folder: null, interpreter: python, distributions: { TOYLIB: '2.0.0' } }] });
      await second.open(pinnedFile, 'import toylib\ntoylib.area(1, units="m")\n');
      const diagnostics = await diagnosticsUntil(second, pinnedFile, (d) => d.length > 0);
      const units = diagnostics.find((d) => d.code === 'unknown-parameter')!;
      assert.equal(units.message, '`toylib.area` takes no keyword `units` in any tracked version of toylib');
      assert.deepEqual(units.relatedInformation?.map((r) => r.message), ['tracked: toylib 2.0.0']);
      assert.ok(second.logs.some((l) => /nothing from the package index; .* has toylib 2\.0\.0 installed, probing it there/.test(l)), second.logs.join('\n'));
      const records = JSON.parse(readFileSync(join(pinnedHome, 'm', 'columns.json'), 'utf8')) as { columns: { version: string; source: string }[] };
      assert.deepEqual(records.columns.map((c) => [c.version, c.source]), [['2.0.0', 'runtime']]);
    } finally {
      await second.close();
    }
  });
});
