// Where registry entries come from: (a) an existing interpreter, (b) a virtual environment (venv.ts: made from a
// release's own Python and dependencies where a package index is reachable), (c) the Debian roots
// scripts/debian-python.sh builds, built on request or discovered in its cache folder. Every entry is verified (the
// library's version in that interpreter, and its library file's smoke test) before it is registered.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { normalizeDistributionName } from '../core/library-names.js';
import { versionsEqual } from '../core/versions.js';
import { findExecutable } from './executables.js';
import { outputLines } from './output-lines.js';
import { probeModules } from './interpreter-probe.js';
import { bundledLibraryDefinitions } from '../libraries/definitions.js';
import {
  checkEnvironment,
  defaultImportName,
  type DebianProbe,
  type EnvironmentEntry,
  type EnvironmentRegistry,
} from './registry.js';
import type { PythonCommand } from './sandbox.js';
import { InputError } from '../core/errors.js';

/** An environment could not be set up or does not hold the version asked for. */
export class EnvironmentError extends InputError {
  override name = 'EnvironmentError';
}

export interface ProviderOptions {
  /** Module to import when it is not the library's name with "-" → "_". */
  importName?: string;
  onOutput?: (line: string) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export async function verified(entry: EnvironmentEntry, options: ProviderOptions): Promise<EnvironmentEntry> {
  const check = await checkEnvironment(entry, options);
  if (!check.ok) throw new EnvironmentError(check.error ?? 'the environment failed its check');
  return { ...entry, pythonVersion: check.python, lastCheck: check };
}

// ---------------------------------------------------------------------------------------------------------------
// (a) an existing interpreter

/** An interpreter that already has LIBRARY==VERSION; `python` is a path (or a name on PATH, stored as its path). */
export async function interpreterEnvironment(library: string, version: string, python: string, options: ProviderOptions = {}): Promise<EnvironmentEntry> {
  const exe = isAbsolute(python) || python.includes('/') ? resolve(python) : findExecutable(python);
  if (!exe || !existsSync(exe)) throw new EnvironmentError(`no interpreter at ${python}`);
  return verified({
    library: normalizeDistributionName(library),
    version,
    provider: 'interpreter',
    python: { argv: [exe] },
    ...(options.importName ? { importName: options.importName } : {}),
    addedAt: new Date().toISOString(),
  }, options);
}

// ---------------------------------------------------------------------------------------------------------------
// Running the commands that make an environment

export interface PlannedCommand {
  argv: string[];
  env?: Record<string, string>;
}

/** Runs one command, passing its output lines on; resolves with its exit code and last 40 lines. */
export function runCommand(command: PlannedCommand, options: ProviderOptions): Promise<{ code: number | null; output: string[] }> {
  return new Promise((resolvePromise, reject) => {
    const output: string[] = [];
    const child = spawn(command.argv[0]!, command.argv.slice(1), {
      env: { ...process.env, ...(command.env ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30 * 60_000);
    const onData = outputLines(output, 40, options.onOutput);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new EnvironmentError(`cannot run ${command.argv[0]}: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// (c) Debian roots

/** ANACHRON_ENV_CACHE, else ~/.cache/anachron/debian (scripts/debian-python.sh's cache). */
export function defaultDebianCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.ANACHRON_ENV_CACHE ? resolve(env.ANACHRON_ENV_CACHE) : join(env.HOME || homedir(), '.cache', 'anachron', 'debian');
}

/** Debian packages for a library's environment: its library file's debian-package and debian-extra-packages
 *  (torch also needs python3-setuptools before sid), else python3-MODULE. */
export function debianPackagesFor(library: string, importName = defaultImportName(library)): string[] {
  const runtime = bundledLibraryDefinitions().byDistribution(library)?.runtime;
  if (runtime?.debianPackage) return [runtime.debianPackage, ...runtime.debianExtraPackages];
  return [`python3-${importName.toLowerCase().replace(/_/g, '-')}`];
}

/** Upstream release of a Debian version, as scripts/probe-debian.sh takes it: no epoch, revision, +dfsg/+ds. */
export function debianUpstreamVersion(debianVersion: string): string {
  return debianVersion.replace(/^[0-9]*:/, '').replace(/-[^-]*$/, '').replace(/[+~](dfsg|ds)[0-9.]*$/, '');
}

const HELPER_PACKAGES = new Set(['python3', 'python3-setuptools', 'python3-pip', 'python3-wheel', 'python3-pkg-resources']);

export interface DebianStamp {
  packages: string[];
  suite: string;
  python?: string;
  debs: Map<string, string>;
  hash: string;
}

/** Reads ROOT/.anachron-complete (scripts/debian-python.sh): the packages asked for, suite, python, every .deb. */
export function readDebianStamp(root: string): DebianStamp | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, '.anachron-complete'), 'utf8');
  } catch {
    return undefined;
  }
  const [head = '', rest = ''] = text.split(/\n\s*\n/, 2);
  const packages = head.split('\n').map((l) => l.trim()).filter(Boolean);
  const debs = new Map<string, string>();
  let suite = '';
  let python: string | undefined;
  for (const line of rest.split('\n')) {
    if (line.startsWith('suite=')) suite = line.slice(6).trim();
    else if (line.startsWith('python=')) python = line.slice(7).trim();
    else if (line.startsWith('deb=')) {
      const [name, version] = line.slice(4).trim().split(/\s+/);
      if (name && version) debs.set(name, version);
    }
  }
  return { packages, suite, python, debs, hash: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

function debianEntry(root: string, stamp: DebianStamp, library: string, probe: DebianProbe['libraries'][string], python: string | undefined): EnvironmentEntry {
  return {
    library: normalizeDistributionName(library),
    version: probe.version!,
    provider: 'debian',
    python: { argv: [join(root, 'run-python')] },
    ...(probe.module !== defaultImportName(library) ? { importName: probe.module } : {}),
    ...(probe.reportedVersion ? { reportedVersion: probe.reportedVersion } : {}),
    ...(python ? { pythonVersion: python } : {}),
    debian: { suite: stamp.suite, root, packages: stamp.packages, package: probe.package, ...(probe.debianVersion ? { debianVersion: probe.debianVersion } : {}) },
    addedAt: new Date().toISOString(),
  };
}

/** Probes what a Debian root holds: each package asked for (but python3 and helpers), imported, with its version. */
export async function probeDebianRoot(root: string, stamp: DebianStamp, options: ProviderOptions = {}): Promise<DebianProbe> {
  const wanted = stamp.packages.filter((p) => p.startsWith('python3-') && !HELPER_PACKAGES.has(p));
  const modules = wanted.map((p) => p.slice('python3-'.length).replace(/-/g, '_'));
  const at = new Date().toISOString();
  const base: DebianProbe = { stamp: stamp.hash, at, suite: stamp.suite, packages: stamp.packages, libraries: {} };
  if (!existsSync(join(root, 'run-python'))) return { ...base, error: 'no run-python in the root' };
  try {
    const probe = await probeModules({ argv: [join(root, 'run-python')] }, modules, options);
    base.python = probe.python;
    modules.forEach((module, i) => {
      const pkg = wanted[i]!;
      const m = probe.modules[module] ?? {};
      const debianVersion = stamp.debs.get(pkg);
      const upstream = debianVersion ? debianUpstreamVersion(debianVersion) : undefined;
      const own = m.version ?? m.metadataVersion;
      if (m.error || !own) {
        base.libraries[module] = { module, package: pkg, ...(debianVersion ? { debianVersion } : {}), error: m.error ?? 'no __version__' };
        return;
      }
      const version = upstream ?? own;
      base.libraries[module] = {
        module, package: pkg, version,
        ...(versionsEqual(own, version) ? {} : { reportedVersion: own }),
        ...(debianVersion ? { debianVersion } : {}),
      };
    });
  } catch (e) {
    base.error = (e as Error).message;
  }
  return base;
}

export interface DiscoverReport {
  /** Entries added or refreshed. */
  added: EnvironmentEntry[];
  /** Discovered entries removed because their root is gone. */
  removed: EnvironmentEntry[];
  /** Not registered, and why (an entry of another provider has that version, a library that does not import, …). */
  skipped: { root: string; library?: string; version?: string; reason: string }[];
  /** Roots probed now (the others came from the cache in the registry file). */
  probed: string[];
}

/**
 * Finds the Debian roots in the cache folder, probes each (or reuses the probe cached in the registry while the
 * root's stamp is unchanged), and registers one entry per library and version. Entries added by hand are never
 * replaced; discovered entries whose root is gone are removed. The registry is not saved.
 */
export async function discoverDebianEnvironments(registry: EnvironmentRegistry, options: ProviderOptions & { cache?: string; refresh?: boolean } = {}): Promise<DiscoverReport> {
  const cache = resolve(options.cache ?? defaultDebianCache());
  const report: DiscoverReport = { added: [], removed: [], skipped: [], probed: [] };
  let names: string[] = [];
  try {
    names = readdirSync(cache).sort();
  } catch {
    names = [];
  }
  const roots = names.filter((n) => /^[a-z0-9-]+-[0-9a-f]{12}$/.test(n)).map((n) => join(cache, n));
  const seen = new Set<string>();
  for (const root of roots) {
    if (options.signal?.aborted) break;
    const stamp = readDebianStamp(root);
    if (!stamp) {
      report.skipped.push({ root, reason: 'not a finished root (no .anachron-complete)' });
      continue;
    }
    seen.add(root);
    let probe = registry.debianProbe(root);
    if (!probe || probe.stamp !== stamp.hash || options.refresh || probe.error) {
      options.onOutput?.(`probing ${root}`);
      probe = await probeDebianRoot(root, stamp, options);
      registry.setDebianProbe(root, probe);
      report.probed.push(root);
    }
    if (probe.error) {
      report.skipped.push({ root, reason: probe.error });
      continue;
    }
    for (const lib of Object.values(probe.libraries)) {
      const library = lib.module;
      if (lib.error || !lib.version) {
        report.skipped.push({ root, library, reason: lib.error ?? 'no version' });
        continue;
      }
      const existing = registry.find(library, lib.version);
      if (existing && !existing.discovered) {
        report.skipped.push({ root, library, version: lib.version, reason: `already registered (${existing.provider}: ${existing.python.argv.join(' ')})` });
        continue;
      }
      if (existing && existing.debian && existing.debian.root !== root && existsSync(existing.debian.root) && seen.has(existing.debian.root)) {
        report.skipped.push({ root, library, version: lib.version, reason: `already discovered in ${existing.debian.root}` });
        continue;
      }
      const entry: EnvironmentEntry = { ...debianEntry(root, stamp, library, lib, probe.python), discovered: true };
      if (existing?.lastCheck && existing.debian?.root === root) entry.lastCheck = existing.lastCheck;
      if (existing?.addedAt && existing.debian?.root === root) entry.addedAt = existing.addedAt;
      registry.put(entry);
      report.added.push(entry);
    }
  }
  for (const entry of registry.list()) {
    if (entry.discovered && entry.debian && !existsSync(entry.debian.root)) {
      registry.remove(entry.library, entry.version);
      report.removed.push(entry);
    }
  }
  for (const root of registry.debianProbeRoots()) if (!existsSync(root)) registry.setDebianProbe(root, undefined);
  return report;
}

/** scripts/debian-python.sh, beside the bundle (dist/..) or the sources. */
export function debianScript(): string {
  const candidates = [join(__dirname, '..', 'scripts', 'debian-python.sh'), join(__dirname, '..', '..', '..', 'scripts', 'debian-python.sh')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new EnvironmentError(`scripts/debian-python.sh not found (looked in ${candidates.join(', ')}); Debian environments need a checkout of anachron`);
  return found;
}

/** Builds (or reuses) the Debian root of SUITE with the library's package and registers LIBRARY==VERSION from it;
 *  fails when the suite packages another version. */
export async function debianEnvironment(library: string, version: string, suite: string, options: ProviderOptions & { cache?: string } = {}): Promise<EnvironmentEntry> {
  const importName = options.importName ?? defaultImportName(library);
  const packages = debianPackagesFor(library, importName);
  const command: PlannedCommand = {
    argv: ['bash', debianScript(), suite, ...packages],
    ...(options.cache ? { env: { ANACHRON_ENV_CACHE: options.cache } } : {}),
  };
  const stdoutLines: string[] = [];
  const { code, output } = await runCommand(command, {
    ...options,
    onOutput: (line) => {
      stdoutLines.push(line);
      options.onOutput?.(line);
    },
  });
  const wrapper = [...stdoutLines].reverse().find((l) => l.trim().endsWith('/run-python'))?.trim();
  if (code !== 0 || !wrapper) {
    throw new EnvironmentError(`scripts/debian-python.sh ${suite} ${packages.join(' ')} failed (exit ${code}):\n${output.slice(-12).join('\n')}`);
  }
  const root = resolve(wrapper, '..');
  const stamp = readDebianStamp(root);
  if (!stamp) throw new EnvironmentError(`${root} has no .anachron-complete`);
  const probe = await probeDebianRoot(root, stamp, options);
  if (probe.error) throw new EnvironmentError(probe.error);
  const lib = probe.libraries[importName];
  if (!lib || lib.error || !lib.version) throw new EnvironmentError(`${importName} does not import in ${root}: ${lib?.error ?? 'not probed'}`);
  const entry = debianEntry(root, stamp, library, lib, probe.python);
  if (!versionsEqual(entry.version, version) && !(entry.reportedVersion && versionsEqual(entry.reportedVersion, version))) {
    throw new EnvironmentError(`Debian ${suite} packages ${library} ${entry.version}${lib.debianVersion ? ` (${lib.package} ${lib.debianVersion})` : ''}, not ${version} (another suite may have it)`);
  }
  entry.version = version;
  return verified(entry, options);
}
