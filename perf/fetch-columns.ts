// Columns on demand, measured: (1) `anachron matrix fetch` of one version of a mid-size pure-Python library — a wheel
// built here with MODULES modules (a package of subpackages, ~15 functions and a class each), served by a package
// index on 127.0.0.1 — downloaded, verified and read statically into an empty store; (2) in the editor, the time from
// opening a file whose pin no matrix covers to the diagnostics that need the fetched column (a fresh server and store
// each run: the column is made while the user waits).
// Each run also gives the CPU time it cost (user + system of the CLI or the server and the Python they ran, from
// Linux's /proc/self/stat: the children's times once they are waited for), which a busy machine does not inflate the
// way it does wall time.
// Usage: npm run build && node --import tsx perf/fetch-columns.ts [RUNS] [MODULES]   (prints each run, then the medians)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { runCliAsync } from '../test/support/cli.js';
import { startPackageIndex } from '../test/support/package-index.js';

const runs = Number(process.argv[2] ?? 5);
const modules = Number(process.argv[3] ?? 200);
const python = process.env.ANACHRON_PYTHON ?? 'python3';
const root = join(__dirname, '..');

function moduleText(i: number): string {
  const fns = Array.from({ length: 15 }, (_, k) => `def f${i}_${k}(a, b=${k}, *args, key=None, **kwargs):\n    """Function ${k} of module ${i}."""\n    return a\n`);
  return `"""Module ${i}."""\nimport os\n\n${fns.join('\n')}\nclass C${i}:\n    """A class."""\n    def method(self, x, *, flag=False):\n        return x\n`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const ticksPerSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** CPU ms of this process's children that have been waited for (cutime + cstime), or NaN off Linux. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd (state) on
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond; // 16th and 17th fields
  } catch {
    return NaN;
  }
}
const cpu = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${ms.toFixed(0)} ms`);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'anachron-perf-fetch-'));
  const files: Record<string, string> = {};
  for (let i = 0; i < modules; i++) files[`sub${Math.floor(i / 20)}/m${i}.py`] = moduleText(i);
  for (let s = 0; s * 20 < modules; s++) files[`sub${s}/__init__.py`] = `from . import ${Array.from({ length: Math.min(20, modules - s * 20) }, (_, k) => `m${s * 20 + k}`).join(', ')}\n`;
  const init = `__version__ = "1.0"\nfrom . import ${Object.keys(files).filter((f) => f.endsWith('__init__.py')).map((f) => f.split('/')[0]).join(', ')}\n\ndef newer_api():\n    return 1\n`;
  const index = await startPackageIndex(python, join(work, 'files'), [
    { name: 'midlib', version: '1.0', code: init.replace('\ndef newer_api():\n    return 1\n', ''), modules: files },
    { name: 'midlib', version: '2.0', code: init.replace('1.0', '2.0'), modules: files },
  ]);
  const env = (home: string) => ({ HOME: home, PIP_CONFIG_FILE: '/dev/null', PIP_INDEX_URL: index.url, UV_NO_CONFIG: '1', NETRC: join(home, 'none'), ANACHRON_USER_MATRICES: join(home, 'matrices'), ANACHRON_CACHE: join(home, 'cache') });
  try {
    const fetchTimes: number[] = [];
    const fetchCpu: number[] = [];
    for (let r = 0; r < runs; r++) {
      const home = mkdtempSync(join(work, 'home-'));
      const cpuBefore = childrenCpuMs();
      const started = performance.now();
      const out = await runCliAsync(['matrix', 'fetch', 'midlib==1.0', '--no-newest'], root, env(home));
      if (out.code !== 0) throw new Error(out.stderr);
      fetchTimes.push(performance.now() - started);
      fetchCpu.push(childrenCpuMs() - cpuBefore);
      console.log(`fetch + extract midlib 1.0 (${modules} modules): ${fetchTimes.at(-1)!.toFixed(0)} ms (CPU ${cpu(fetchCpu.at(-1)!)}) — ${out.stdout.trim().split('\n')[0]}`);
    }
    const editorTimes: number[] = [];
    const editorCpu: number[] = [];
    for (let r = 0; r < runs; r++) {
      const cpuBefore = childrenCpuMs();
      const home = mkdtempSync(join(work, 'editor-'));
      const project = mkdtempSync(join(work, 'project-'));
      writeFileSync(join(project, 'requirements.txt'), 'midlib==1.0\n');
      const file = join(project, 'use.py');
      const text = 'import midlib\nmidlib.newer_api()\n';
      const child = spawn(process.execPath, [join(root, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...env(home) } });
      const conn = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
      conn.onRequest('client/registerCapability', () => null);
      let opened = 0;
      const done = new Promise<number>((resolve) =>
        conn.onNotification('textDocument/publishDiagnostics', (p: { diagnostics: { message: string }[] }) => {
          if (p.diagnostics.some((d) => d.message.includes('midlib.newer_api'))) resolve(performance.now() - opened);
        }),
      );
      conn.listen();
      await conn.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(project).toString(), workspaceFolders: [{ uri: pathToFileURL(project).toString(), name: 'p' }], capabilities: {}, initializationOptions: { trusted: true, userMatricesFolder: join(home, 'm'), cacheFolder: join(home, 'c') } });
      await conn.sendNotification('initialized', {});
      opened = performance.now();
      await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToFileURL(file).toString(), languageId: 'python', version: 1, text } });
      editorTimes.push(await done);
      conn.dispose();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
      // The server's CPU from its start (initialize included) to the diagnostics, and the little it took to stop.
      editorCpu.push(childrenCpuMs() - cpuBefore);
      console.log(`editor: open -> first diagnostics with the fetched columns (1.0 and the newest, 2.0): ${editorTimes.at(-1)!.toFixed(0)} ms (CPU of the server's whole run ${cpu(editorCpu.at(-1)!)})`);
    }
    console.log(`median over ${runs} runs: fetch + extract ${median(fetchTimes).toFixed(0)} ms (CPU ${cpu(median(fetchCpu))}); editor open -> diagnostics ${median(editorTimes).toFixed(0)} ms (CPU ${cpu(median(editorCpu))})`);
  } finally {
    await index.close();
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
