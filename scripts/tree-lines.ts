// The source tree as folders with line counts, at one or more git revisions side by side: the before/after figure of a
// reorganisation. Counts the lines of the source files git tracks (.ts .mts .mjs .js .py .sh), not data, docs or
// generated bundles; a folder of server/src/ or client/src/ is shown to two levels below it, anything else to one.
//   node --import tsx scripts/tree-lines.ts [REV...]      (default: HEAD)
import { execFileSync } from 'node:child_process';

const SOURCE = /\.(ts|mts|mjs|js|py|sh)$/;
const SKIPPED = /^(dist|node_modules|matrices)\//;

/** The folder a file's lines are counted under. */
export function folderOf(path: string): string {
  const parts = path.split('/').slice(0, -1);
  const depth = parts[1] === 'src' && (parts[0] === 'server' || parts[0] === 'client') ? 4 : parts[0] === 'python-probe' ? 3 : 1;
  return parts.length === 0 ? '.' : parts.slice(0, depth).join('/');
}

function git(args: string[], input?: string): Buffer {
  return execFileSync('git', args, { maxBuffer: 1 << 30, ...(input === undefined ? {} : { input }) });
}

/** Lines per folder at a revision. */
export function linesAt(rev: string): Map<string, number> {
  const files = git(['ls-tree', '-r', '--format=%(objectname) %(path)', rev])
    .toString()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ blob: line.slice(0, line.indexOf(' ')), path: line.slice(line.indexOf(' ') + 1) }))
    .filter((file) => SOURCE.test(file.path) && !SKIPPED.test(file.path) && !file.path.endsWith('.d.ts'));
  const contents = git(['cat-file', '--batch'], files.map((file) => file.blob).join('\n') + '\n');
  const lines = new Map<string, number>();
  let at = 0;
  for (const file of files) {
    // Each object is "<sha> blob <size>\n<content>\n".
    const headerEnd = contents.indexOf(10, at);
    const size = Number(contents.subarray(at, headerEnd).toString().split(' ')[2]);
    const body = contents.subarray(headerEnd + 1, headerEnd + 1 + size);
    at = headerEnd + 1 + size + 1;
    let count = 0;
    for (const byte of body) if (byte === 10) count++;
    if (size > 0 && body[size - 1] !== 10) count++;
    const folder = folderOf(file.path);
    lines.set(folder, (lines.get(folder) ?? 0) + count);
  }
  return lines;
}

if (process.argv[1] !== undefined && /tree-lines\.ts$/.test(process.argv[1])) {
  const revs = process.argv.length > 2 ? process.argv.slice(2) : ['HEAD'];
  const counts = revs.map(linesAt);
  const folders = [...new Set(counts.flatMap((count) => [...count.keys()]))].sort();
  const width = Math.max(6, ...folders.map((folder) => folder.length));
  const column = (text: string) => text.padStart(Math.max(9, ...revs.map((rev) => rev.length)) + 2);
  console.log(['folder'.padEnd(width), ...revs.map(column)].join(''));
  for (const folder of folders) console.log([folder.padEnd(width), ...counts.map((count) => column(count.has(folder) ? String(count.get(folder)) : '-'))].join(''));
  console.log(['total'.padEnd(width), ...counts.map((count) => column(String([...count.values()].reduce((sum, n) => sum + n, 0))))].join(''));
}
