// A real package index on 127.0.0.1 for tests: wheels and sdists built here (by the host's Python zipfile and
// tarfile), served as PEP 503 HTML and PEP 691 JSON pages (PEP 592 yanked, upload-time when a release has one), the
// file bytes under /files/. Faults a real index has are played on request: HTTP 500, a page or file that never
// answers, bytes that do not match the hash the page gives, a truncated archive (whose hash the page vouches for),
// basic auth, redirects of the files to another origin.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';

export type FileFault = 'hash-mismatch' | 'truncated' | 'status-500' | 'hang';

export interface FakeRelease {
  name: string;
  version: string;
  /** Requires-Dist lines. */
  requires?: string[];
  requiresPython?: string;
  classifiers?: string[];
  /** ISO upload time; absent: the page gives none. */
  uploadedAt?: string;
  /** The package's __init__.py (NAME with "-" as "_"). */
  code: string;
  /** More files of the package, by path relative to it ("core/frame.py"). */
  modules?: Record<string, string>;
  /** Files beside the package, by path from the archive's root: another top-level package ("attrs/__init__.py"). */
  rootFiles?: Record<string, string>;
  /** The wheel's top_level.txt lines (default: the package alone); null: no top_level.txt (hatchling's wheels). */
  topLevel?: string[] | null;
  /** Which files the release has: a wheel (default), an sdist, or both. */
  dist?: 'wheel' | 'sdist' | 'both';
  /** The sdist's setup.py (default: a plain setuptools call). */
  setupPy?: string;
  /** PEP 592: yanked, with this reason ('' for none). */
  yanked?: string;
  /** A fault of this release's files. */
  fault?: FileFault;
}

const BUILD = String.raw`
import base64, hashlib, io, json, os, sys, tarfile, zipfile
spec = json.load(open(sys.argv[1]))
out = sys.argv[2]
for r in spec:
    mod = r["name"].replace("-", "_")
    meta = ["Metadata-Version: 2.1", "Name: " + r["name"], "Version: " + r["version"]]
    if r.get("requiresPython"): meta.append("Requires-Python: " + r["requiresPython"])
    meta += ["Classifier: " + c for c in r.get("classifiers", [])]
    meta += ["Requires-Dist: " + d for d in r.get("requires", [])]
    package = {mod + "/__init__.py": r["code"]}
    for rel, text in sorted((r.get("modules") or {}).items()):
        package[mod + "/" + rel] = text
    package.update(r.get("rootFiles") or {})
    kind = r.get("dist", "wheel")
    if kind in ("wheel", "both"):
        dist = "%s-%s.dist-info" % (mod, r["version"])
        files = dict(package)
        files[dist + "/METADATA"] = "\n".join(meta) + "\n"
        files[dist + "/WHEEL"] = "Wheel-Version: 1.0\nGenerator: anachron-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        top = r.get("topLevel", [mod])
        if top is not None:
            files[dist + "/top_level.txt"] = "".join(t + "\n" for t in top)
        record = []
        for name, text in files.items():
            data = text.encode()
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append("%s,sha256=%s,%d" % (name, digest, len(data)))
        record.append(dist + "/RECORD,,")
        files[dist + "/RECORD"] = "\n".join(record) + "\n"
        with zipfile.ZipFile(os.path.join(out, "%s-%s-py3-none-any.whl" % (mod, r["version"])), "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in files.items():
                z.writestr(name, text)
    if kind in ("sdist", "both"):
        root = "%s-%s" % (mod, r["version"])
        files = dict(package)
        files["PKG-INFO"] = "\n".join(meta) + "\n"
        files["setup.py"] = r.get("setupPy") or "from setuptools import setup\nsetup(name=%r, version=%r, packages=[%r])\n" % (r["name"], r["version"], mod)
        files["tests/test_it.py"] = "def test_nothing():\n    pass\n"
        with tarfile.open(os.path.join(out, root + ".tar.gz"), "w:gz") as t:
            for name, text in sorted(files.items()):
                data = text.encode()
                info = tarfile.TarInfo(root + "/" + name)
                info.size = len(data)
                info.mtime = 0
                t.addfile(info, io.BytesIO(data))
`;

export interface FakeIndex {
  /** The simple index URL: http://127.0.0.1:PORT/simple */
  url: string;
  /** Project pages asked for, in order ("json" or "html"). */
  requests: string[];
  /** Every path asked for, in order, with the Authorization header seen (or null). */
  hits: { path: string; authorization: string | null }[];
  /** The files served, by name, with their sha256 as the page gives it. */
  files: Map<string, string>;
  close(): Promise<void>;
}

export interface IndexOptions {
  /** false: HTML pages only (a PEP 503 index). */
  json?: boolean;
  /** Every request must carry these credentials (HTTP 401 otherwise). */
  auth?: { login: string; password: string };
  /** File links point at this other origin, which redirects back (credentials must not follow). */
  filesOrigin?: 'same' | 'redirect-elsewhere';
  /** Pages answer HTTP 500 (the index is broken). */
  pagesFail?: boolean;
  /** Pages never answer (an index that accepts the connection and hangs). */
  pagesHang?: boolean;
}

function fileNameOf(r: FakeRelease, kind: 'wheel' | 'sdist'): string {
  const mod = r.name.replace(/-/g, '_');
  return kind === 'wheel' ? `${mod}-${r.version}-py3-none-any.whl` : `${mod}-${r.version}.tar.gz`;
}

/**
 * The package index of a describe block's tests: before them, a fresh folder (anachron-PREFIX-…) and an index serving
 * the releases RELEASES gives for that folder, built into its files/; after them, the index closed and the folder
 * removed. The fields are set once the tests run.
 */
export function indexForTests(python: string, prefix: string, releases: (work: string) => FakeRelease[]): { readonly index: FakeIndex; readonly work: string } {
  const served = {} as { index: FakeIndex; work: string };
  before(async () => {
    served.work = mkdtempSync(join(tmpdir(), `anachron-${prefix}-`));
    served.index = await startPackageIndex(python, join(served.work, 'files'), releases(served.work));
  });
  after(async () => {
    await served.index.close();
    rmSync(served.work, { recursive: true, force: true });
  });
  return served;
}

/** Builds the release files into `dir` with `python` and serves them. */
export async function startPackageIndex(python: string, dir: string, releases: FakeRelease[], options: IndexOptions = {}): Promise<FakeIndex> {
  mkdirSync(dir, { recursive: true });
  const specFile = join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify(releases));
  const built = spawnSync(python, ['-c', BUILD, specFile, dir], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the test release files failed: ${built.stderr}`);
  const onDisk = new Set(readdirSync(dir));
  const filesOf = (r: FakeRelease) => (r.dist === 'both' ? ['wheel', 'sdist'] : [r.dist ?? 'wheel']).map((k) => fileNameOf(r, k as 'wheel' | 'sdist')).filter((f) => onDisk.has(f));
  const releaseOf = new Map(releases.flatMap((r) => filesOf(r).map((f) => [f, r] as const)));
  const bytesOf = (f: string): Buffer => {
    const data = readFileSync(join(dir, f));
    return releaseOf.get(f)?.fault === 'truncated' ? data.subarray(0, Math.floor(data.length / 2)) : data;
  };
  const files = new Map([...releaseOf.keys()].map((f) => [f, createHash('sha256').update(bytesOf(f)).digest('hex')] as const));
  const requests: string[] = [];
  const hits: FakeIndex['hits'] = [];
  const normalized = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '-');
  const expected = options.auth ? `Basic ${Buffer.from(`${options.auth.login}:${options.auth.password}`).toString('base64')}` : null;
  let otherPort = 0;

  const serveFile = (name: string, res: ServerResponse) => {
    const r = releaseOf.get(name)!;
    if (r.fault === 'status-500') return void res.writeHead(500).end('internal error');
    if (r.fault === 'hang') return; // never answers
    const data = r.fault === 'hash-mismatch' ? Buffer.concat([bytesOf(name), Buffer.from('tampered')]) : bytesOf(name);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(data.length) }).end(data);
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    hits.push({ path: url, authorization: req.headers.authorization ?? null });
    if (expected && req.headers.authorization !== expected) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end('credentials, please');
    const file = /^\/files\/([^/?#]+)$/.exec(url);
    if (file && releaseOf.has(decodeURIComponent(file[1]!))) return serveFile(decodeURIComponent(file[1]!), res);
    const page = /^\/simple\/([^/]+)\/?$/.exec(url);
    const project = page ? normalized(page[1]!) : null;
    const mine = releases.filter((r) => normalized(r.name) === project);
    if (!project || mine.length === 0) return void res.writeHead(404).end('not found');
    if (options.pagesFail) return void res.writeHead(500).end('the index is down');
    if (options.pagesHang) return; // never answers
    const base = options.filesOrigin === 'redirect-elsewhere' ? `http://localhost:${otherPort}/files/` : '../../files/';
    const listed = mine.flatMap((r) => filesOf(r).map((filename) => ({ r, filename })));
    const wantsJson = options.json !== false && (req.headers.accept ?? '').includes('application/vnd.pypi.simple.v1+json');
    requests.push(wantsJson ? 'json' : 'html');
    if (wantsJson) {
      return void res.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' }).end(JSON.stringify({
        meta: { 'api-version': '1.1' },
        name: project,
        files: listed.map(({ r, filename }) => ({
          filename, url: `${base}${filename}`, hashes: { sha256: files.get(filename) },
          ...(r.requiresPython ? { 'requires-python': r.requiresPython } : {}),
          ...(r.uploadedAt ? { 'upload-time': r.uploadedAt } : {}),
          ...(r.yanked !== undefined ? { yanked: r.yanked === '' ? true : r.yanked } : {}),
        })),
        versions: [...new Set(mine.map((r) => r.version))],
      }));
    }
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/>/g, '&gt;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
    const links = listed.map(({ r, filename }) => `<a href="${base}${filename}#sha256=${files.get(filename)}"${r.requiresPython ? ` data-requires-python="${esc(r.requiresPython)}"` : ''}${r.yanked !== undefined ? ` data-yanked="${esc(r.yanked)}"` : ''}>${filename}</a>`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body>${links.join('<br>')}</body></html>`);
  };

  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  // The other origin (localhost instead of 127.0.0.1) redirects each file back to the index.
  const other: Server = createServer((req, res) => {
    hits.push({ path: `elsewhere:${req.url}`, authorization: req.headers.authorization ?? null });
    res.writeHead(302, { location: `http://127.0.0.1:${port}${req.url}` }).end();
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherPort = (other.address() as AddressInfo).port;
  const sockets = new Set<import('node:net').Socket>();
  for (const s of [server, other]) s.on('connection', (c) => (sockets.add(c), c.on('close', () => sockets.delete(c))));
  return {
    url: `http://127.0.0.1:${port}/simple`,
    requests,
    hits,
    files,
    close: async () => {
      for (const c of sockets) c.destroy();
      await Promise.all([server, other].map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  };
}

/** toylib's module at a version, the library the package-index tests and `scripts/index-demo.ts` serve: `area`
 * throughout, `old_api` gone in 3.0.0, `new_api` from 1.2.0, `scale`'s keyword `factor` renamed `ratio` in 2.0.0
 * (documented: with docstrings). */
export function toylibCode(v: string, documented = false): string {
  const parts = [`__version__ = "${v}"\n`, 'def area(r):\n    return 3.14 * r * r\n'];
  if (v !== '3.0.0') parts.push('def old_api():\n    return 1\n');
  if (!['1.0.0', '1.1.0'].includes(v)) parts.push('def new_api():\n    return 2\n');
  const [keyword, doc] = v.startsWith('1.') ? ['factor', documented ? '    """Scale x by factor."""\n' : ''] : ['ratio', documented ? '    """Scale x by ratio."""\n' : ''];
  parts.push(`def scale(x, ${keyword}=1):\n${doc}    return x * ${keyword}\n`);
  return parts.join('\n');
}
