// `npm run package`: bundles, then packages ONE universal .vsix with @vscode/vsce, offline (no --target: it installs
// on every platform VS Code runs on). Nothing platform-specific goes in: the bundles, the .wasm files (tree-sitter,
// its Python grammar, the WebAssembly SQLite the extension reads the matrices with), the matrices, docs and
// python-probe's Python. Then checks what went in — the files the extension needs, and no native module, executable,
// node_modules, sources, tests or source maps — and prints the path and size.
//   node scripts/package.mjs [--out FILE]
// package.json's "files" list is for the npm package of the CLI, and vsce refuses "files" next to .vscodeignore;
// so vsce runs in a staging folder (out/vsix-stage) that holds what .vscodeignore admits and package.json without
// "files" or dependencies (everything the extension runs is in the bundles).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));
const started = Date.now();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1]) : join(root, 'out', `${pkg.name}-${pkg.version}.vsix`);
mkdirSync(dirname(out), { recursive: true });

execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });

// The staging folder: a superset of what ships; .vscodeignore (copied along) still decides.
const stage = join(root, 'out', 'vsix-stage');
rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
const skip = (src) => !/(^|[\\/])(__pycache__|\.pytest_cache)([\\/]|$)|\.pyc$|\.map$/.test(src);
for (const entry of ['README.md', 'LICENSE', '.vscodeignore', 'dist', 'media', 'docs/rules', 'python-probe', 'libraries']) {
  if (existsSync(join(root, entry))) cpSync(join(root, entry), join(stage, entry), { recursive: true, filter: skip });
}
// The drift suite's bundled task files (the CLI finds them beside dist/).
if (existsSync(join(root, 'tasks', 'drift'))) {
  mkdirSync(join(stage, 'tasks', 'drift'), { recursive: true });
  for (const name of readdirSync(join(root, 'tasks', 'drift')).filter((n) => n.endsWith('.json'))) cpSync(join(root, 'tasks', 'drift', name), join(stage, 'tasks', 'drift', name));
}
mkdirSync(join(stage, 'matrices'), { recursive: true });
for (const name of readdirSync(join(root, 'matrices')).filter((n) => n.endsWith('.sqlite') || n === 'README.md' || n === 'import-roots.json')) cpSync(join(root, 'matrices', name), join(stage, 'matrices', name));
const { files: _npmFiles, devDependencies: _dev, dependencies: _deps, scripts: _scripts, bin: _bin, ...manifest } = pkg;
writeFileSync(join(stage, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');

const vsce = join(dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
execFileSync(
  process.execPath,
  [vsce, 'package', '--no-dependencies', '--out', out, '--skip-license', '--allow-missing-repository', '--no-rewrite-relative-links', '--no-update-package-json'],
  { cwd: stage, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, VSCE_TELEMETRY: 'off' } },
);

/** File names in a zip, from its central directory. */
function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    names.push(buf.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
  }
  return names;
}

const names = zipEntries(out).filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
const required = [
  'package.json',
  'README.md',
  'dist/client.js',
  'dist/server.js',
  'dist/cli.js',
  'dist/worker.js',
  'dist/web-tree-sitter.wasm',
  'dist/tree-sitter-python.wasm',
  'dist/sqlite3.wasm',
  'matrices/README.md',
  'matrices/import-roots.json',
  'media/icon.png',
  'media/history.js',
  'media/history.css',
  'media/pip-requirements.tmLanguage.json',
  'python-probe/probe.py',
  'libraries/distributions.toml',
];
const problems = required.filter((f) => !names.some((n) => n.toLowerCase() === f.toLowerCase())).map((f) => `missing ${f}`);
if (!names.some((n) => /^matrices\/[^/]+\.sqlite$/.test(n))) problems.push('no matrices/*.sqlite');
if (!names.some((n) => n.startsWith('docs/rules/'))) problems.push('no docs/rules/');
if (!names.some((n) => /^tasks\/drift\/[^/]+\.json$/.test(n))) problems.push('no tasks/drift/*.json (the drift suite\'s tasks)');
// Anything that would tie the package to one platform, and what only developers need.
const forbidden = [/\.node$/, /\.(so|dylib|dll|exe)(\.|$)/, /^node_modules\//, /\.ts$/, /\.map$/, /(^|\/)src\//, /(^|\/)prebuilds\//, /(^|\/)test\//, /^matrices\/surfaces\//, /__pycache__/, /\.pyc$/, /(^|\/)deps\//];
for (const n of names) if (forbidden.some((re) => re.test(n)) && !n.endsWith('.d.ts')) problems.push(`should not ship ${n}`);
if (problems.length) {
  console.error(`package: ${relative(root, out)} is wrong:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
const size = statSync(out).size;
const manifestInZip = JSON.parse(readFileSync(join(stage, 'package.json'), 'utf8'));
console.log(`package: ${relative(root, out) || out}: ${(size / 1024 / 1024).toFixed(2)} MiB, ${names.length} files, universal (every platform; VS Code ${manifestInZip.engines.vscode}); ${((Date.now() - started) / 1000).toFixed(1)} s`);
