// A transcript of the CLI covering a library no matrix has, from a package index on 127.0.0.1: the tests' own PEP
// 691 + PEP 503 index (test/support/package-index.ts: HTML and JSON pages, files with their sha256) serving `toylib`
// at five releases built here (new_api added in 1.2.0, scale's keyword `factor` renamed `ratio` in 2.0.0, old_api
// removed in 3.0.0). A project pins toylib==1.0.0, its requirements.txt names the index (`--index-url`, as pip reads
// it); the transcript shows the library reported as not checked, fetched statically, then checked, narrowed by
// bisection, and its history with provenance. Nothing outside this machine is asked; the user's own matrices and
// cache are not touched (a fresh store and cache under a temporary home).
// Usage: npm run build && node --import tsx scripts/index-demo.ts > transcript.txt
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPackageIndex, toylibCode } from '../test/support/package-index.js';

const root = join(__dirname, '..');
const python = process.env.ANACHRON_PYTHON ?? 'python3';
const RELEASES = ['1.0.0', '1.1.0', '1.2.0', '2.0.0', '3.0.0'];

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'anachron-index-demo-'));
  const index = await startPackageIndex(python, join(work, 'files'), RELEASES.map((version) => ({ name: 'toylib', version, code: toylibCode(version, true) })));
  try {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'anachron'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin', 'anachron.js')}" "$@"\n`);
    chmodSync(join(bin, 'anachron'), 0o755);
    const home = join(work, 'home');
    const project = join(work, 'project');
    mkdirSync(home);
    mkdirSync(project);
    writeFileSync(join(project, 'requirements.txt'), `--index-url ${index.url}\ntoylib==1.0.0\n`);
    writeFileSync(join(project, 'app.py'), 'import toylib\n\nprint(toylib.area(2))\nprint(toylib.new_api())\nprint(toylib.scale(2, ratio=3))\nprint(toylib.old_api())\n');
    // A user with nothing configured: the machine's pip and uv files are not read, the store and cache are new.
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      PIP_CONFIG_FILE: '/dev/null',
      UV_NO_CONFIG: '1',
      NETRC: join(home, 'no-netrc'),
      ANACHRON_USER_MATRICES: join(home, 'matrices'),
      ANACHRON_CACHE: join(home, 'cache'),
      ANACHRON_OFFLINE: '',
      NO_COLOR: '1',
    };
    const say = (line: string) => process.stdout.write(`${line}\n`);
    // Not spawnSync: the index answers from this process's event loop.
    const run = async (command: string) => {
      say(`$ ${command}`);
      const child = spawn('bash', ['-c', `${command} 2>&1`], { cwd: project, env: { ...process.env, ...env } });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      process.stdout.write(out.replaceAll(work, '$DEMO'));
      say(`[exit ${status}]`);
      say('');
    };
    say(`# anachron: a library no matrix covers, from a package index on this machine (${new Date().toISOString()})`);
    say(`# index: ${index.url} (PEP 691 JSON and PEP 503 HTML, wheels built for toylib ${RELEASES.join(', ')}); $DEMO is ${work}`);
    say('');
    await run('cat requirements.txt app.py');
    await run(`curl -s -H 'Accept: application/vnd.pypi.simple.v1+json' ${index.url}/toylib/ | head -c 400; echo`);
    await run(`curl -s ${index.url}/toylib/ | head -c 300; echo`);
    say('# 1. not covered: the check says so, with the command that covers it');
    await run('anachron check .');
    await run('anachron coverage');
    say('# 2. fetched from the index requirements.txt names (the pin, and the newest release for the history)');
    await run('anachron matrix fetch toylib==1.0.0');
    say('# 3. checked with the fetched columns');
    await run('anachron check .');
    say('# 4. --fetch narrows "added between" by bisecting over the index\'s release list');
    await run('anachron check --fetch .');
    await run('anachron history toylib.new_api toylib.scale');
    say('# 5. the same code at another pin, from the columns already fetched (old_api was removed in 3.0.0)');
    await run('anachron check . --pin toylib==3.0.0');
    await run('anachron coverage');
    await run('anachron matrix cache list');
  } finally {
    await index.close();
    rmSync(work, { recursive: true, force: true });
  }
}

void main();
