// Bundles the extension client, the language server and the CLI with esbuild, and puts the .wasm files beside
// them (tree-sitter and its Python grammar; the WebAssembly SQLite). Runs on `npm install` (prepare) and
// `npm run build`.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // better-sqlite3 is a native addon: loaded from node_modules where it exists, never bundled (the .vsix has none).
  external: ['vscode', 'better-sqlite3', 'web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-python/package.json'],
  // web-tree-sitter's ESM build locates itself with import.meta.url; give the CommonJS bundle a real one.
  banner: { js: "const __anachronImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__anachronImportMetaUrl' },
};

await Promise.all([
  build({ ...common, entryPoints: [join(root, 'client/src/extension.ts')], outfile: join(dist, 'client.js') }),
  build({ ...common, entryPoints: [join(root, 'server/src/lsp/start.ts')], outfile: join(dist, 'server.js') }),
  build({ ...common, entryPoints: [join(root, 'server/src/cli/main.ts')], outfile: join(dist, 'cli.js') }),
  // Worker threads of the CLI's many-file commands (cli/worker-pool.ts).
  build({ ...common, entryPoints: [join(root, 'server/src/cli/worker.ts')], outfile: join(dist, 'worker.js') }),
  build({ ...common, entryPoints: [join(root, 'server/src/perf-api.ts')], outfile: join(dist, 'perf-api.js') }),
  // What bin/anachron.js asks before loading the CLI: whether to run it again without the WebAssembly trap handler.
  build({ ...common, entryPoints: [join(root, 'server/src/wasm-memory.ts')], outfile: join(dist, 'wasm-memory.js') }),
  // The MCP server and its SDK, loaded by `anachron mcp` only.
  build({ ...common, entryPoints: [join(root, 'server/src/mcp/server.ts')], outfile: join(dist, 'mcp.js') }),
]);

copyFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), join(dist, 'web-tree-sitter.wasm'));
copyFileSync(join(dirname(require.resolve('tree-sitter-python/package.json')), 'tree-sitter-python.wasm'), join(dist, 'tree-sitter-python.wasm'));
// The bundled @sqlite.org/sqlite-wasm looks for sqlite3.wasm beside the bundle (its import.meta.url).
copyFileSync(join(dirname(require.resolve('@sqlite.org/sqlite-wasm/package.json')), 'dist', 'sqlite3.wasm'), join(dist, 'sqlite3.wasm'));
console.log('anachron: bundled dist/client.js, dist/server.js, dist/cli.js');
