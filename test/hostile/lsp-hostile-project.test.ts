// A hostile project in a real language server session: manifests that include /dev/zero, /proc/self/environ and
// /etc/shadow, a requirements file that is a FIFO, setup.cfg `file:` and a conda `pip: -r` of devices, and a folder
// of symlink loops. The server must stay up (it died with SIGABRT growing /dev/zero to 6 GB; a FIFO hung it), publish
// the file's findings, answer anachron/pins, quote nothing of the environment anywhere, and say what it refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { fileUri, LspSession } from '../support/lsp-session.js';
import { writeProject } from '../support/project.js';

const SECRET = `anachron-lsp-secret-${randomUUID()}`;
const TRAPEZOID = 'import numpy as np\ny = np.trapezoid([1, 2, 3])\n';

function mkfifo(path: string): void {
  assert.equal(spawnSync('mkfifo', [path]).status, 0, `mkfifo ${path}`);
}

test('hostile manifests and loops in a real session: the server stays up, checks the file, quotes no secret, says what it refused', { timeout: 120_000 }, async () => {
  const dir = writeProject({
    'requirements.txt': 'numpy==1.24.2\n-r /dev/zero\n-r /proc/self/environ\n-c /etc/shadow\n-r pipe.txt\n',
    'conda/environment.yml': 'name: x\ndependencies:\n  - python=3.11\n  - pip:\n    - -r /dev/zero\n    - -r /proc/self/environ\n',
    'conda/a.py': TRAPEZOID,
    'cfg/setup.cfg': '[options]\ninstall_requires = file: /dev/zero\n',
    'cfg/pyproject.toml': '[project]\nname = "x"\ndynamic = ["dependencies"]\n[tool.setuptools.dynamic]\ndependencies = { file = ["/proc/self/environ"] }\n',
    'cfg/a.py': TRAPEZOID,
    'fifo/a.py': TRAPEZOID,
    'loops/p/a.py': TRAPEZOID,
    'broken/pyproject.toml': '[project\nname = "x"\ndependencies = ["numpy==1.24.2"]\n',
  });
  mkfifo(join(dir, 'pipe.txt'));
  mkfifo(join(dir, 'fifo', 'requirements.txt'));
  symlinkSync('..', join(dir, 'loops', 'p', 'up'));
  mkdirSync(join(dir, 'loops', 'p', 'q'));
  symlinkSync('../q', join(dir, 'loops', 'p', 'q', 'again'));
  const session = new LspSession({ ANACHRON_TEST_SECRET: SECRET });
  try {
    await session.initialize(dir);
    const root = join(dir, 'a.py');
    const found = await session.open(root, TRAPEZOID, 'python', 60_000);
    assert.deepEqual(found.map((d: Diagnostic) => d.code), ['anachronistic-api'], 'numpy==1.24.2 still counts');
    for (const sub of ['conda', 'cfg', 'fifo', 'loops/p']) await session.open(join(dir, sub, 'a.py'), TRAPEZOID, 'python', 60_000);
    const pins = await session.connection.sendRequest('anachron/pins', { uri: fileUri(root) });
    const checked = await session.connection.sendRequest('anachron/checkFiles', { uris: [fileUri(join(dir, 'loops', 'p', 'a.py'))] });
    const hover = await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: fileUri(join(dir, 'requirements.txt')) }, position: { line: 2, character: 4 } });
    const published: PublishDiagnosticsParams[] = [...session.latest.values()];
    const everything = JSON.stringify({ published, pins, checked, hover, logs: session.logs });
    assert.ok(!everything.includes(SECRET), 'the environment was quoted');
    assert.doesNotMatch(everything, /root:[^"]*:\d+:/, '/etc/shadow was quoted');
    // anachron: Show Pins says what was refused, line by line, each in a short excerpt.
    const problems = (pins as { problems: string[] }).problems;
    for (const line of [2, 3, 4]) assert.ok(problems.some((m) => m.startsWith(`requirements.txt:${line}: cannot read `) && /outside the project/.test(m)), `requirements.txt:${line}: ${JSON.stringify(problems)}`);
    assert.ok(problems.some((m) => /^requirements\.txt:5: cannot read .*pipe\.txt.*a FIFO, not a regular file/.test(m)), JSON.stringify(problems));
    for (const m of problems) assert.ok(m.length <= 300, m);
    const conda = (await session.connection.sendRequest('anachron/pins', { uri: fileUri(join(dir, 'conda', 'a.py')) })) as { problems: string[] };
    assert.ok(conda.problems.some((m) => /environment\.yml:5: cannot read .*dev\/zero/.test(m)), JSON.stringify(conda.problems));
    const cfg = (await session.connection.sendRequest('anachron/pins', { uri: fileUri(join(dir, 'cfg', 'a.py')) })) as { problems: string[] };
    assert.ok(cfg.problems.some((m) => /setup\.cfg:2: cannot read .*dev\/zero/.test(m)), JSON.stringify(cfg.problems));
    assert.ok(!JSON.stringify([conda, cfg]).includes(SECRET));
    // A pyproject.toml with a broken table header, opened: a diagnostic at its line, not silence.
    const broken = join(dir, 'broken', 'pyproject.toml');
    const tomlProblems = await session.open(broken, '[project\nname = "x"\ndependencies = ["numpy==1.24.2"]\n', 'toml');
    assert.deepEqual(tomlProblems.map((d) => [d.range.start.line, /^invalid TOML/.test(d.message)]), [[0, true]], JSON.stringify(tomlProblems));
    assert.doesNotMatch(session.logs.join('\n'), /internal error|TypeError|RangeError/);
  } finally {
    await session.close();
  }
});
