// Registry entries from virtual environments: an existing one, or one made for LIBRARY==VERSION from a package index
// (`uv venv` + `uv pip install`, or `python -m venv` + pip). A release is installed as it was meant to run: from the
// newest interpreter on this machine that the release declares (python-choice.ts), with the dependencies published
// by the end of its upload day (pip's --uploaded-prior-to, uv's --exclude-newer), so that a 2023 release does not meet
// a 2024 numpy it never knew (qiskit 0.43.3 with numpy 2 does not import). Both choices are reported, and recorded
// in the entry with the time and disk the environment took.
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { escapeRegExp } from '../core/api-path.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { discoverInterpreters, inspectInterpreter, type PythonInterpreter } from './interpreters.js';
import { findExecutable } from './executables.js';
import { EnvironmentError, runCommand, verified, type PlannedCommand, type ProviderOptions } from './providers.js';
import { choosePython, isPythonVersionRequest } from './python-choice.js';
import { checkEnvironment, type EnvironmentCreation, type EnvironmentEntry } from './registry.js';
import {
  configuredIndexUrl,
  dependencyCutoff,
  releaseMetadata,
  ReleaseMetadataError,
  releaseUploadTime,
  type ReleaseMetadata,
} from './release-metadata.js';

export interface VenvOptions {
  /** The environment folder. */
  dir: string;
  library: string;
  version: string;
  /** The interpreter the environment is made from: a path, or a version of one found on this machine ("3.11",
   *  "3.11.7"); default: the one python-choice.ts picks for the release. */
  basePython?: string;
  /** uv's executable, or null to use venv + pip; default: uv when on PATH. */
  uv?: string | null;
  /** A package index other than pip's or uv's default. */
  indexUrl?: string;
  /** "release-date" (default): dependencies published by the end of the release's upload day; "newest": today's. */
  dependencies?: 'release-date' | 'newest';
  /** The interpreters to choose among (default: those discoverInterpreters finds). */
  interpreters?: readonly PythonInterpreter[];
  /** A folder that keeps the wheels of each environment made (pip): the same release on the same Python installs
   *  from them again without the index; default $ANACHRON_WHEEL_CACHE, else none. */
  wheelCache?: string;
}

export interface VenvPlan {
  /** The interpreter the environment is made from. */
  basePython: string;
  /** Its version, when known. */
  pythonVersion: string | null;
  /** Why that interpreter. */
  pythonReason: string;
  /** What the release declares, when pip could say. */
  release: ReleaseMetadata | null;
  /** Dependencies published before this instant (ISO), or null for the newest. */
  cutoff: string | null;
  /** Why those dependencies. */
  dependencyReason: string;
  /** The folder of this release's wheels in the wheel cache, and whether it holds a finished install's (then the
   *  commands install from it without the index). */
  wheels: { dir: string; complete: boolean } | null;
  commands: PlannedCommand[];
}

/** Marks a wheel folder whose install succeeded: every wheel the release needs on that Python is in it. */
const WHEELS_COMPLETE = '.anachron-complete';

/** The wheel folder of a release on a Python (LIB-VERSION-pyX.Y, "-newest" with today's dependencies). */
export function wheelFolder(cache: string, library: string, version: string, pythonVersion: string | null, newest: boolean): string {
  const minor = pythonVersion ? /^\d+\.\d+/.exec(pythonVersion)?.[0] : null;
  return join(resolve(cache), `${library}-${version}-py${minor ?? 'unknown'}${newest ? '-newest' : ''}`);
}

export function venvPython(dir: string): string {
  return process.platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python');
}

/**
 * The commands that create the environment and install LIBRARY==VERSION into it (dependencies before `cutoff`). With
 * a wheel folder (pip only; uv keeps its own cache): `pip wheel` fills it from the index first and the install reads
 * only it; a folder a finished install left is read without the index at all.
 */
export function venvCommands(options: Pick<VenvOptions, 'dir' | 'library' | 'version' | 'basePython' | 'uv' | 'indexUrl'> & { cutoff?: string | null; wheels?: { dir: string; complete: boolean } | null }): PlannedCommand[] {
  const dir = resolve(options.dir);
  const requirement = `${options.library}==${options.version}`;
  const base = options.basePython ?? 'python3';
  const uv = options.uv === undefined ? findExecutable('uv') : options.uv;
  const python = venvPython(dir);
  const index = options.indexUrl ? ['--index-url', options.indexUrl] : [];
  if (uv) {
    return [
      { argv: [uv, 'venv', '--python', base, dir] },
      { argv: [uv, 'pip', 'install', '--python', python, ...index, ...(options.cutoff ? ['--exclude-newer', options.cutoff] : []), requirement] },
    ];
  }
  const pipArgs = (command: string) => [python, '-m', 'pip', command, '--disable-pip-version-check', '--no-input', '--retries', '1', '--timeout', '30'];
  const env = { PIP_NO_INPUT: '1' };
  const bounded = options.cutoff ? ['--uploaded-prior-to', options.cutoff] : [];
  const wheels = options.wheels;
  if (wheels?.complete) {
    return [
      { argv: [base, '-m', 'venv', dir] },
      { argv: [...pipArgs('install'), '--no-index', '--find-links', wheels.dir, requirement], env },
    ];
  }
  return [
    { argv: [base, '-m', 'venv', dir] },
    // --uploaded-prior-to came with pip 26.0; the pip a venv is born with may be older.
    ...(options.cutoff ? [{ argv: [...pipArgs('install'), ...index, 'pip>=26'], env }] : []),
    ...(wheels
      ? [
        { argv: [...pipArgs('wheel'), ...index, ...bounded, '--wheel-dir', wheels.dir, requirement], env },
        { argv: [...pipArgs('install'), '--no-index', '--find-links', wheels.dir, requirement], env },
      ]
      : [{ argv: [...pipArgs('install'), ...index, ...bounded, requirement], env }]),
  ];
}

/** What pip of some interpreter found says the release declares (trying the next interpreter when one has no pip). */
async function askRelease(tools: readonly string[], options: VenvOptions & ProviderOptions): Promise<ReleaseMetadata & { tool: string }> {
  let last: Error | undefined;
  for (const tool of tools.slice(0, 4)) {
    try {
      const meta = await releaseMetadata(tool, options.library, options.version, { indexUrl: options.indexUrl, signal: options.signal });
      return { ...meta, uploadedAt: null, tool };
    } catch (e) {
      last = e as Error;
      if (!/No module named pip|cannot run/.test(last.message)) break;
    }
  }
  throw new EnvironmentError(last ? last.message : 'no interpreter with pip was found to ask the package index');
}

interface WheelsRecord {
  requirement: string;
  pythonVersion: string | null;
  pythonReason: string;
  cutoff: string | null;
  dependencyReason: string;
}

/** A finished install's wheel folder of the release (same dependency rule), with an interpreter of its Python here:
 *  the plan needs no index then. */
function keptWheels(cache: string, options: VenvOptions, interpreters: readonly PythonInterpreter[]): { dir: string; record: WheelsRecord; interpreter: PythonInterpreter } | null {
  const pattern = new RegExp(`^${escapeRegExp(`${normalizeDistributionName(options.library)}-${options.version}-py`)}(\\d+\\.\\d+)(-newest)?$`);
  const asked = options.basePython && isPythonVersionRequest(options.basePython) ? options.basePython.trim() : null;
  let names: string[];
  try {
    names = readdirSync(resolve(cache)).sort().reverse();
  } catch {
    return null;
  }
  for (const name of names) {
    const m = pattern.exec(name);
    if (!m || Boolean(m[2]) !== (options.dependencies === 'newest')) continue;
    if (asked && asked !== m[1] && !asked.startsWith(`${m[1]}.`)) continue;
    let record: WheelsRecord;
    try {
      record = JSON.parse(readFileSync(join(resolve(cache), name, WHEELS_COMPLETE), 'utf8')) as WheelsRecord;
    } catch {
      continue; // not a finished install's folder
    }
    const interpreter = interpreters.find((i) => i.canVenv && i.minor === m[1] && (asked === null || asked === i.minor || asked === i.version));
    if (interpreter) return { dir: join(resolve(cache), name), record, interpreter };
  }
  return null;
}

/** Decides the interpreter and the dependencies of a new environment (asks the index, unless a finished install's
 *  wheels of the release are kept; installs nothing). */
export async function planVenv(options: VenvOptions & ProviderOptions): Promise<VenvPlan> {
  const what = `${options.library}==${options.version}`;
  const given = options.basePython && !isPythonVersionRequest(options.basePython) ? options.basePython : undefined;
  const uv = options.uv === undefined ? findExecutable('uv') : options.uv;
  const cache = options.wheelCache ?? process.env.ANACHRON_WHEEL_CACHE;
  if (cache && !uv && !given) {
    const kept = keptWheels(cache, options, options.interpreters ?? await discoverInterpreters());
    if (kept) {
      const wheels = { dir: kept.dir, complete: true };
      return {
        basePython: kept.interpreter.path, pythonVersion: kept.interpreter.version,
        pythonReason: kept.record.pythonReason, release: null, cutoff: kept.record.cutoff,
        dependencyReason: `${kept.record.dependencyReason}; installed from the wheels an earlier install kept in ${kept.dir}`, wheels,
        commands: venvCommands({ ...options, uv, basePython: kept.interpreter.path, cutoff: kept.record.cutoff, wheels }),
      };
    }
  }
  let givenInterpreter: PythonInterpreter | null = null;
  if (given) {
    const path = isAbsolute(given) || given.includes('/') ? resolve(given) : findExecutable(given);
    givenInterpreter = path ? await inspectInterpreter(path) : null;
    if (!givenInterpreter) throw new EnvironmentError(`--base-python ${given} is not a Python 3 interpreter that runs`);
  }
  const interpreters = givenInterpreter ? [givenInterpreter] : options.interpreters ?? await discoverInterpreters();
  const tools = givenInterpreter ? [givenInterpreter.path] : interpreters.filter((i) => i.canVenv).map((i) => i.path);
  if (tools.length === 0) throw new EnvironmentError('no Python 3 interpreter that can make a virtual environment was found (install one, or give --base-python PATH)');
  options.onOutput?.(`asking the package index what ${what} declares`);
  const release = await askRelease(tools, options);
  let basePython: string;
  let pythonVersion: string | null;
  let pythonReason: string;
  if (givenInterpreter) {
    basePython = givenInterpreter.path;
    pythonVersion = givenInterpreter.version;
    pythonReason = `as given (--base-python)${release.requiresPython ? `; ${release.name} ${release.version} declares Requires-Python ${release.requiresPython}` : ''}`;
  } else {
    const choice = choosePython(interpreters, release, options.basePython);
    if ('error' in choice) throw new EnvironmentError(choice.error);
    basePython = choice.interpreter.path;
    pythonVersion = choice.interpreter.version;
    pythonReason = choice.reason;
  }
  let cutoff: string | null = null;
  let dependencyReason: string;
  if (options.dependencies === 'newest') {
    dependencyReason = 'the newest dependencies (as asked)';
  } else {
    const indexUrl = options.indexUrl ?? await configuredIndexUrl(release.tool);
    let uploadedAt: string | null = null;
    try {
      uploadedAt = await releaseUploadTime(indexUrl, options.library, options.version, { signal: options.signal });
    } catch (e) {
      if (e instanceof ReleaseMetadataError) throw new EnvironmentError(e.message);
      throw e;
    }
    release.uploadedAt = uploadedAt;
    if (uploadedAt) {
      cutoff = dependencyCutoff(uploadedAt);
      dependencyReason = `dependencies as published by ${cutoff}, the end of the day ${release.name} ${release.version} was uploaded (${uploadedAt.slice(0, 10)}): the releases it was built and tested against`;
    } else {
      dependencyReason = `the newest dependencies: ${indexUrl} gives no upload times`;
    }
  }
  const { tool: _tool, ...declared } = release;
  let wheels: VenvPlan['wheels'] = null;
  if (cache && !uv) {
    wheels = { dir: wheelFolder(cache, normalizeDistributionName(options.library), options.version, pythonVersion, options.dependencies === 'newest'), complete: false };
    dependencyReason += `; the wheels kept in ${wheels.dir}`;
  }
  return {
    basePython, pythonVersion, pythonReason, release: declared, cutoff, dependencyReason, wheels,
    commands: venvCommands({ ...options, uv, basePython, cutoff, wheels }),
  };
}

/** Bytes of the files under a folder (symbolic links counted as links). */
export function folderBytes(dir: string): number {
  let total = 0;
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else {
        try {
          total += lstatSync(p).size;
        } catch {
          // vanished
        }
      }
    }
  };
  walk(dir);
  return total;
}

function entryOf(options: VenvOptions & ProviderOptions, dir: string, created?: EnvironmentCreation): EnvironmentEntry {
  return {
    library: normalizeDistributionName(options.library),
    version: options.version,
    provider: 'venv',
    python: { argv: [venvPython(dir)] },
    venv: dir,
    ...(options.importName ? { importName: options.importName } : {}),
    ...(created ? { created } : {}),
    addedAt: new Date().toISOString(),
  };
}

/**
 * A virtual environment with LIBRARY==VERSION. With `create`: a folder that already is such an environment (and passes
 * its check) is kept as it is; otherwise it is made as planVenv decides. Without: an existing environment, verified.
 */
export async function venvEnvironment(options: VenvOptions & ProviderOptions & { create?: boolean }): Promise<EnvironmentEntry> {
  const dir = resolve(options.dir);
  const python = venvPython(dir);
  if (!options.create) {
    if (!existsSync(python)) throw new EnvironmentError(`${dir} is not a virtual environment (no ${python}); add --create to make one`);
    return verified(entryOf(options, dir), options);
  }
  if (existsSync(python)) {
    const existing = entryOf(options, dir);
    const check = await checkEnvironment(existing, options);
    if (check.ok) {
      options.onOutput?.(`${dir} already has ${options.library} ${check.found} (python ${check.python}): kept as it is`);
      return { ...existing, pythonVersion: check.python, lastCheck: check };
    }
    options.onOutput?.(`${dir} exists but fails its check (${check.error}): installing into it`);
  }
  const started = Date.now();
  const plan = await planVenv(options);
  options.onOutput?.(`python ${plan.pythonVersion ?? '?'} (${plan.basePython}): ${plan.pythonReason}`);
  options.onOutput?.(plan.dependencyReason);
  for (const command of plan.commands) {
    options.onOutput?.(`$ ${command.argv.join(' ')}`);
    const { code, output } = await runCommand(command, options);
    if (options.signal?.aborted) throw new EnvironmentError('cancelled');
    if (code !== 0) {
      const installing = command.argv.includes('install');
      const hint = installing ? ` (no package index reachable? set --index-url, PIP_INDEX_URL or UV_INDEX_URL, or use --python/--debian)` : '';
      const what = command.argv[command.argv.length - 1] === 'pip>=26' ? 'updating pip (for --uploaded-prior-to)' : installing ? `installing ${options.library}==${options.version} into ${dir}` : `creating the environment ${dir}`;
      throw new EnvironmentError(`${what} failed (exit ${code})${hint}:\n${output.slice(-12).join('\n')}`);
    }
  }
  if (plan.wheels && !plan.wheels.complete) {
    const record: WheelsRecord = { requirement: `${options.library}==${options.version}`, pythonVersion: plan.pythonVersion, pythonReason: plan.pythonReason, cutoff: plan.cutoff, dependencyReason: plan.dependencyReason.replace(/; the wheels kept in .*$/, '') };
    writeFileSync(join(plan.wheels.dir, WHEELS_COMPLETE), `${JSON.stringify(record, null, 2)}\n`);
  }
  const created: EnvironmentCreation = {
    basePython: plan.basePython,
    ...(plan.pythonVersion ? { basePythonVersion: plan.pythonVersion } : {}),
    pythonReason: plan.pythonReason,
    ...(plan.cutoff ? { dependenciesBefore: plan.cutoff } : {}),
    dependencyReason: plan.dependencyReason,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    bytes: folderBytes(dir),
  };
  return verified(entryOf(options, dir, created), options);
}
