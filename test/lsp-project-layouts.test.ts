// Issue 16, points 1 and 2, over a real stdio session with the bundled server and matrices: pins found where projects
// keep them (requirements/, ci/, envs/), the manifest named in the settings, ambiguity said; and the diagnostics of
// a workspace check kept when a file it covered is opened and closed.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import type { CheckFilesResult, PinsResult } from '../server/src/lsp/protocol.js';
import { LspSession } from './support/lsp-session.js';
import { writeProject } from './support/project.js';

const uri = (file: string) => pathToFileURL(file).toString();
const TRAPEZOID = 'import numpy as np\nimport scipy\nnp.trapezoid([1])\n';

describe('pins where projects keep them', () => {
  test('requirements/requirements.txt pins a file in src/ with no configuration; the pin names it', async () => {
    const dir = writeProject({
      'pyproject.toml': '[project]\nname = "demo"\nrequires-python = ">=3.9"\n',
      'requirements/requirements.txt': '# runtime\nnumpy==1.24.2\n',
      'requirements/dev.txt': '-r requirements.txt\npytest\n',
      'ci/requirements-oldest.txt': 'numpy==1.19.5\n',
      'docs/conf.py': '',
      'src/demo/core.py': TRAPEZOID,
    });
    const session = new LspSession();
    try {
      await session.initialize(dir);
      const file = join(dir, 'src', 'demo', 'core.py');
      const diagnostics = await session.open(file, TRAPEZOID);
      assert.deepEqual(diagnostics.map((d) => d.message), ['`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.24.2)']);
      assert.equal(diagnostics[0]!.relatedInformation?.[0]?.message, 'requirements/requirements.txt:2 pins numpy==1.24.2');
      assert.equal(diagnostics[0]!.relatedInformation?.[0]?.location.uri, uri(join(dir, 'requirements', 'requirements.txt')));
      const pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.deepEqual(pins.found, {
        how: 'searched',
        chosen: [uri(join(dir, 'requirements', 'requirements.txt'))],
        // A development and an oldest-versions file rank after what the project runs; between them, by path.
        candidates: [uri(join(dir, 'requirements', 'requirements.txt')), uri(join(dir, 'ci', 'requirements-oldest.txt')), uri(join(dir, 'requirements', 'dev.txt'))],
        ambiguous: false,
      });
      assert.deepEqual(pins.manifestCandidates, pins.found!.candidates);
      // The status item lists the tracked libraries the file imports that nothing pins, not every tracked library.
      const unpinned = pins.coverage.filter((e) => e.reason === 'unpinned' && e.trackedVersions.length > 0).map((e) => e.library);
      assert.deepEqual(unpinned, ['scipy']);
    } finally {
      await session.close();
    }
  });

  test('equally ranked manifests that disagree are ambiguous; anachron.manifestPaths settles it, live', async () => {
    const dir = writeProject({
      'requirements/base.txt': 'numpy==2.2.4\n',
      'requirements/requirements.txt': 'numpy==1.24.2\n',
      'app.py': TRAPEZOID,
    });
    const session = new LspSession();
    const folder = uri(dir);
    try {
      await session.initialize(dir);
      const file = join(dir, 'app.py');
      assert.deepEqual(await session.open(file, TRAPEZOID), [], 'base.txt (by path, first of the two) pins numpy 2.2.4');
      let pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.equal(pins.found?.ambiguous, true);
      assert.deepEqual(pins.found?.chosen, [uri(join(dir, 'requirements', 'base.txt'))]);

      const next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('anachron/didChangeEditorSettings', { folders: [{ folder, settings: { manifestPaths: [join(dir, 'requirements', 'requirements.txt')] } }] });
      assert.deepEqual((await next).diagnostics.map((d) => d.message), ['`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.24.2)']);
      pins = (await session.connection.sendRequest('anachron/pins', { uri: uri(file) })) as PinsResult;
      assert.equal(pins.found?.how, 'configured');
      assert.equal(pins.found?.ambiguous, false);
      assert.equal(pins.pins.find((p) => p.distribution === 'numpy')?.origin, 'requirements/requirements.txt:1');
    } finally {
      await session.close();
    }
  });

  test('a manifest written into requirements/ is found when the watched files change', async () => {
    const dir = writeProject({ 'requirements/.keep': '', 'app.py': TRAPEZOID });
    const session = new LspSession();
    try {
      await session.initialize(dir);
      const file = join(dir, 'app.py');
      assert.deepEqual(await session.open(file, TRAPEZOID), [], 'nothing pins numpy yet');
      writeFileSync(join(dir, 'requirements', 'prod.txt'), 'numpy==1.24.2\n');
      const next = session.nextDiagnostics(uri(file));
      await session.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uri(join(dir, 'requirements', 'prod.txt')), type: 1 }] });
      assert.deepEqual((await next).diagnostics.map((d) => d.message), ['`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.24.2)']);
    } finally {
      await session.close();
    }
  });
});

describe('workspace check results', () => {
  test('a file the workspace check covered keeps its diagnostics when it is opened and closed (from its text on disk)', async () => {
    const dir = writeProject({ 'requirements.txt': 'numpy==1.24.2\n', 'pkg/a.py': TRAPEZOID, 'pkg/b.py': TRAPEZOID });
    const session = new LspSession();
    try {
      await session.initialize(dir);
      const a = join(dir, 'pkg', 'a.py');
      const b = join(dir, 'pkg', 'b.py');
      const result = (await session.connection.sendRequest('anachron/checkFiles', { uris: [uri(a), uri(b)] })) as CheckFilesResult;
      assert.equal(result.findings, 2);
      // Opened, edited without saving (the finding goes), closed: the text on disk is what counts again.
      await session.open(a, TRAPEZOID);
      assert.deepEqual(await session.change(a, 2, 'import numpy as np\n'), []);
      const afterClose = session.nextDiagnostics(uri(a));
      await session.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri(a) } });
      assert.deepEqual((await afterClose).diagnostics.map((d) => d.message), ['`numpy.trapezoid` needs numpy ≥ 2.0 (pinned 1.24.2)']);
      // A file no workspace check covered is cleared on close, as before.
      const c = join(dir, 'pkg', 'c.py');
      writeFileSync(c, TRAPEZOID);
      await session.open(c, TRAPEZOID);
      const cleared = session.nextDiagnostics(uri(c));
      await session.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uri(c) } });
      assert.deepEqual((await cleared).diagnostics, []);
    } finally {
      await session.close();
    }
  });
});
