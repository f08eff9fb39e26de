// A drift run as the editor starts it with one of VS Code's language models: the built CLI (`npm run build` first) in
// a child process whose model is served by this test over the IPC channel (a handler standing in for
// model.sendRequest, answering like the version-aware reference model), on the fake library through the real sandbox.
// The generation and repair prompts reach the parent, progress comes back stage by stage, the report is written.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ipcModelConfig, serveModelOverIpc } from '../server/src/eval/models/ipc-provider.js';
import type { RunProgress } from '../server/src/eval/runs/runner.js';
import type { DriftResults } from '../server/src/eval/drift/report.js';
import { DriftReferenceModel } from '../server/src/eval/drift/reference-models.js';
import { REPO_ROOT } from './support/cli.js';
import { FAKE_TASKS, makeDriftFixture, PYTHON } from './support/drift-fixture.js';

const CLI = join(REPO_ROOT, 'dist', 'cli.js');
const SKIP = !existsSync(PYTHON) ? `${PYTHON} not found` : !existsSync(CLI) ? 'run npm run build first' : false;

test('a drift run with a model served over IPC (the vscode.lm path)', { skip: SKIP, timeout: 120_000 }, async () => {
  const fx = makeDriftFixture();
  const config = fx.config('version-aware', {}, 'ipc drift');
  config.model = ipcModelConfig('test', 'stand-in');
  const file = fx.writeConfig(join(fx.dir, 'ipc.json'), config);
  const out = mkdtempSync(join(tmpdir(), 'anachron-drift-ipc-'));
  const reference = new DriftReferenceModel([FAKE_TASKS], 'version-aware');
  const prompts: string[] = [];
  const progress: RunProgress[] = [];
  const child = spawn(process.execPath, [CLI, 'bench', 'run', file, '--out', out, '--quiet', '--model-ipc', 'vscode-lm:test/stand-in'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const server = serveModelOverIpc(child, {
    handler: async (request) => {
      prompts.push(request.messages[request.messages.length - 1]!.content);
      assert.equal(request.temperature, 0.8);
      return { text: reference.answer(request.messages) };
    },
    onProgress: (p) => progress.push(p),
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  server.dispose();
  assert.equal(code, 0, stderr);
  assert.equal(prompts.length, 8 + 4, '8 generations and 4 repairs');
  assert.equal(prompts.filter((p) => p.startsWith('Library: fakelib\nFrom version: 1.0.0\nTarget version: 2.0.0')).length, 4);
  assert.match(stdout, /this session sent 12 with vscode-lm:test\/stand-in/);
  const phases = [...new Set(progress.map((p) => p.phase))];
  assert.deepEqual(phases, ['generate', 'execute', 'repair 1/2', 'repair 1/2: execute']);
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as DriftResults;
  assert.equal(results.run.model, 'vscode-lm:test/stand-in');
  assert.deepEqual(results.results[0]!.matrix.cells.map((r) => r.map((c) => c?.pass.value)), [[1, 0], [0, 1]]);
});
