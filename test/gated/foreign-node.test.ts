// Gated (ANACHRON_GATED=1): the language server on Node.js versions whose ABI differs from the one better-sqlite3 was
// built for — as desktop VS Code's Electron does — with no Node.js on PATH. The native module cannot load there, so
// the server must read the matrices with the WebAssembly SQLite and give the example project exactly the
// diagnostics it gives natively. The runtimes are the official binaries from npm (scripts/node-runtime.sh, ~30 MB
// each, cached in ${ANACHRON_NODE_CACHE:-~/.cache/anachron/node}).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspSession, REPO } from '../support/lsp-session.js';

const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = !GATED ? 'set ANACHRON_GATED=1 to install other Node.js versions from npm and run the server on them' : process.platform !== 'linux' || process.arch !== 'x64' ? 'the runtimes fetched here are linux-x64' : false;
const EXAMPLE = join(REPO, 'examples', 'legacy-numpy');
/** The oldest Node the server supports and the one current VS Code's Electron is built on. */
const VERSIONS = ['18.20.8', '22.23.5'];

function runtime(version: string): string {
  const r = spawnSync('bash', [join(REPO, 'scripts', 'node-runtime.sh'), version], { encoding: 'utf8', timeout: 10 * 60_000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').pop()!;
}

/** Every Python file of the example project, opened in one session: the store in use and the diagnostics by file. */
async function diagnosticsOf(session: LspSession): Promise<{ store: string; files: Record<string, Diagnostic[]> }> {
  const { store } = await session.initialize(EXAMPLE);
  const files: Record<string, Diagnostic[]> = {};
  for (const name of readdirSync(EXAMPLE).filter((n) => n.endsWith('.py')).sort()) {
    files[name] = await session.open(join(EXAMPLE, name), readFileSync(join(EXAMPLE, name), 'utf8'));
  }
  return { store, files };
}

describe('the server on a Node.js whose ABI differs from the better-sqlite3 build', { skip: SKIP }, () => {
  let native: Record<string, Diagnostic[]>;
  test('on this Node (better-sqlite3 loads): the reference diagnostics', async () => {
    const session = new LspSession();
    try {
      const reference = await diagnosticsOf(session);
      assert.equal(reference.store, 'native');
      native = reference.files;
    } finally {
      await session.close();
    }
    assert.ok(Object.values(native).flat().some((d) => d.code === 'anachronistic-api'), 'the example project has findings');
  });

  for (const version of VERSIONS) {
    test(`Node ${version}, no Node.js on PATH: the WebAssembly SQLite, the same diagnostics`, { timeout: 15 * 60_000 }, async () => {
      const node = runtime(version);
      const abi = execFileSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
      assert.notEqual(abi, process.versions.modules, 'a runtime of another ABI');
      const noNode = mkdtempSync(join(tmpdir(), 'anachron-no-node-'));
      const session = new LspSession({ PATH: noNode, ANACHRON_SQLITE: '' }, node);
      let got: { store: string; files: Record<string, Diagnostic[]> };
      try {
        got = await diagnosticsOf(session);
      } finally {
        await session.close();
      }
      assert.ok(session.logs.some((l) => new RegExp(`matrices read with WebAssembly SQLite .*better-sqlite3 does not load in Node v${version.replace(/\./g, '\\.')} \\(ABI ${abi}\\)`).test(l)), session.logs.join('\n'));
      assert.equal(got.store, 'wasm');
      assert.deepEqual(got.files, native);
    });
  }
});
