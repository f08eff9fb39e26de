// The environment registry: (library, version) → a command that runs Python with exactly that version importable,
// for the execution-based drift suite. Entries come from three providers (providers.ts): an existing interpreter, a
// virtual environment (created with uv or pip where an index is reachable), and the Debian roots that
// scripts/debian-python.sh builds (discovered from its cache folder). They are kept in a JSON file —
// $ANACHRON_ENVIRONMENTS, else $XDG_CONFIG_HOME/anachron/environments.json (~/.config/…) — written atomically, with
// the previous version kept as FILE.bak; a file that cannot be read is never overwritten (a copy is kept beside it).
// `check` runs each interpreter and compares LIBRARY.__version__ with the registered version (PEP 440).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readBoundedText } from '../workspace/bounded-read.js';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { normalizeDistributionName } from '../core/library-names.js';
import { isValidVersion, sortVersions, versionsEqual } from '../core/versions.js';
import { probeModules, runSnippet, type InterpreterProbe } from './interpreter-probe.js';
import { bundledLibraryDefinitions } from '../libraries/definitions.js';
import type { PythonCommand } from './sandbox.js';
import { isObject } from '../core/json-value.js';
import { InputError } from '../core/errors.js';

export type EnvironmentProvider = 'interpreter' | 'venv' | 'debian';

export interface EnvironmentCheck {
  ok: boolean;
  /** ISO time of the check. */
  at: string;
  /** `__version__` found (else the distribution's metadata version). */
  found?: string;
  /** The interpreter's Python version. */
  python?: string;
  /** What is wrong: the interpreter does not run, the library does not import, another version, the smoke test. */
  error?: string;
  /** `__version__` when the distribution's metadata has the version and the module says another (the qiskit 0.43.3
   *  metapackage's module is qiskit-terra 0.24.2's). */
  reported?: string;
  /** The library file's smoke test ran and passed (absent: the library has none, or the check stopped before it). */
  smokeTest?: 'passed';
}

/** How `anachron env add --create` made an environment (venv.ts). */
export interface EnvironmentCreation {
  /** The interpreter the environment was made from, and its version. */
  basePython: string;
  basePythonVersion?: string;
  /** Why that interpreter (the release's Requires-Python and classifiers, or as asked). */
  pythonReason: string;
  /** Dependencies published before this instant (ISO); absent: the newest. */
  dependenciesBefore?: string;
  dependencyReason: string;
  /** Wall-clock seconds of creating and installing, and the folder's size afterwards. */
  seconds: number;
  bytes: number;
}

export interface DebianSource {
  suite: string;
  /** The root scripts/debian-python.sh built (its run-python is the command). */
  root: string;
  /** The Debian packages the root was built with. */
  packages: string[];
  /** The library's Debian package and version (python3-numpy 1:1.24.2-1+deb12u1). */
  package?: string;
  debianVersion?: string;
}

export interface EnvironmentEntry {
  /** Distribution name, PEP 503 normalised (numpy, scipy, torch, scikit-learn). */
  library: string;
  /** The version this environment stands for (the release: torch 1.7.1 even where torch says 1.7.0a0). */
  version: string;
  provider: EnvironmentProvider;
  python: PythonCommand;
  /** The module to import (default: the library name with "-" → "_"; sklearn for scikit-learn …). */
  importName?: string;
  /** `__version__` when it says something else than `version` (Debian's torch 1.7.1 says 1.7.0a0); checks accept it. */
  reportedVersion?: string;
  /** The interpreter's Python version, as last seen. */
  pythonVersion?: string;
  /** venv provider: the environment folder. */
  venv?: string;
  /** venv provider, made by anachron: how. */
  created?: EnvironmentCreation;
  debian?: DebianSource;
  /** Added by `discover` (and removed by it when its root is gone). */
  discovered?: boolean;
  addedAt: string;
  lastCheck?: EnvironmentCheck;
}

/** What a probe of one Debian root found, cached in the registry file (keyed by the root, valid while its stamp is). */
export interface DebianProbe {
  stamp: string;
  at: string;
  suite: string;
  python?: string;
  packages: string[];
  libraries: Record<string, { module: string; version?: string; reportedVersion?: string; package: string; debianVersion?: string; error?: string }>;
  error?: string;
}

interface RegistryData {
  schema: typeof SCHEMA;
  environments: EnvironmentEntry[];
  debianProbes: Record<string, DebianProbe>;
}

const SCHEMA = 'anachron-environments/1';

/** The registry file could not be read or written; the message says what to do. */
export class RegistryError extends InputError {
  override name = 'RegistryError';
}

/** $ANACHRON_ENVIRONMENTS, else $XDG_CONFIG_HOME/anachron/environments.json, else ~/.config/anachron/environments.json. */
export function defaultEnvironmentsFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANACHRON_ENVIRONMENTS) return resolve(env.ANACHRON_ENVIRONMENTS);
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'anachron', 'environments.json');
}

/** The module a distribution installs, from the library files (libraries/*.toml, distributions.toml). */
export function defaultImportName(library: string): string {
  return bundledLibraryDefinitions().importNameOf(library);
}

export function importNameOf(entry: Pick<EnvironmentEntry, 'library' | 'importName'>): string {
  return entry.importName ?? defaultImportName(entry.library);
}

function withoutLocal(version: string): string {
  return version.replace(/\+.*$/, '');
}

/** Does `found` (a `__version__`) stand for the entry's version? PEP 440 equality, ignoring a local label
 *  (2.6.0+debian is 2.6.0), or the version the entry recorded as reported (1.7.0a0 for Debian's 1.7.1). */
export function versionMatches(found: string, entry: Pick<EnvironmentEntry, 'version' | 'reportedVersion'>): boolean {
  if (versionsEqual(found, entry.version) || versionsEqual(withoutLocal(found), withoutLocal(entry.version))) return true;
  return entry.reportedVersion !== undefined && versionsEqual(found, entry.reportedVersion);
}

/** Runs the entry's interpreter and compares the library's `__version__` with the registered version. */
export async function checkEnvironment(entry: EnvironmentEntry, options: { timeoutMs?: number; signal?: AbortSignal; smokeTest?: boolean } = {}): Promise<EnvironmentCheck> {
  const at = new Date().toISOString();
  const module = importNameOf(entry);
  if (entry.debian && !existsSync(entry.debian.root)) {
    return { ok: false, at, error: `the Debian root ${entry.debian.root} is gone (rebuild it with scripts/debian-python.sh ${entry.debian.suite} ${entry.debian.packages.filter((p) => p !== 'python3').join(' ')}, or run anachron env discover)` };
  }
  let probe: InterpreterProbe;
  try {
    probe = await probeModules(entry.python, [`${module}=${entry.library}`], options);
  } catch (e) {
    return { ok: false, at, error: (e as Error).message };
  }
  const m = probe.modules[module] ?? {};
  if (m.error) return { ok: false, at, python: probe.python, error: `${module} does not import: ${m.error}` };
  const said = [m.version, m.metadataVersion].filter((v): v is string => !!v);
  if (said.length === 0) return { ok: false, at, python: probe.python, error: `${module} has no __version__ and no installed distribution metadata` };
  // The module's __version__, else the distribution's metadata (a metapackage's version is its own, not its module's).
  const found = said.find((v) => versionMatches(v, entry));
  if (!found) {
    const what = m.version && m.metadataVersion && !versionsEqual(m.version, m.metadataVersion) ? `${m.metadataVersion} (its module says ${m.version})` : said[0];
    return { ok: false, at, python: probe.python, found: said[0], error: `${entry.python.argv.join(' ')} has ${entry.library} ${what}, not ${entry.version}` };
  }
  const reported = m.version && found !== m.version ? { reported: m.version } : {};
  const smoke = options.smokeTest === false ? null : smokeTestOf(entry.library);
  if (smoke) {
    const r = await runSnippet(entry.python, smoke, options);
    if (!r.ok) return { ok: false, at, python: probe.python, found, ...reported, error: `${entry.library} ${found} imports, but its smoke test (libraries/${bundledLibraryDefinitions().byDistribution(entry.library)?.name}.toml) fails: ${r.error}` };
    return { ok: true, at, python: probe.python, found, ...reported, smokeTest: 'passed' };
  }
  return { ok: true, at, python: probe.python, found, ...reported };
}

/** The library file's smoke test for a distribution, if any. */
function smokeTestOf(library: string): string | null {
  try {
    return bundledLibraryDefinitions().byDistribution(library)?.runtime.smokeTest ?? null;
  } catch {
    return null; // no library files beside this build: the import check alone
  }
}

function validate(raw: unknown): RegistryData {
  if (!isObject(raw)) throw new Error('not a JSON object');
  if (raw.schema !== SCHEMA) throw new Error(`schema is ${JSON.stringify(raw.schema)}, expected ${JSON.stringify(SCHEMA)}`);
  if (!Array.isArray(raw.environments)) throw new Error('"environments" is not an array');
  raw.environments.forEach((e, i) => {
    const where = `environments[${i}]`;
    if (!isObject(e)) throw new Error(`${where} is not an object`);
    if (typeof e.library !== 'string' || !e.library) throw new Error(`${where}.library is missing`);
    if (typeof e.version !== 'string' || !e.version) throw new Error(`${where}.version is missing`);
    if (!['interpreter', 'venv', 'debian'].includes(e.provider as string)) throw new Error(`${where}.provider is ${JSON.stringify(e.provider)}`);
    const python = e.python;
    if (!isObject(python) || !Array.isArray(python.argv) || python.argv.length === 0 || !python.argv.every((a) => typeof a === 'string')) {
      throw new Error(`${where}.python.argv must be a non-empty array of strings`);
    }
    if (python.env !== undefined && (!isObject(python.env) || !Object.values(python.env).every((v) => typeof v === 'string'))) {
      throw new Error(`${where}.python.env must map names to strings`);
    }
  });
  const probes = raw.debianProbes ?? {};
  if (!isObject(probes)) throw new Error('"debianProbes" is not an object');
  return { schema: SCHEMA, environments: raw.environments as unknown as EnvironmentEntry[], debianProbes: probes as unknown as Record<string, DebianProbe> };
}

/** The most the registry file may hold (thousands of environments fit in a few MiB). */
const MAX_REGISTRY_BYTES = 64 * 1024 * 1024;

export class EnvironmentRegistry {
  private constructor(
    /** The registry file. */
    readonly file: string,
    private data: RegistryData,
  ) {}

  /** Reads the registry (an absent file is an empty registry). A file that is not a valid registry is left as it is,
   *  copied to FILE.corrupt-HASH, and reported with a RegistryError. */
  static load(file: string = defaultEnvironmentsFile()): EnvironmentRegistry {
    file = resolve(file);
    // Only a regular file, and never more than a cap: ANACHRON_ENVIRONMENTS may name /dev/zero or a FIFO.
    const read = readBoundedText(file, MAX_REGISTRY_BYTES);
    if (read.code === 'ENOENT') return new EnvironmentRegistry(file, { schema: SCHEMA, environments: [], debianProbes: {} });
    if (read.text === undefined) throw new RegistryError(`cannot read the environment registry ${file}: ${read.skipped ?? read.error}`);
    const text = read.text;
    try {
      return new EnvironmentRegistry(file, validate(JSON.parse(text)));
    } catch (e) {
      const backup = `${file}.corrupt-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
      let kept = '';
      try {
        if (!existsSync(backup)) copyFileSync(file, backup);
        kept = ` A copy is in ${backup}.`;
      } catch {
        // the original stays untouched either way
      }
      const previous = existsSync(`${file}.bak`) ? ` The version before the last save is ${file}.bak.` : '';
      throw new RegistryError(`the environment registry ${file} is not valid (${(e as Error).message}); it was left as it is.${kept}${previous} Fix it, or move it away to start a new one.`);
    }
  }

  /** Entries, sorted by library and version; of one library when given. */
  list(library?: string): EnvironmentEntry[] {
    const lib = library === undefined ? undefined : normalizeDistributionName(library);
    const entries = this.data.environments.filter((e) => lib === undefined || e.library === lib);
    const libraries = [...new Set(entries.map((e) => e.library))].sort();
    return libraries.flatMap((l) => {
      const of = entries.filter((e) => e.library === l);
      return sortVersions(of.map((e) => e.version)).map((v) => of.find((e) => e.version === v)!);
    });
  }

  /** The entry for a library at a version (PEP 440 equality; also an entry whose library reports that version). */
  find(library: string, version: string): EnvironmentEntry | undefined {
    const lib = normalizeDistributionName(library);
    const of = this.data.environments.filter((e) => e.library === lib);
    return of.find((e) => (isValidVersion(version) ? versionsEqual(e.version, version) : e.version === version))
      ?? of.find((e) => e.reportedVersion !== undefined && versionsEqual(e.reportedVersion, version));
  }

  pythonFor(library: string, version: string): PythonCommand | undefined {
    return this.find(library, version)?.python;
  }

  /** library → version → command, for a drift run (every library, or those given). */
  environmentMap(libraries?: Iterable<string>): Map<string, Map<string, PythonCommand>> {
    const wanted = libraries === undefined ? undefined : new Set([...libraries].map(normalizeDistributionName));
    const out = new Map<string, Map<string, PythonCommand>>();
    for (const e of this.list()) {
      if (wanted && !wanted.has(e.library)) continue;
      if (!out.has(e.library)) out.set(e.library, new Map());
      out.get(e.library)!.set(e.version, e.python);
    }
    return out;
  }

  /** Adds an entry, replacing the one for the same library and version; returns the replaced one. Not saved. */
  put(entry: EnvironmentEntry): EnvironmentEntry | undefined {
    const normalized: EnvironmentEntry = { ...entry, library: normalizeDistributionName(entry.library) };
    const i = this.data.environments.findIndex((e) => e.library === normalized.library && versionsEqual(e.version, normalized.version));
    if (i < 0) {
      this.data.environments.push(normalized);
      return undefined;
    }
    const old = this.data.environments[i];
    this.data.environments[i] = normalized;
    return old;
  }

  /** Removes the entry for a library at a version. Not saved. */
  remove(library: string, version: string): EnvironmentEntry | undefined {
    const found = this.find(library, version);
    if (found) this.data.environments = this.data.environments.filter((e) => e !== found);
    return found;
  }

  debianProbe(root: string): DebianProbe | undefined {
    return this.data.debianProbes[root];
  }

  setDebianProbe(root: string, probe: DebianProbe | undefined): void {
    if (probe) this.data.debianProbes[root] = probe;
    else delete this.data.debianProbes[root];
  }

  debianProbeRoots(): string[] {
    return Object.keys(this.data.debianProbes).sort();
  }

  /** Runs `checkEnvironment` on the entries (all, or of a library, or one version) and records the results
   *  (lastCheck, pythonVersion). Not saved. */
  async check(filter: { library?: string; version?: string } = {}, options: { timeoutMs?: number; signal?: AbortSignal; onResult?: (entry: EnvironmentEntry, check: EnvironmentCheck) => void } = {}): Promise<{ entry: EnvironmentEntry; check: EnvironmentCheck }[]> {
    let entries = this.list(filter.library);
    if (filter.version !== undefined) {
      const found = filter.library === undefined ? undefined : this.find(filter.library, filter.version);
      entries = found ? [found] : [];
    }
    const results: { entry: EnvironmentEntry; check: EnvironmentCheck }[] = [];
    for (const entry of entries) {
      if (options.signal?.aborted) break;
      const check = await checkEnvironment(entry, options);
      entry.lastCheck = check;
      if (check.python) entry.pythonVersion = check.python;
      results.push({ entry, check });
      options.onResult?.(entry, check);
    }
    return results;
  }

  /** Writes the registry atomically (a temporary file renamed over it); the previous file is kept as FILE.bak. */
  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp-${process.pid}`;
    const data: RegistryData = { schema: SCHEMA, environments: this.list(), debianProbes: this.data.debianProbes };
    try {
      writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
      if (existsSync(this.file)) copyFileSync(this.file, `${this.file}.bak`);
      renameSync(tmp, this.file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new RegistryError(`cannot write the environment registry ${this.file}: ${(e as Error).message}`);
    }
  }
}
