// Validates the drift suite's task sets (tasks/drift/*.json) by execution: every solution of every task, with the
// task's harness, in every environment of its library (each run a fresh temporary folder and process, 60 s limit),
// then checks the acceptance rules and prints the outcome table (and writes it into tasks/drift/README.md).
//
//   node --import tsx scripts/validate-drift-tasks.ts [--library numpy]… [--suites bullseye,sid] [--task ID]…
//        [--env-root DIR] [--registry FILE] [--soft deprecation|deprecation-family] [--jobs N] [--timeout S]
//        [--readme] [--json FILE] [--check] [--check-drift] [--quiet]
//
// Environments: folders SUITE-HASH under --env-root (default $ANACHRON_ENV_CACHE or ~/.cache/anachron/debian) built by
// scripts/debian-python.sh; a folder serves LIBRARY when its .anachron-complete lists python3-LIBRARY; per suite the
// folder with the fewest such libraries is used. The environment's version is the upstream part of the Debian
// package version (torch 1.7.1 although its __version__ says 1.7.0a0), as scripts/probe-debian.sh records it. Then
// the library's other environments in the environment registry (--registry, default $ANACHRON_ENVIRONMENTS or
// ~/.config/anachron/environments.json: the virtual environments `anachron env add --venv --create` made), for
// versions no Debian root has. --suites names the environments to use (Debian suites, "venv", "interpreter").
//
// Outcomes: pass; warn (passed, but the solution's own code raised a soft warning: with --soft deprecation, the
// paper's rule, a DeprecationWarning; with deprecation-family, the default, also PendingDeprecationWarning and
// FutureWarning); library-warn (passed; deprecation warnings were raised only inside the library, at none of the
// solution's lines, e.g. qiskit 1.3.0's transpile reading its own deprecated DAGCircuit.duration); fail:<exception
// type> (AssertionError: wrong answer); timeout. The solution and the harness run as two files, so the harness's own
// warnings never count. Acceptance (--check): in every environment the solution for that environment's version
// passes without warnings of its own, and no harness names an API of its task; --check-drift adds: every task's
// newest solution fails or warns in some environment, or its oldest does.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { compareVersions, satisfies } from '../server/src/core/versions.js';
import { defaultEnvironmentsFile, EnvironmentRegistry } from '../server/src/environments/registry.js';
import {
  BEFORE_VERSION,
  categoryCounts,
  coverageGrid,
  coverageIssues,
  formatIssue,
  harnessApiUses,
  newestSolution,
  oldestSolution,
  parseTaskSet,
  solutionFor,
  type DriftSolution,
  type DriftTask,
  type DriftTaskSet,
} from '../server/src/eval/drift/tasks.js';

const REPO = resolve(__dirname, '..');
const TASK_DIR = join(REPO, 'tasks', 'drift');
const README = join(TASK_DIR, 'README.md');
/** Tasks should run in under this many seconds (reported, not an acceptance failure: the machine may be busy). */
const SLOW_S = 2;
const SUITE_ORDER = ['buster', 'bullseye', 'bookworm', 'trixie', 'forky', 'sid'];

interface Args {
  libraries: string[];
  suites: string[] | null;
  tasks: string[];
  envRoot: string;
  registry: string;
  soft: SoftRule;
  jobs: number;
  timeoutS: number;
  readme: boolean;
  json: string | null;
  check: boolean;
  checkDrift: boolean;
  quiet: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    libraries: [],
    suites: null,
    tasks: [],
    envRoot: process.env.ANACHRON_ENV_CACHE ?? join(homedir(), '.cache', 'anachron', 'debian'),
    registry: defaultEnvironmentsFile(),
    soft: 'deprecation-family',
    jobs: 2,
    timeoutS: 60,
    readme: false,
    json: null,
    check: false,
    checkDrift: false,
    quiet: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === '--library') a.libraries.push(value());
    else if (flag === '--suites') a.suites = value().split(',').filter(Boolean);
    else if (flag === '--task') a.tasks.push(value());
    else if (flag === '--env-root') a.envRoot = value();
    else if (flag === '--registry') a.registry = value();
    else if (flag === '--soft') {
      const v = value();
      if (v !== 'deprecation' && v !== 'deprecation-family') throw new Error(`--soft is deprecation or deprecation-family, not ${v}`);
      a.soft = v;
    }
    else if (flag === '--jobs') a.jobs = Math.max(1, Number(value()) || 1);
    else if (flag === '--timeout') a.timeoutS = Math.max(1, Number(value()) || 60);
    else if (flag === '--readme') a.readme = true;
    else if (flag === '--json') a.json = value();
    else if (flag === '--check') a.check = true;
    else if (flag === '--check-drift') a.checkDrift = true;
    else if (flag === '--quiet') a.quiet = true;
    else if (flag === '--help' || flag === '-h') {
      console.log(readFileSync(__filename, 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
      process.exit(0);
    } else throw new Error(`unknown argument ${flag}`);
  }
  if (a.libraries.length === 0) {
    a.libraries = readdirSync(TASK_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  }
  return a;
}

// ---------------------------------------------------------------------------------------------------------------
// Environments

/** Which warnings make a passing run a soft fail: DeprecationWarning (the paper's rule), or the
 *  whole family (with PendingDeprecationWarning and FutureWarning, which the drift suite's sandbox counted before it
 *  followed the paper). */
export type SoftRule = 'deprecation' | 'deprecation-family';

export interface Environment {
  /** What the tables call it: the Debian suite, or the registry's provider (venv, interpreter). */
  name: string;
  /** The command that runs its Python, and what it adds to the environment. */
  python: string[];
  env?: Record<string, string>;
  /** The release it stands for (a Debian package's upstream version). */
  version: string;
  /** Where it comes from, for the tables: "Debian 1:1.24.2-1+deb12u1", "dependencies published by 2023-07-19". */
  origin: string;
  pythonVersion: string;
}

/** Upstream release of a Debian version: no epoch, no Debian revision, no +dfsg/+ds repack suffix. */
export function upstreamVersion(debianVersion: string): string {
  return debianVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/[+~](?:dfsg|ds)\d*(?:\.\d+)*$/, '');
}

function suiteRank(s: string): number {
  const i = SUITE_ORDER.indexOf(s);
  return i < 0 ? SUITE_ORDER.length : i;
}

export function discoverEnvironments(root: string, library: string): Environment[] {
  if (!existsSync(root)) return [];
  const pkg = `python3-${library.toLowerCase().replace(/_/g, '-')}`;
  const bySuite = new Map<string, { env: Environment; libs: number }>();
  for (const name of readdirSync(root).sort()) {
    const m = /^([a-z]+)-([0-9a-f]{6,})$/.exec(name);
    if (!m) continue;
    const dir = join(root, name);
    const marker = join(dir, '.anachron-complete');
    const python = join(dir, 'run-python');
    if (!existsSync(marker) || !existsSync(python)) continue;
    const text = readFileSync(marker, 'utf8');
    const deb = new RegExp(`^deb=${pkg.replace(/[.]/g, '\\.')} (\\S+) `, 'm').exec(text);
    if (!deb) continue;
    const libs = (text.match(/^deb=python3-(?!minimal|dev|distutils|lib2to3|pkg-resources|setuptools)[a-z0-9-]+ /gm) ?? []).length;
    const env: Environment = {
      name: m[1]!,
      python: [python],
      version: upstreamVersion(deb[1]!),
      origin: `Debian ${deb[1]!}`,
      pythonVersion: /^python=(\S+)/m.exec(text)?.[1] ?? '?',
    };
    const prev = bySuite.get(env.name);
    if (!prev || libs < prev.libs) bySuite.set(env.name, { env, libs });
  }
  return [...bySuite.values()].map((x) => x.env).sort((a, b) => compareVersions(a.version, b.version) || suiteRank(a.name) - suiteRank(b.name));
}

/** The library's environments in the registry that are not Debian roots (venvs `anachron env add` made, interpreters). */
export function registryEnvironments(file: string, library: string): Environment[] {
  if (!existsSync(file)) return [];
  return EnvironmentRegistry.load(file).list(library).filter((e) => e.provider !== 'debian').map((e) => ({
    name: e.provider,
    python: e.python.argv,
    ...(e.python.env ? { env: e.python.env } : {}),
    version: e.version,
    origin: e.created?.dependenciesBefore ? `dependencies published by ${e.created.dependenciesBefore.slice(0, 10)}` : e.provider === 'venv' ? 'a virtual environment' : e.python.argv.join(' '),
    pythonVersion: e.pythonVersion ?? '?',
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Running one solution

const DRIVER = String.raw`
import importlib, json, os, re, sys, time, traceback, warnings
lib, entry, out_path, soft_rule = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
res = {}
def finish():
    with open(out_path, 'w') as f:
        json.dump(res, f)
try:
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        mod = importlib.import_module(lib)
    res['libraryVersion'] = str(getattr(mod, '__version__', '?'))
except BaseException as e:
    res.update(outcome='env-error', error=type(e).__name__, message=str(e)[:400])
    finish()
    sys.exit(0)
FAMILY = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)
SOFT = (DeprecationWarning,) if soft_rule == 'deprecation' else FAMILY
# The solution and the harness are two files. Each warning is recorded with its location and with the nearest of
# the two files on the stack when it was raised (as the drift suite's sandbox does): the harness's warnings never
# count; a warning at a line of the solution is its own; one raised inside the library below the solution is the
# library's (qiskit 1.3.0's transpile reads its own deprecated DAGCircuit.duration).
OWN = os.path.abspath('solution.py')
HARNESS = os.path.abspath('harness.py')
caught = []
def record(message, category, filename, lineno, file=None, line=None):
    caller = None
    frame = sys._getframe(1)
    while frame is not None:
        f = frame.f_code.co_filename
        if f in (OWN, HARNESS):
            caller = 'solution' if f == OWN else 'harness'
            break
        frame = frame.f_back
    at = 'solution' if os.path.abspath(filename) == OWN else 'harness' if os.path.abspath(filename) == HARNESS else 'library'
    caught.append((category, str(message), filename, lineno, at, caller))
t0 = time.perf_counter()
with warnings.catch_warnings():
    warnings.simplefilter('always')
    warnings.showwarning = record
    g = {'__name__': '__main__', '__file__': 'solution.py'}
    try:
        exec(compile(open('solution.py').read(), OWN, 'exec'), g)
        exec(compile(open('harness.py').read(), HARNESS, 'exec'), g)
        g['check'](g[entry])
        res['outcome'] = 'pass'
    except BaseException as e:
        res['outcome'] = 'fail'
        res['error'] = type(e).__name__
        res['message'] = str(e)[:400]
        res['trace'] = ''.join(traceback.format_exception_only(type(e), e))[-600:]
res['seconds'] = round(time.perf_counter() - t0, 3)
mine = [w for w in caught if w[4] != 'harness' and w[5] != 'harness']
soft = [w for w in mine if issubclass(w[0], SOFT)]
res['warnings'] = [{'category': w[0].__name__, 'message': w[1][:300], 'file': str(w[2]), 'line': w[3], 'at': w[4]} for w in soft[:5]]
res['otherWarnings'] = sorted({w[0].__name__ for w in mine if not issubclass(w[0], SOFT)})
# A warning located inside the library is still the solution's own when it names an API the solution writes (a
# deprecated class whose warning points into the library's metaclass, as qiskit's transpiler passes do).
source = open('solution.py').read()
def own(w):
    if w[4] == 'solution':
        return True
    quoted = re.findall(r'\x60+([A-Za-z_][\w.]*)', w[1])
    return any(re.search(r'\b%s\b' % re.escape(q.rstrip('.').split('.')[-1].rstrip('()')), source) for q in quoted if q.split('.')[-1])
if res['outcome'] == 'pass' and soft:
    res['outcome'] = 'warn' if any(own(w) for w in soft) else 'library-warn'
finish()
`;

export interface RunResult {
  /** warn: the solution's own line raised a soft warning; library-warn: only the library's code did (the drift suite
   *  counts both as soft fails). */
  outcome: 'pass' | 'warn' | 'library-warn' | 'fail' | 'timeout' | 'env-error';
  error?: string;
  message?: string;
  seconds?: number;
  wallSeconds: number;
  warnings?: { category: string; message: string; file: string; line: number; at: 'solution' | 'library' }[];
  otherWarnings?: string[];
  libraryVersion?: string;
}

export function runSolution(env: Environment, library: string, task: DriftTask, solution: DriftSolution, timeoutS: number, soft: SoftRule = 'deprecation-family'): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'drift-validate-'));
  writeFileSync(join(dir, 'solution.py'), solution.code);
  writeFileSync(join(dir, 'harness.py'), task.harness);
  writeFileSync(join(dir, '_driver.py'), DRIVER);
  const out = join(dir, '_result.json');
  const started = Date.now();
  return new Promise((resolvePromise) => {
    const [exe, ...prefix] = env.python;
    const child = spawn(exe!, [...prefix, '-I', '_driver.py', library, task.entryPoint, out, soft], {
      cwd: dir,
      env: { PATH: '/usr/bin:/bin', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', PYTHONHASHSEED: '0', ...(env.env ?? {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutS * 1000);
    child.on('close', () => {
      clearTimeout(timer);
      const wallSeconds = (Date.now() - started) / 1000;
      let result: RunResult;
      if (timedOut) result = { outcome: 'timeout', wallSeconds };
      else if (existsSync(out)) result = { ...(JSON.parse(readFileSync(out, 'utf8')) as Omit<RunResult, 'wallSeconds'>), wallSeconds };
      else result = { outcome: 'fail', error: 'Crash', message: stderr.trim().split('\n').slice(-3).join(' | ') || 'no result written', wallSeconds };
      rmSync(dir, { recursive: true, force: true });
      resolvePromise(result);
    });
  });
}

async function pool<T>(jobs: (() => Promise<T>)[], concurrency: number, onDone: (n: number) => void): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
      onDone(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Evaluation

export interface TaskReport {
  task: DriftTask;
  /** results[solutionIndex][envIndex] */
  results: RunResult[][];
  /** Index of the version-aware solution per environment (-1: none). */
  diagonal: number[];
  newest: number;
  oldest: number;
  /** A solution fails or warns in an environment newer than its versions. */
  forward: boolean;
  /** A solution fails or warns in an environment older than its versions. */
  backward: boolean;
  problems: string[];
  /** Longest execution of the program (after the library's import), seconds. */
  slowest: number;
}

const ok = (r: RunResult) => r.outcome === 'pass';
/** The solution's own code is clean: it passes, or only the library's code warned (which no solution can avoid). */
const clean = (r: RunResult) => r.outcome === 'pass' || r.outcome === 'library-warn';

/** Where an environment lies relative to a solution's versions: inside them, newer (above) or older (below). */
export function envRelation(solution: DriftSolution, version: string): 'inside' | 'newer' | 'older' {
  if (solution.versions.trim() === '' || satisfies(version, solution.versions)) return 'inside';
  // The environment is newer when some version below it is inside the solution's versions (the grid of 1.x and 2.x,
  // the versions the specifier names, and one below every release, for 0.x libraries such as qiskit 0.43).
  const named = solution.versions.match(/\d+(?:\.\d+)*/g) ?? [];
  const below = [...coverageGrid(named), BEFORE_VERSION].filter((v) => compareVersions(v, version) < 0);
  return below.some((v) => satisfies(v, solution.versions)) ? 'newer' : 'older';
}

export function evaluateTask(task: DriftTask, envs: readonly Environment[], results: RunResult[][], checkDrift: boolean): TaskReport {
  const problems: string[] = [];
  const diagonal = envs.map((env) => {
    const s = solutionFor(task, env.version);
    return s ? task.solutions.indexOf(s) : -1;
  });
  envs.forEach((env, e) => {
    const d = diagonal[e]!;
    if (d < 0) problems.push(`no solution for ${env.name} (${env.version})`);
    else {
      const r = results[d]![e]!;
      if (!clean(r)) problems.push(`version-aware solution ${JSON.stringify(task.solutions[d]!.versions)} is ${label(r)} on ${env.name} (${env.version})${r.message ? `: ${r.message.split('\n')[0]}` : ''}${r.warnings?.length ? `: ${r.warnings[0]!.category}: ${r.warnings[0]!.message}` : ''}`);
    }
    for (const row of results) if (row[e]!.outcome === 'env-error') problems.push(`environment ${env.name} cannot import the library: ${row[e]!.message}`);
  });
  const newest = task.solutions.indexOf(newestSolution(task)!);
  const oldest = task.solutions.indexOf(oldestSolution(task)!);
  let forward = false;
  let backward = false;
  task.solutions.forEach((s, i) => {
    envs.forEach((env, e) => {
      const r = results[i]![e]!;
      if (ok(r) || r.outcome === 'env-error') return;
      const rel = envRelation(s, env.version);
      if (rel === 'newer') forward = true;
      if (rel === 'older') backward = true;
    });
  });
  if (checkDrift) {
    const newestDrifts = results[newest]!.some((r) => !ok(r));
    const oldestDrifts = results[oldest]!.some((r) => !ok(r));
    if (!newestDrifts && !oldestDrifts) problems.push('no drift: the newest solution passes everywhere and so does the oldest');
  }
  const uses = harnessApiUses(task);
  if (uses.length) problems.push(`the harness uses the task's APIs: ${uses.join(', ')}`);
  const slowest = Math.max(0, ...results.flat().map((r) => r.seconds ?? 0));
  return { task, results, diagonal, newest, oldest, forward, backward, problems: [...new Set(problems)], slowest };
}

const SHORT: Record<string, string> = {
  AttributeError: 'Attr',
  ImportError: 'Import',
  ModuleNotFoundError: 'Import',
  TypeError: 'Type',
  ValueError: 'Value',
  AssertionError: 'Assert',
  RuntimeError: 'Runtime',
  NotImplementedError: 'NotImpl',
  NameError: 'Name',
  IndexError: 'Index',
  KeyError: 'Key',
  UnpicklingError: 'Unpickling',
};

export function label(r: RunResult): string {
  switch (r.outcome) {
    case 'pass':
      return '✓';
    case 'warn': {
      const w = r.warnings?.find((x) => x.at === 'solution') ?? r.warnings?.[0];
      return `⚠${w?.category === 'FutureWarning' ? 'F' : w?.category === 'PendingDeprecationWarning' ? 'P' : 'D'}`;
    }
    case 'library-warn':
      return '⚠L';
    case 'timeout':
      return '⏱';
    case 'env-error':
      return 'env!';
    default:
      return `✗${SHORT[r.error ?? ''] ?? r.error ?? '?'}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Reports

function cell(rep: TaskReport, e: number): string {
  return rep.results
    .map((row, i) => {
      const l = label(row[e]!);
      return rep.diagonal[e] === i ? `**${l}**` : l;
    })
    .join(' ');
}

export function markdownSection(set: DriftTaskSet, envs: readonly Environment[], reports: readonly TaskReport[]): string {
  const lines: string[] = [];
  const envHead = envs.map((e) => `${e.name} ${e.version}`);
  lines.push(`Environments: ${envs.map((e) => `${e.name} (${set.distribution} ${e.version}, ${e.origin}, Python ${e.pythonVersion})`).join('; ')}.`);
  lines.push('');
  const counts = categoryCounts(set.tasks, set.categories);
  // Where the library's own code warns on a version-aware solution (⚠L), a column says how often: the drift suite
  // counts those as soft fails although no solution can avoid them.
  const libraryWarned = (rs: readonly TaskReport[]) => rs.reduce((n, r) => n + r.diagonal.filter((d, e) => d >= 0 && r.results[d]![e]!.outcome === 'library-warn').length, 0);
  const withLibrary = libraryWarned(reports) > 0;
  lines.push(`| category | tasks | forward drift | backward drift | both | version-aware passes (diagonal) |${withLibrary ? ' of the others, ⚠L |' : ''} version-oblivious passes |`);
  lines.push(`|---|---:|---:|---:|---:|---:|${withLibrary ? '---:|' : ''}---:|`);
  const row = (name: string, rs: readonly TaskReport[]) => {
    const diagPass = rs.reduce((n, r) => n + r.diagonal.filter((d, e) => d >= 0 && ok(r.results[d]![e]!)).length, 0);
    const oblPass = rs.reduce((n, r) => n + r.results[r.newest]!.filter(ok).length, 0);
    const cells = rs.length * envs.length;
    lines.push(`| ${name} | ${rs.length} | ${rs.filter((r) => r.forward).length} | ${rs.filter((r) => r.backward).length} | ${rs.filter((r) => r.forward && r.backward).length} | ${diagPass}/${cells} |${withLibrary ? ` ${libraryWarned(rs)} |` : ''} ${oblPass}/${cells} |`);
  };
  for (const [cat] of counts) row(cat, reports.filter((r) => r.task.category === cat));
  row('**all**', reports);
  lines.push('');
  lines.push(`| task | category | solutions (in file order) | ${envHead.join(' | ')} |`);
  lines.push(`|---|---|---|${envs.map(() => '---').join('|')}|`);
  for (const rep of reports) {
    const sols = rep.task.solutions.map((s) => `\`${s.versions || '*'}\``).join(' ');
    lines.push(`| \`${rep.task.id}\` | ${rep.task.category} | ${sols} | ${envs.map((_, e) => cell(rep, e)).join(' | ')} |`);
  }
  return lines.join('\n');
}

function replaceSection(text: string, library: string, body: string): string {
  const begin = `<!-- validation:${library}:begin -->`;
  const end = `<!-- validation:${library}:end -->`;
  const block = `${begin}\n${body}\n${end}`;
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) return text.slice(0, i) + block + text.slice(j + end.length);
  return `${text.replace(/\s*$/, '')}\n\n${block}\n`;
}

function consoleTable(set: DriftTaskSet, envs: readonly Environment[], reports: readonly TaskReport[]): string {
  const head = ['task', 'cat', ...envs.map((e) => `${e.name} ${e.version}`)];
  const rows = reports.map((r) => [r.task.id, r.task.category, ...envs.map((_, e) => cell(r, e).replace(/\*\*(.*?)\*\*/g, '[$1]'))]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const fmt = (r: string[]) => r.map((x, c) => x.padEnd(widths[c]!)).join('  ');
  return [`${set.library} (${reports.length} tasks; [x] = the version-aware solution for that environment)`, fmt(head), ...rows.map(fmt)].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  let failed = false;
  const jsonOut: Record<string, unknown> = {};
  let readme = existsSync(README) ? readFileSync(README, 'utf8') : '';
  for (const library of args.libraries) {
    const file = join(TASK_DIR, `${library}.json`);
    const debian = discoverEnvironments(args.envRoot, library);
    const others = registryEnvironments(args.registry, library).filter((r) => !debian.some((d) => d.version === r.version));
    let envs = [...debian, ...others].sort((a, b) => compareVersions(a.version, b.version));
    if (args.suites) envs = envs.filter((e) => args.suites!.includes(e.name));
    const set = parseTaskSet(readFileSync(file, 'utf8'), { source: file, coverVersions: coverageGrid(envs.map((e) => e.version)) });
    const tasks = args.tasks.length ? set.tasks.filter((t) => args.tasks.includes(t.id)) : set.tasks;
    if (envs.length === 0) {
      console.error(`${library}: no environments under ${args.envRoot} or in ${args.registry}`);
      failed = true;
      continue;
    }
    const cov = tasks.flatMap((t) => coverageIssues(t, envs.map((e) => e.version)));
    if (cov.length) {
      for (const c of cov) console.error(formatIssue(c));
      failed = true;
    }
    const jobs: (() => Promise<RunResult>)[] = [];
    for (const t of tasks) for (const s of t.solutions) for (const env of envs) jobs.push(() => runSolution(env, library, t, s, args.timeoutS, args.soft));
    const t0 = Date.now();
    if (!args.quiet) console.error(`${library}: ${tasks.length} tasks, ${jobs.length} runs in ${envs.map((e) => `${e.name} ${e.version}`).join(', ')}`);
    const flat = await pool(jobs, args.jobs, (n) => {
      if (!args.quiet && (n % 25 === 0 || n === jobs.length)) process.stderr.write(`  ${n}/${jobs.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
    });
    let k = 0;
    const reports = tasks.map((t) => {
      const results = t.solutions.map(() => envs.map(() => flat[k++]!));
      return evaluateTask(t, envs, results, args.checkDrift);
    });
    envs.forEach((env, e) => {
      const seen = [...new Set(reports.flatMap((r) => r.results.map((row) => row[e]!.libraryVersion).filter((v): v is string => !!v)))];
      if (!args.quiet) console.error(`  ${env.name}: ${env.origin} -> ${env.version}; the library says ${seen.join(', ') || '?'}`);
    });
    console.log(consoleTable(set, envs, reports));
    const fwd = reports.filter((r) => r.forward).length;
    const bwd = reports.filter((r) => r.backward).length;
    console.log(`${library}: forward drift in ${fwd} tasks, backward drift in ${bwd}, both in ${reports.filter((r) => r.forward && r.backward).length}, neither in ${reports.filter((r) => !r.forward && !r.backward).length}`);
    for (const r of reports) for (const p of r.problems) console.log(`PROBLEM ${r.task.id}: ${p}`);
    for (const r of reports) if (r.slowest > SLOW_S) console.log(`SLOW ${r.task.id}: a run took ${r.slowest} s (tasks should run in under ${SLOW_S} s)`);
    const hasProblems = reports.some((r) => r.problems.length > 0);
    if (args.check && hasProblems) failed = true;
    if (args.readme) readme = replaceSection(readme, library, markdownSection({ ...set, tasks }, envs, reports));
    jsonOut[library] = {
      environments: envs,
      tasks: reports.map((r) => ({
        id: r.task.id,
        category: r.task.category,
        forward: r.forward,
        backward: r.backward,
        problems: r.problems,
        solutions: r.task.solutions.map((s, i) => ({ versions: s.versions, results: envs.map((env, e) => ({ environment: env.name, version: env.version, diagonal: r.diagonal[e] === i, ...r.results[i]![e]! })) })),
      })),
    };
  }
  if (args.readme) writeFileSync(README, readme);
  if (args.json) writeFileSync(args.json, `${JSON.stringify(jsonOut, null, 2)}\n`);
  return failed ? 1 : 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(2);
    },
  );
}
