// Issue 17's scale probes through the real faces: one statement of pathological depth in a language server session
// (how long it holds a hover on another document up), a 100,000-line file (open, then an edit and a hover right
// after it: the time the hover takes, and the edit's diagnostics), and one folder of 20,000 files (the CLI's check,
// and the server opening one of them and answering a hover). Prints the figures.
// Usage: node perf/hostile-scale.mjs [--lines 100000] [--files 20000] [--edits 5]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, root, startServer, workloadEdit, writeWorkloadProject } from './lsp-client.mjs';

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const size = opt('--lines', 100_000);
const fileCount = opt('--files', 20_000);
const edits = opt('--edits', 5);
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const fmt = (v) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;

async function bigFile() {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-big-'));
  const { file, lines } = writeWorkloadProject(dir, { size });
  const server = await startServer(dir);
  try {
    const text = readFileSync(file, 'utf8');
    // A hover sent right after the open, while the first analysis runs: how long the server leaves it waiting.
    const t0 = process.hrtime.bigint();
    // Not awaited: an async function's promise of a promise resolves with the diagnostics, after them.
    const opened = server.openOnly(file, text);
    const firstLines = text.split('\n');
    const firstAt = firstLines.findIndex((l) => l.includes('np.trapezoid'));
    const early = await server.hover(file, firstAt, firstLines[firstAt].indexOf('np.trapezoid') + 4);
    const earlyMs = ms(t0);
    const firstDiagnostics = await opened;
    const first = { msSinceStart: ms(t0), diagnostics: firstDiagnostics.diagnostics };
    const current = text.split('\n');
    // the hover: the last np.trapezoid of the file, found again after each edit
    const target = () => {
      for (let i = current.length - 1; i >= 0; i--) {
        const c = current[i].indexOf('np.trapezoid');
        if (c >= 0) return { line: i, character: c + 4 };
      }
      throw new Error('no np.trapezoid');
    };
    const hovers = [];
    const diagnostics = [];
    let hovered = null;
    for (let k = 0; k < edits; k++) {
      const t0 = process.hrtime.bigint();
      const published = server.changeOnly(file, workloadEdit(k, current.length, 3, current));
      const at = target();
      hovered = await server.hover(file, at.line, at.character);
      hovers.push(ms(t0));
      await published;
      diagnostics.push(ms(t0));
    }
    console.log(`${size.toLocaleString('en')}-line file (${lines.length.toLocaleString('en')} lines written): first diagnostics ${fmt(first.msSinceStart)} after the open (${first.diagnostics.length} diagnostics), a hover sent with the open answered in ${fmt(earlyMs)} (${early ? 'a hover' : 'empty'}); ` +
      `edit -> hover reply median ${fmt(median(hovers))}, max ${fmt(Math.max(...hovers))}; edit -> diagnostics median ${fmt(median(diagnostics))}, max ${fmt(Math.max(...diagnostics))} (${edits} edits); ` +
      `hover ${hovered ? 'answered' : 'empty'}; server RSS ${server.rssMb().toFixed(0)} MB`);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function wideFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-wide-'));
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  for (let i = 0; i < fileCount; i++) writeFileSync(join(dir, `m${i}.py`), `import numpy as np\nx${i} = np.trapezoid([1, 2])\n`);
  try {
    for (const jobs of ['1', null]) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, [join(root, 'bin', 'anachron.js'), 'check', '.', '--format', 'json', ...(jobs ? ['--jobs', jobs] : [])], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
      const took = ms(t0);
      const findings = r.status === 1 ? JSON.parse(r.stdout).findings.length : `exit ${r.status}: ${r.stderr.slice(0, 200)}`;
      console.log(`${fileCount.toLocaleString('en')} files in one folder: anachron check${jobs ? ` --jobs ${jobs}` : ''} ${fmt(took)} (${findings} findings)`);
    }
    const t0 = process.hrtime.bigint();
    const server = await startServer(dir);
    try {
      const file = join(dir, `m${fileCount - 1}.py`);
      const opened = await server.open(file, readFileSync(file, 'utf8'));
      const t1 = process.hrtime.bigint();
      const hover = await server.hover(file, 1, 12);
      console.log(`${fileCount.toLocaleString('en')} files in one folder: server spawn -> first diagnostics of one file ${fmt(ms(t0))} (${opened.diagnostics.length} diagnostics); hover ${fmt(ms(t1))} (${hover ? 'answered' : 'empty'})`);
    } finally {
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One statement of pathological depth (nested calls, a long attribute chain): a single chunk, read in one piece. */
async function deepCode() {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-perf-deep-'));
  writeFileSync(join(dir, 'requirements.txt'), 'numpy==1.24.2\n');
  const server = await startServer(dir);
  try {
    const small = join(dir, 'small.py');
    await server.open(small, 'import numpy as np\nnp.trapezoid([1])\n');
    const shapes = [
      ['5,000 nested calls', `import numpy as np\ny = ${'np.sum('.repeat(5000)}np.trapezoid([1])${')'.repeat(5000)}\n`],
      ['10,000 nested calls', `import numpy as np\ny = ${'np.sum('.repeat(10_000)}np.trapezoid([1])${')'.repeat(10_000)}\n`],
      ['a 100,000-segment attribute chain', `import numpy as np\ny = np.${Array(100_000).fill('a').join('.')}\n`],
    ];
    for (const [i, [name, text]] of shapes.entries()) {
      const file = join(dir, `deep${i}.py`);
      const t0 = process.hrtime.bigint();
      const opened = server.openOnly(file, text);
      // A hover on another document sent right after: how long the deep one's analysis holds it up.
      await server.hover(small, 1, 4);
      const hoverMs = ms(t0);
      const published = await opened;
      console.log(`${name} in one statement: diagnostics ${fmt(ms(t0))} after the open (${published.diagnostics.length}); a hover on another document sent with it answered in ${fmt(hoverMs)}`);
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`load average ${loadavg().map((v) => v.toFixed(1)).join(' ')}`);
await deepCode();
await bigFile();
await wideFolder();
