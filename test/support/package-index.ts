// A real package index on 127.0.0.1 for tests: pure-Python wheels built here (by the host's Python zipfile), served as
// PEP 503 HTML and PEP 691 JSON pages (upload-time when a release has one), the file bytes under /files/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface FakeRelease {
  name: string;
  version: string;
  /** Requires-Dist lines. */
  requires?: string[];
  requiresPython?: string;
  classifiers?: string[];
  /** ISO upload time; absent: the page gives none. */
  uploadedAt?: string;
  /** The module's source (NAME/__init__.py, NAME with "-" as "_"). */
  code: string;
}

const BUILD = String.raw`
import base64, hashlib, json, os, sys, zipfile
spec = json.load(open(sys.argv[1]))
out = sys.argv[2]
for r in spec:
    mod = r["name"].replace("-", "_")
    dist = "%s-%s.dist-info" % (mod, r["version"])
    meta = ["Metadata-Version: 2.1", "Name: " + r["name"], "Version: " + r["version"]]
    if r.get("requiresPython"): meta.append("Requires-Python: " + r["requiresPython"])
    meta += ["Classifier: " + c for c in r.get("classifiers", [])]
    meta += ["Requires-Dist: " + d for d in r.get("requires", [])]
    files = {
        mod + "/__init__.py": r["code"],
        dist + "/METADATA": "\n".join(meta) + "\n",
        dist + "/WHEEL": "Wheel-Version: 1.0\nGenerator: anachron-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append("%s,sha256=%s,%d" % (name, digest, len(data)))
    record.append(dist + "/RECORD,,")
    files[dist + "/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(os.path.join(out, "%s-%s-py3-none-any.whl" % (mod, r["version"])), "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
`;

export interface FakeIndex {
  /** The simple index URL: http://127.0.0.1:PORT/simple */
  url: string;
  /** Project pages asked for, in order ("json" or "html"). */
  requests: string[];
  close(): Promise<void>;
}

/** Builds the wheels into `dir` with `python` and serves them; `json: false` serves HTML pages only. */
export async function startPackageIndex(python: string, dir: string, releases: FakeRelease[], options: { json?: boolean } = {}): Promise<FakeIndex> {
  mkdirSync(dir, { recursive: true });
  const specFile = join(dir, 'spec.json');
  writeFileSync(specFile, JSON.stringify(releases));
  const built = spawnSync(python, ['-c', BUILD, specFile, dir], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the test wheels failed: ${built.stderr}`);
  const wheels = readdirSync(dir).filter((f) => f.endsWith('.whl'));
  const sha = (f: string) => createHash('sha256').update(readFileSync(join(dir, f))).digest('hex');
  const requests: string[] = [];
  const normalized = (n: string) => n.toLowerCase().replace(/[-_.]+/g, '-');
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const file = /^\/files\/([^/]+)$/.exec(url);
    if (file && wheels.includes(file[1]!)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(join(dir, file[1]!)));
      return;
    }
    const page = /^\/simple\/([^/]+)\/?$/.exec(url);
    const project = page ? normalized(page[1]!) : null;
    const mine = releases.filter((r) => normalized(r.name) === project);
    if (!project || mine.length === 0) {
      res.writeHead(404).end('not found');
      return;
    }
    const files = mine.map((r) => ({ r, filename: `${r.name.replace(/-/g, '_')}-${r.version}-py3-none-any.whl` }));
    const wantsJson = options.json !== false && (req.headers.accept ?? '').includes('application/vnd.pypi.simple.v1+json');
    requests.push(wantsJson ? 'json' : 'html');
    if (wantsJson) {
      res.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' }).end(JSON.stringify({
        meta: { 'api-version': '1.1' },
        name: project,
        files: files.map(({ r, filename }) => ({
          filename, url: `../../files/${filename}`, hashes: { sha256: sha(filename) },
          ...(r.requiresPython ? { 'requires-python': r.requiresPython } : {}),
          ...(r.uploadedAt ? { 'upload-time': r.uploadedAt } : {}),
        })),
        versions: [...new Set(mine.map((r) => r.version))],
      }));
      return;
    }
    const links = files.map(({ r, filename }) => `<a href="../../files/${filename}#sha256=${sha(filename)}"${r.requiresPython ? ` data-requires-python="${r.requiresPython.replace(/>/g, '&gt;').replace(/</g, '&lt;')}"` : ''}>${filename}</a>`);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html><body>${links.join('<br>')}</body></html>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/simple`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
