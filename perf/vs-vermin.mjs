// Minimum Python versions side by side: vermin's (hand-written rules) and anachron's `min-versions` (the python
// matrix and the syntax rules), on the same files in one run. Each project is read from a bare git repository at a
// tag (its Python files matching a pattern, and its manifests, so anachron sees the range it declares); both tools
// run over the same folder; per file, the two minima are compared on the versions anachron tracks (vermin's 3.6 is
// anachron's "3.8 or older"). Prints the agreement and every file where they differ, with what forces each side.
// Usage: node perf/vs-vermin.mjs --vermin PATH REPO@TAG:PATTERN... [--max-files N] [--out FILE.md]
//   PATTERN: a path regex, e.g. 'numpy/.*/tests/test_[^/]+\.py$'
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeOption } from './options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const vermin = takeOption(args, '--vermin', 'vermin');
const maxFiles = Number(takeOption(args, '--max-files', '150'));
const outFile = takeOption(args, '--out', null);
if (args.length === 0) {
  console.error('usage: node perf/vs-vermin.mjs --vermin PATH REPO@TAG:PATTERN... [--max-files N] [--out FILE.md]');
  process.exit(2);
}

const MANIFESTS = ['pyproject.toml', 'setup.py', 'setup.cfg', '.python-version'];
const work = mkdtempSync(join(tmpdir(), 'anachron-vs-vermin-'));
const lines = [];
const say = (l = '') => {
  console.log(l);
  lines.push(l);
};
const minorKey = (v) => [...v.split('.').map(Number), 0, 0].slice(0, 2);
const cmp = (a, b) => minorKey(a)[0] - minorKey(b)[0] || minorKey(a)[1] - minorKey(b)[1];

try {
  const projects = args.map((spec) => {
    const m = /^(.+)@([^:]+):(.+)$/.exec(spec);
    if (!m) throw new Error(`not REPO@TAG:PATTERN: ${spec}`);
    const [, repo, tag, pattern] = m;
    const name = `${repo.split('/').filter((p) => p.includes('+'))[0]?.split('+')[1] ?? 'project'}-${tag}`;
    const dir = join(work, name);
    const git = (...a) => execFileSync('git', ['--git-dir', repo, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const all = git('ls-tree', '-r', '--name-only', tag).split('\n').filter(Boolean);
    const re = new RegExp(pattern);
    const matching = all.filter((f) => f.endsWith('.py') && re.test(f)).sort();
    const step = Math.max(1, Math.ceil(matching.length / maxFiles));
    const files = matching.filter((_, i) => i % step === 0);
    for (const f of [...files, ...MANIFESTS.filter((x) => all.includes(x))]) {
      let text;
      try {
        text = git('show', `${tag}:${f}`);
      } catch {
        continue; // a blob the mirror lacks
      }
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    return { name, dir, files };
  });

  say(`# Minimum Python versions: vermin and anachron min-versions`);
  say();
  const versionOf = spawnSync(vermin, ['--version'], { encoding: 'utf8' });
  say(`vermin ${versionOf.stdout.trim()}; anachron's python matrix tracks 3.8–3.14, so vermin's minima below 3.8 count as 3.8.`);
  let same = 0;
  let total = 0;
  for (const p of projects) {
    // vermin: one line per finding and a summary line per file (`path:::py2:py3:`).
    const v = spawnSync(vermin, ['--no-tips', '--format', 'parsable', '--no-parse-comments', p.dir], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const verminMin = new Map();
    const verminWhy = new Map();
    for (const line of v.stdout.split('\n')) {
      const m = /^(.*?):(\d*):(\d*):([^:]*):([^:]*):(.*)$/.exec(line);
      if (!m || !m[1]) continue;
      const file = m[1].slice(p.dir.length + 1);
      // "!3": not Python 3 at all; "~3": nothing decisive found (any 3.x).
      const py3 = m[5] === '!3' ? null : m[5] ? m[5].replace(/^~/, '') : null;
      if (!m[2]) verminMin.set(file, py3);
      else if (py3 && m[6]) (verminWhy.get(file) ?? verminWhy.set(file, []).get(file)).push({ line: Number(m[2]), version: py3, what: m[6] });
    }
    // anachron: min-versions over the same folder; per file, the lowest tracked version every usage works in.
    const a = spawnSync('node', [join(root, 'bin', 'anachron.js'), 'min-versions', '.', '--format', 'json', '--library', 'python'], { cwd: p.dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    const reqs = JSON.parse(a.stdout || '[]').filter((r) => r.library === 'python');
    const tracked = reqs[0]?.trackedVersions ?? [];
    const usagesOf = new Map();
    for (const r of reqs) for (const u of r.usages) (usagesOf.get(u.file) ?? usagesOf.set(u.file, []).get(u.file)).push(u);
    const anachronMin = (file) => {
      const usages = usagesOf.get(file) ?? [];
      return tracked.find((t) => usages.every((u) => u.worksIn.includes(t))) ?? null;
    };
    const declared = reqs.find((r) => r.declared)?.declared?.requirement ?? 'none';
    const differ = [];
    const histogram = { vermin: new Map(), anachron: new Map() };
    const count = (map, key) => map.set(key ?? 'none', (map.get(key ?? 'none') ?? 0) + 1);
    for (const file of p.files) {
      if (!verminMin.has(file)) continue; // vermin could not parse it (it says why on stderr)
      const vm = verminMin.get(file);
      const vClamped = vm === null ? null : cmp(vm, tracked[0] ?? '3.8') < 0 ? tracked[0] : vm;
      const am = anachronMin(file);
      count(histogram.vermin, vClamped);
      count(histogram.anachron, am);
      total++;
      if (vClamped === am) same++;
      else differ.push({ file, vermin: vm, anachron: am });
    }
    say();
    say(`## ${p.name}: ${p.files.length} files, declared ${declared}`);
    say();
    say(`${p.files.length - differ.length} of ${p.files.length} files agree.`);
    const show = (map) => [...map].sort(([a], [b]) => (a === 'none' ? 1 : b === 'none' ? -1 : cmp(a, b))).map(([k, n]) => `${k}: ${n}`).join(', ');
    say(`Minimum per file (vermin's below ${tracked[0] ?? '3.8'} counted as ${tracked[0] ?? '3.8'}) — vermin: ${show(histogram.vermin)}; anachron: ${show(histogram.anachron)}.`);
    for (const d of differ) {
      const vWhy = (verminWhy.get(d.file) ?? []).filter((w) => d.vermin && cmp(w.version, d.vermin) === 0).map((w) => `${w.line}: ${w.what}`);
      const aWhy = (usagesOf.get(d.file) ?? []).filter((u) => !d.anachron || !u.worksIn.includes(tracked[tracked.indexOf(d.anachron) - 1])).map((u) => `${u.line}: ${u.code} ${u.api}${u.parameter ? `(${u.parameter}=)` : ''}`);
      say(`- ${d.file}: vermin ${d.vermin ?? 'none'} [${vWhy.slice(0, 4).join('; ')}${vWhy.length > 4 ? '; …' : ''}], anachron ${d.anachron ?? 'none'} [${aWhy.slice(0, 4).join('; ')}${aWhy.length > 4 ? '; …' : ''}]`);
    }
  }
  say();
  say(`Overall: ${same} of ${total} files agree (${((100 * same) / Math.max(total, 1)).toFixed(1)}%).`);
  if (outFile) writeFileSync(outFile, lines.join('\n') + '\n');
} finally {
  rmSync(work, { recursive: true, force: true });
}
