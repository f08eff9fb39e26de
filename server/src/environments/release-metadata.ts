// What a release declares about where it runs, asked of the package index the environment is installed from: its
// Requires-Python and "Programming Language :: Python :: 3.X" classifiers (pip's installation report, so pip's own
// index, proxy and certificate settings apply), and when its files were uploaded (the index's PEP 691 JSON, PEP 700
// upload-time), which bounds its dependencies to the releases published by then.
import { spawn } from 'node:child_process';
import { normalizeDistributionName } from '../core/library-names.js';
import { versionsEqual } from '../core/versions.js';

export interface ReleaseMetadata {
  /** Distribution name, normalised. */
  name: string;
  version: string;
  requiresPython: string | null;
  /** The Python 3 minors its classifiers name ("3.10"), ascending. */
  pythonClassifiers: string[];
  /** The newest upload-time of the release's files (ISO), null when the index gives none. */
  uploadedAt: string | null;
}

export class ReleaseMetadataError extends Error {
  override name = 'ReleaseMetadataError';
}

export const DEFAULT_INDEX_URL = 'https://pypi.org/simple';

/** The Python 3 minors a classifier list names: "Programming Language :: Python :: 3.10" → "3.10". */
export function pythonMinorsOf(classifiers: readonly string[]): string[] {
  const minors = new Set<string>();
  for (const c of classifiers) {
    const m = /^Programming Language :: Python :: (3\.\d+)\s*$/.exec(c.trim());
    if (m) minors.add(m[1]!);
  }
  return [...minors].sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
}

interface PipReport {
  install?: { metadata?: { name?: string; version?: string; requires_python?: string; classifier?: string[] } }[];
}

/** Reads pip's installation report (`pip install --dry-run --report -`) for the requested release. */
export function metadataFromPipReport(text: string, library: string, version: string): Omit<ReleaseMetadata, 'uploadedAt'> {
  const start = text.indexOf('{');
  let report: PipReport;
  try {
    report = JSON.parse(start >= 0 ? text.slice(start) : text) as PipReport;
  } catch (e) {
    throw new ReleaseMetadataError(`pip's report is not JSON: ${(e as Error).message}`);
  }
  const name = normalizeDistributionName(library);
  const item = (report.install ?? []).find((i) => normalizeDistributionName(i.metadata?.name ?? '') === name && versionsEqual(i.metadata?.version ?? '', version));
  if (!item?.metadata) throw new ReleaseMetadataError(`pip's report has no ${library} ${version}`);
  return {
    name,
    version,
    requiresPython: item.metadata.requires_python?.trim() || null,
    pythonClassifiers: pythonMinorsOf(item.metadata.classifier ?? []),
  };
}

/** The arguments that make pip report a release's metadata without installing anything. */
export function pipReportArgs(library: string, version: string, indexUrl?: string): string[] {
  return ['-m', 'pip', 'install', '--dry-run', '--ignore-installed', '--no-deps', '--ignore-requires-python', '--prefer-binary',
    '--disable-pip-version-check', '--no-input', '--quiet', '--report', '-', ...(indexUrl ? ['--index-url', indexUrl] : []), `${library}==${version}`];
}

function run(argv: string[], options: { signal?: AbortSignal; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, env: { ...process.env, PIP_NO_INPUT: '1' }, windowsHide: true });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 5 * 60_000);
    child.stdout.on('data', (b: Buffer) => {
      if (stdout.length < 8 << 20) stdout += b.toString('utf8');
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString('utf8')).slice(-8000);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      fail(new ReleaseMetadataError(`cannot run ${argv[0]}: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** Asks pip (of the interpreter `python`) what LIBRARY==VERSION declares. */
export async function releaseMetadata(python: string, library: string, version: string, options: { indexUrl?: string; signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Omit<ReleaseMetadata, 'uploadedAt'>> {
  const r = await run([python, ...pipReportArgs(library, version, options.indexUrl)], options);
  if (r.code !== 0) {
    const tail = r.stderr.trim().split('\n').slice(-6).join('\n');
    throw new ReleaseMetadataError(`pip cannot find ${library}==${version}${options.indexUrl ? ` on ${options.indexUrl}` : ''} (exit ${r.code}; no package index reachable?)${tail ? `:\n${tail}` : ''}`);
  }
  return metadataFromPipReport(r.stdout, library, version);
}

/** The index pip installs from: --index-url, else PIP_INDEX_URL (UV_INDEX_URL for uv), else pip's configuration. */
export async function configuredIndexUrl(python: string | null, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.PIP_INDEX_URL) return env.PIP_INDEX_URL;
  if (env.UV_INDEX_URL) return env.UV_INDEX_URL;
  if (python) {
    try {
      const r = await run([python, '-m', 'pip', 'config', 'get', 'global.index-url'], { timeoutMs: 30_000 });
      const url = r.stdout.trim();
      if (r.code === 0 && /^(https?|file):\/\//.test(url)) return url;
    } catch {
      // pip's default then
    }
  }
  return DEFAULT_INDEX_URL;
}

/** The release a file of a project's index page belongs to: name-VERSION.tar.gz / .zip / name-VERSION-….whl. */
export function fileVersion(filename: string, project: string): string | null {
  const wheel = /^([^-]+)-([^-]+)-.*\.whl$/.exec(filename);
  if (wheel) return normalizeDistributionName(wheel[1]!) === project ? wheel[2]! : null;
  const sdist = /^(.+)-([^-]+)\.(?:tar\.gz|tar\.bz2|zip|tgz)$/.exec(filename);
  if (sdist) return normalizeDistributionName(sdist[1]!) === project ? sdist[2]! : null;
  return null;
}

/** The newest upload-time of the release's files in a PEP 691 project page, null when the page gives none. */
export function uploadTimeFromProjectPage(page: unknown, library: string, version: string): string | null {
  const files = (page as { files?: { filename?: unknown; 'upload-time'?: unknown; yanked?: unknown }[] } | null)?.files;
  if (!Array.isArray(files)) return null;
  const project = normalizeDistributionName(library);
  let newest: string | null = null;
  for (const f of files) {
    if (typeof f.filename !== 'string' || typeof f['upload-time'] !== 'string') continue;
    const v = fileVersion(f.filename, project);
    if (v === null || !versionsEqual(v, version)) continue;
    if (Number.isNaN(Date.parse(f['upload-time']))) continue;
    if (newest === null || Date.parse(f['upload-time']) > Date.parse(newest)) newest = f['upload-time'];
  }
  return newest;
}

/** When LIBRARY==VERSION's files were last uploaded to the index (its PEP 691 JSON page), null when it does not say. */
export async function releaseUploadTime(indexUrl: string, library: string, version: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<string | null> {
  if (!/^https?:\/\//.test(indexUrl)) return null;
  const url = `${indexUrl.replace(/\/+$/, '')}/${normalizeDistributionName(library)}/`;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await fetch(url, { headers: { Accept: 'application/vnd.pypi.simple.v1+json' }, signal });
    if (!response.ok || !/json/.test(response.headers.get('content-type') ?? '')) return null;
    return uploadTimeFromProjectPage(await response.json(), library, version);
  } catch {
    if (options.signal?.aborted) throw new ReleaseMetadataError('cancelled');
    return null;
  }
}

/** The end of the UTC day of an upload: dependencies published up to then install with the release. */
export function dependencyCutoff(uploadedAt: string): string {
  const d = new Date(uploadedAt);
  return `${d.toISOString().slice(0, 10)}T23:59:59Z`;
}
