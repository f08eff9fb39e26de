// `anachron env list|add|check|discover|remove`: the environment registry of the execution-based drift suite —
// which interpreter runs which library version, verified by importing the library there.
import { parseArgs } from 'node:util';
import { parseCommandLinePin } from '../core/pins.js';
import {
  debianEnvironment,
  defaultDebianCache,
  discoverDebianEnvironments,
  EnvironmentError,
  interpreterEnvironment,
} from '../environments/providers.js';
import { discoverInterpreters } from '../environments/interpreters.js';
import { venvEnvironment } from '../environments/venv.js';
import { defaultEnvironmentsFile, EnvironmentRegistry, RegistryError, type EnvironmentEntry } from '../environments/registry.js';
import { InputError } from '../core/errors.js';

type Out = (s: string) => void;

const ENV_USAGE = `usage: anachron env <command> [--file REGISTRY]

  list [LIB] [--json]                         the registered environments and their last check
  add LIB==VERSION --python PATH              an interpreter that has LIB==VERSION
  add LIB==VERSION --venv DIR [--create] [--index-url URL] [--base-python PY|3.X] [--newest-dependencies] [--wheel-cache DIR]
                                              a virtual environment; --create makes it (uv, or venv + pip) from the
                                              newest interpreter found that the release declares (or --base-python:
                                              a path, or a version found by \`env pythons\`) with the dependencies
                                              published by the end of its upload day (--newest-dependencies: today's);
                                              --wheel-cache (default ${'$'}ANACHRON_WHEEL_CACHE) keeps the wheels, and
                                              the same release installs from them again without the index
  add LIB==VERSION --debian SUITE [--cache DIR]
                                              Debian SUITE's package, through scripts/debian-python.sh
      (add also takes --import MODULE when the module is not named after LIB)
  check [LIB[==VERSION]] [--json]             import LIB in each interpreter and compare its __version__
  discover [--cache DIR] [--refresh] [--json] register every library of the Debian roots in the cache
                                              (ANACHRON_ENV_CACHE, default ~/.cache/anachron/debian)
  remove LIB==VERSION
  pythons [--json]                            the Python interpreters found here, that --create chooses among

The registry is ${'$'}ANACHRON_ENVIRONMENTS, else ${'$'}XDG_CONFIG_HOME/anachron/environments.json (~/.config/…).
Exit codes: 0, 1 when an environment fails (add, check), 2 usage or registry file errors.`;

function describe(entry: EnvironmentEntry): string {
  switch (entry.provider) {
    case 'debian':
      return `debian ${entry.debian?.suite ?? '?'}`;
    case 'venv':
      return 'venv';
    default:
      return 'interpreter';
  }
}

function status(entry: EnvironmentEntry): string {
  const c = entry.lastCheck;
  if (!c) return 'unchecked';
  return c.ok ? `ok ${c.at.slice(0, 10)}` : `FAILED ${c.at.slice(0, 10)}`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd());
}

function exactPin(text: string | undefined, what: string): { library: string; version: string } {
  if (!text) throw new InputError(`${what}: name the environment as LIB==VERSION, e.g. numpy==1.24.2`);
  const pin = parseCommandLinePin(text);
  if ('error' in pin || pin.exactVersion === null) throw new InputError(`${what}: give one exact version, e.g. numpy==1.24.2 (got ${text})`);
  return { library: pin.distribution, version: pin.exactVersion };
}

function withCancel<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  return run(controller.signal).finally(() => process.off('SIGINT', onSigint));
}

function parseEnvArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: {
      file: { type: 'string' },
      json: { type: 'boolean', default: false },
      python: { type: 'string' },
      venv: { type: 'string' },
      create: { type: 'boolean', default: false },
      'index-url': { type: 'string' },
      'base-python': { type: 'string' },
      debian: { type: 'string' },
      cache: { type: 'string' },
      import: { type: 'string' },
      refresh: { type: 'boolean', default: false },
      'newest-dependencies': { type: 'boolean', default: false },
      'wheel-cache': { type: 'string' },
    },
  });
}

export async function runEnv(argv: string[], out: Out, err: Out): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    (sub === undefined ? err : out)(ENV_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parseEnvArgs(rest);
  const file = values.file ?? defaultEnvironmentsFile();
  let registry: EnvironmentRegistry;
  try {
    registry = EnvironmentRegistry.load(file);
  } catch (e) {
    if (e instanceof RegistryError) throw new InputError(e.message);
    throw e;
  }
  const save = () => {
    try {
      registry.save();
    } catch (e) {
      throw new InputError((e as Error).message);
    }
  };

  const command = Object.prototype.hasOwnProperty.call(ENV_COMMANDS, sub) ? ENV_COMMANDS[sub] : undefined;
  if (!command) throw new InputError(`unknown env command "${sub}" (list, add, check, discover, remove, pythons)`);
  return command({ positionals, values, registry, save, out, err });
}

type EnvValues = ReturnType<typeof parseEnvArgs>['values'];

/** What every env subcommand is given: its arguments, the registry and a save that reports a failed write as input. */
interface EnvContext {
  readonly positionals: string[];
  readonly values: EnvValues;
  readonly registry: EnvironmentRegistry;
  readonly save: () => void;
  readonly out: Out;
  readonly err: Out;
}

/** `anachron env list [LIB]`: the registered environments. */
async function envList({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length > 1) throw new InputError('usage: anachron env list [LIB] [--json]');
  const entries = registry.list(positionals[0]);
  if (values.json) {
    out(JSON.stringify(entries, null, 2));
    return 0;
  }
  if (entries.length === 0) {
    out(`no environments registered in ${registry.file} (try: anachron env discover, or anachron env add LIB==VERSION --python PATH)`);
    return 0;
  }
  const rows = [['library', 'version', 'provider', 'python', 'check', 'command']];
  for (const e of entries) rows.push([e.library, e.version + (e.reportedVersion ? ` (says ${e.reportedVersion})` : ''), describe(e), e.pythonVersion ?? '?', status(e), e.python.argv.join(' ')]);
  for (const line of table(rows)) out(line);
  return 0;
}

/** `anachron env add LIB==VERSION`: an environment from an interpreter, a venv (made with --create) or a Debian root, verified and registered. */
async function envAdd({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length !== 1) throw new InputError('usage: anachron env add LIB==VERSION (--python PATH | --venv DIR [--create] | --debian SUITE)');
  const { library, version } = exactPin(positionals[0], 'env add');
  const sources = [values.python, values.venv, values.debian].filter((v) => v !== undefined);
  if (sources.length !== 1) throw new InputError('say where the environment comes from, once: --python PATH, --venv DIR [--create] or --debian SUITE');
  if (values.create && !values.venv) throw new InputError('--create goes with --venv DIR');
  if ((values['newest-dependencies'] || values['base-python'] || values['index-url'] || values['wheel-cache']) && !values.create) throw new InputError('--base-python, --index-url, --newest-dependencies and --wheel-cache go with --venv DIR --create');
  const options = { importName: values.import, onOutput: (line: string) => err(`  ${line}`) };
  let entry: EnvironmentEntry;
  try {
    entry = await withCancel(async (signal) => {
      if (values.python) return interpreterEnvironment(library, version, values.python, { ...options, signal });
      if (values.venv) {
        if (values.create) err(`creating ${values.venv} with ${library}==${version}…`);
        return venvEnvironment({
          ...options, signal, dir: values.venv, library, version, create: values.create,
          ...(values['index-url'] ? { indexUrl: values['index-url'] } : {}),
          ...(values['base-python'] ? { basePython: values['base-python'] } : {}),
          ...(values['newest-dependencies'] ? { dependencies: 'newest' as const } : {}),
          ...(values['wheel-cache'] ? { wheelCache: values['wheel-cache'] } : {}),
        });
      }
      err(`building (or reusing) Debian ${values.debian} with ${library}…`);
      return debianEnvironment(library, version, values.debian!, { ...options, signal, ...(values.cache ? { cache: values.cache } : {}) });
    });
  } catch (e) {
    if (e instanceof EnvironmentError || (e as Error).name === 'AbortError') {
      err(`anachron: ${(e as Error).message}; nothing was registered`);
      return 1;
    }
    throw e;
  }
  const replaced = registry.put(entry);
  save();
  out(`${replaced ? 'replaced' : 'added'} ${entry.library} ${entry.version} (${describe(entry)}, python ${entry.pythonVersion ?? '?'}): ${entry.python.argv.join(' ')}`);
  if (entry.created) out(`  made in ${entry.created.seconds.toFixed(0)} s, ${(entry.created.bytes / 1e6).toFixed(0)} MB; python: ${entry.created.pythonReason}; ${entry.created.dependencyReason}`);
  if (entry.lastCheck?.smokeTest) out(`  smoke test passed (${entry.library} ${entry.lastCheck.found}${entry.lastCheck.reported ? `, its module says ${entry.lastCheck.reported}` : ''})`);
  return 0;
}

/** `anachron env check [LIB[==VERSION]]`: each environment verified again; exit 1 where one fails. */
async function envCheck({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length > 1) throw new InputError('usage: anachron env check [LIB[==VERSION]] [--json]');
  let filter: { library?: string; version?: string } = {};
  if (positionals[0]) {
    if (positionals[0].includes('=')) filter = exactPin(positionals[0], 'env check');
    else filter = { library: positionals[0] };
  }
  if (filter.library && registry.list(filter.library).length === 0) throw new InputError(`no environment of ${filter.library} is registered`);
  const results = await withCancel((signal) => registry.check(filter, {
    signal,
    onResult: values.json ? undefined : (e, c) => out(`${c.ok ? 'ok    ' : 'FAILED'}  ${e.library} ${e.version}  ${c.ok ? `${c.found} in python ${c.python}` : c.error}`),
  }));
  if (filter.version && results.length === 0) throw new InputError(`no environment of ${filter.library} ${filter.version} is registered`);
  save();
  if (values.json) out(JSON.stringify(results.map(({ entry, check }) => ({ library: entry.library, version: entry.version, python: entry.python, ...check })), null, 2));
  else if (results.length === 0) out('no environments registered');
  return results.every((r) => r.check.ok) ? 0 : 1;
}

/** `anachron env discover`: the Debian roots of scripts/debian-python.sh registered from their cache. */
async function envDiscover({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length > 0) throw new InputError('usage: anachron env discover [--cache DIR] [--refresh] [--json]');
  const cache = values.cache ?? defaultDebianCache();
  const report = await withCancel((signal) => discoverDebianEnvironments(registry, {
    cache, refresh: values.refresh, signal, onOutput: values.json ? undefined : (line) => err(`  ${line}`),
  }));
  save();
  if (values.json) {
    out(JSON.stringify(report, null, 2));
    return 0;
  }
  for (const e of report.added) out(`registered ${e.library} ${e.version}${e.reportedVersion ? ` (says ${e.reportedVersion})` : ''}: Debian ${e.debian?.suite}, python ${e.pythonVersion ?? '?'}`);
  for (const e of report.removed) out(`removed ${e.library} ${e.version}: ${e.debian?.root} is gone`);
  for (const s of report.skipped) out(`skipped ${s.library ? `${s.library}${s.version ? ` ${s.version}` : ''} in ` : ''}${s.root}: ${s.reason}`);
  out(`${report.added.length} environment(s) from ${cache} (${report.probed.length} root(s) probed now) in ${registry.file}`);
  return 0;
}

/** `anachron env remove LIB==VERSION`. */
async function envRemove({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length !== 1) throw new InputError('usage: anachron env remove LIB==VERSION');
  const { library, version } = exactPin(positionals[0], 'env remove');
  const removed = registry.remove(library, version);
  if (!removed) throw new InputError(`no environment of ${library} ${version} is registered`);
  save();
  out(`removed ${removed.library} ${removed.version} (${removed.python.argv.join(' ')})`);
  return 0;
}

/** `anachron env pythons`: the interpreters found on this machine. */
async function envPythons({ positionals, values, registry, save, out, err }: EnvContext): Promise<number> {
  if (positionals.length > 0) throw new InputError('usage: anachron env pythons [--json]');
  const found = await discoverInterpreters();
  if (values.json) {
    out(JSON.stringify(found, null, 2));
    return 0;
  }
  if (found.length === 0) {
    out('no Python 3 interpreter found (PATH, pyenv, uv, asdf, the py launcher, ANACHRON_PYTHONS)');
    return 0;
  }
  const rows = [['version', 'venv', 'found by', 'path']];
  for (const i of found) rows.push([i.version + (i.implementation === 'cpython' ? '' : ` (${i.implementation})`), i.canVenv ? 'yes' : 'no', i.source, i.path]);
  for (const line of table(rows)) out(line);
  return 0;
}

const ENV_COMMANDS: Record<string, (context: EnvContext) => Promise<number>> = {
  list: envList,
  add: envAdd,
  check: envCheck,
  discover: envDiscover,
  remove: envRemove,
  pythons: envPythons,
};
