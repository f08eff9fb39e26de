// The pure parts of "anachron: Run Benchmark…": what the flow offers (suites, libraries, sizes), the run config it
// writes, where the run folder goes and what it is called (the same choices give the same folder, so running them
// again resumes), the CLI arguments and environment of the child process, progress text, and the mapping of VS Code
// Language Model errors onto the benchmark's error kinds. No VS Code API here (tested in plain Node).
import { createHash } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import type { RemoteModelConfig, BuiltinModelConfig, ModelConfig } from '../../../server/src/eval/models/config.js';
import { ipcModelConfig } from '../../../server/src/eval/models/ipc-provider.js';
import { ModelError, type ChatMessage } from '../../../server/src/eval/models/provider.js';
import { displayUrl } from '../../../server/src/eval/models/redact.js';
import { BENCH_TASKS, CORPUS_TASKS } from '../../../server/src/eval/libevobench/prompt-contract.js';
import type { RunConfig } from '../../../server/src/eval/suites.js';
import type { RunProgress } from '../../../server/src/eval/runs/runner.js';
import { canonicalJson } from '../../../server/src/eval/runs/samples.js';

// ---- choices ------------------------------------------------------------------------------------------------------

export type SizeId = 'quick' | 'standard' | 'full';

export interface Size {
  id: SizeId;
  label: string;
  /** The first N samples of the dataset (which the builder orders to spread over it); none: all of it. */
  limit?: number;
  detail: string;
}

export const SIZES: readonly Size[] = [
  { id: 'quick', label: 'Quick', limit: 200, detail: 'about 200 samples: a first look, under a minute with the built-in models; a remote model takes as long as 200 of its answers' },
  { id: 'standard', label: 'Standard', limit: 2000, detail: 'about 2,000 samples across the tasks and levels: figures worth comparing (SEUS, one score that rewards knowing each version and penalises anachronisms, with its interval); about a minute with the built-in models, ten times the quick size\'s answers' },
  { id: 'full', label: 'Full', detail: 'the whole dataset (thousands of samples per library): the paper-sized run' },
];

/** Where API-C's code comes from; API-I and SR come from the matrices alone. The drift suite runs generated code. */
export type SuiteChoice =
  | { kind: 'libevobench'; corpus: 'none' }
  | { kind: 'libevobench'; corpus: 'example' }
  | { kind: 'libevobench'; corpus: 'workspace'; folder: string; folderName: string }
  | { kind: 'samples'; file: string; digest: string; libraries: string[] }
  | { kind: 'drift' };

/** Sizes of a drift run: samples per prompt and how many generated samples (the first N cover every task and
 * version once before any prompt gets a second sample). */
export interface DriftSize {
  id: SizeId;
  label: string;
  samplesPerPrompt: number;
  limit?: number;
  detail: string;
}

export const DRIFT_SIZES: readonly DriftSize[] = [
  { id: 'quick', label: 'Quick', samplesPerPrompt: 1, limit: 40, detail: '40 generated samples, one per prompt, each run in every environment: a first look in a minute or two' },
  { id: 'standard', label: 'Standard', samplesPerPrompt: 3, limit: 400, detail: '400 generated samples (3 per prompt, T = 0.8) run in every environment, with repair' },
  { id: 'full', label: 'Full', samplesPerPrompt: 3, detail: 'every task at every version, 3 samples each, run everywhere, with repair: the paper-sized run' },
];

/** A library the drift suite can run: it has bundled tasks and environments (anachron env). */
export interface DriftLibraryChoice {
  library: string;
  /** The environments' versions, ascending. */
  versions: string[];
}

/** The drift suite's libraries: those with bundled tasks and at least one environment (versions ascending). */
export function driftLibraryChoices(withTasks: readonly string[], environments: readonly { library: string; version: string }[], compare: (a: string, b: string) => number): DriftLibraryChoice[] {
  return withTasks
    .map((library) => ({ library, versions: [...new Set(environments.filter((e) => e.library === library).map((e) => e.version))].sort(compare) }))
    .filter((c) => c.versions.length > 0);
}

/** A library whose bundled tasks name the versions they were validated for, and those no registered environment has. */
export interface DriftEnvironmentGap {
  library: string;
  missing: string[];
}

/** The versions each task set names (its file's `versions`) that no registered environment has, per library. */
export function missingDriftEnvironments(declared: ReadonlyMap<string, readonly string[]>, environments: readonly { library: string; version: string }[], equal: (a: string, b: string) => boolean): DriftEnvironmentGap[] {
  const gaps: DriftEnvironmentGap[] = [];
  for (const [library, versions] of declared) {
    const missing = versions.filter((v) => !environments.some((e) => e.library === library && equal(e.version, v)));
    if (missing.length > 0) gaps.push({ library, missing });
  }
  return gaps;
}

/** The CLI arguments that make one missing environment: a virtual environment under `folder`, from the package index,
 *  with the Python and the dependencies `anachron env add --create` chooses for the release, its wheels kept in
 *  `wheels` (made again, it installs from them). */
export function envAddArgs(library: string, version: string, folder: string, wheels: string): string[] {
  return ['env', 'add', `${library}==${version}`, '--venv', join(folder, `${library}-${version}`), '--create', '--wheel-cache', wheels];
}

/** What the editor says before making environments: what, where, what it costs. */
export function environmentCreationConfirmation(gaps: readonly DriftEnvironmentGap[], folder: string): string {
  const what = gaps.map((g) => `${g.library} ${g.missing.join(', ')}`).join('; ');
  const n = gaps.reduce((k, g) => k + g.missing.length, 0);
  return `anachron makes ${n} virtual environment${n === 1 ? '' : 's'} (${what}) in ${folder}, installed from the package index with the Python each release declares and the dependencies published with it (anachron env add --create): a few minutes and some hundred MB each. Make them?`;
}

/** What the confirmation before a drift run says: whose code runs where, and what contains it. */
export function driftConfirmation(model: ModelChoice, libraries: readonly DriftLibraryChoice[]): string {
  const where = libraries.map((l) => `${l.library} ${l.versions.join(', ')}`).join('; ');
  return `The drift suite runs the code ${modelLabel(model)} generates on this machine, in every environment (${where}). Each sample runs in its own process with a timeout, memory and process limits, a scrubbed environment and a temporary folder, without network where the OS allows it (python-probe/README.md says what is enforced where). Run generated code?`;
}

export type BuiltinModelId = 'reference-pinned' | 'reference-newest' | 'version-aware' | 'version-oblivious';

export type ModelChoice =
  | { kind: 'builtin'; model: BuiltinModelId }
  | { kind: 'openai'; baseUrl: string; model: string; withKey: boolean }
  | { kind: 'lm'; vendor: string; id: string; family: string; version: string; name: string };

/** A library the flow offers, with the matrices folder its matrix is in. */
export interface LibraryChoice {
  library: string;
  versions: string[];
  /** "bundled": the extension's matrices; "user": a matrix of the user's own (anachron: Add Matrix Column…). */
  source: 'bundled' | 'user';
}

/** Tracked libraries as the server lists them (LibrariesRequest), as benchmark choices: the bundled matrix of a
 * library when there is one (the user's extra columns of it are not part of benchmark runs), else the user's. */
export function libraryChoices(infos: readonly { library: string; versions: string[]; userVersions: string[] }[]): LibraryChoice[] {
  const out: LibraryChoice[] = [];
  for (const info of infos) {
    const user = new Set(info.userVersions);
    const bundled = info.versions.filter((v) => !user.has(v));
    if (bundled.length > 0) out.push({ library: info.library, versions: bundled, source: 'bundled' });
    else if (info.userVersions.length > 0) out.push({ library: info.library, versions: [...info.userVersions], source: 'user' });
  }
  return out.sort((a, b) => (a.source === b.source ? a.library.localeCompare(b.library) : a.source === 'bundled' ? -1 : 1));
}

/** The matrices a run reads: one folder when every library's matrix is in it, else the files to put side by side. */
export function matricesFor(libraries: readonly LibraryChoice[], folders: { bundled: string; user: string }): { folder: string } | { files: string[] } {
  const sources = new Set(libraries.map((l) => l.source));
  if (sources.size <= 1) return { folder: sources.has('user') ? folders.user : folders.bundled };
  return { files: libraries.map((l) => join(l.source === 'user' ? folders.user : folders.bundled, `${l.library}.sqlite`)) };
}

// ---- samples files ------------------------------------------------------------------------------------------------

export interface SamplesFileSummary {
  samples: number;
  /** Samples per library. */
  libraries: Record<string, number>;
  tasks: string[];
  /** Lines that are not a sample (the CLI reports them exactly). */
  badLines: number[];
  digest: string;
}

/** What a samples file (.jsonl, one BenchSample a line) holds: enough to offer its libraries. */
export function inspectSamplesFile(text: string): SamplesFileSummary {
  const libraries: Record<string, number> = {};
  const tasks = new Set<string>();
  const badLines: number[] = [];
  let samples = 0;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const s = JSON.parse(line) as { library?: unknown; task?: unknown; id?: unknown };
      if (typeof s !== 'object' || s === null || typeof s.library !== 'string' || typeof s.task !== 'string' || typeof s.id !== 'string') throw new Error('not a sample');
      samples++;
      libraries[s.library] = (libraries[s.library] ?? 0) + 1;
      tasks.add(s.task);
    } catch {
      badLines.push(i + 1);
    }
  });
  return { samples, libraries, tasks: [...tasks].sort(), badLines, digest: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

// ---- the run --------------------------------------------------------------------------------------------------------

/** The environment variable that carries an OpenAI-compatible endpoint's key to the child (named in the config). */
export const API_KEY_ENV = 'ANACHRON_BENCH_API_KEY';

export const LEVELS = ['L0', 'L1', 'L2', 'L3'] as const;

export interface PlanInput {
  suite: SuiteChoice;
  /** LibEvoBench: the matrices' libraries; drift: the libraries with their environments' versions. */
  libraries: readonly LibraryChoice[];
  model: ModelChoice;
  size: SizeId;
  /** Where run folders go: the workspace's .anachron/bench (trusted) or the extension's global storage. */
  runsRoot: string;
  /** dist/cli.js of the extension. */
  cli: string;
  /** Folder of the matrices the run reads (see matricesFor); undefined when the libraries' matrices are in different
   * folders: the run then reads DIR/matrices, which the caller fills with the files matricesFor lists. */
  matricesFolder?: string;
  /** Changes the run folder when the extension (and its bundled matrices) changes. */
  extensionVersion: string;
  /** There is a run database there already: resume it, and send the samples that failed at the model again. */
  resume?: boolean;
  /** The plain prompts only (default), or also the grounded arm: config.arms, the same field for both suites. */
  arms?: ArmsChoice;
}

export type ArmsChoice = 'plain' | 'plain+grounded';

export const ARMS_CHOICES: readonly { id: ArmsChoice; label: string; detail: string }[] = [
  { id: 'plain', label: 'Plain prompts', detail: 'the model as it is' },
  { id: 'plain+grounded', label: 'Plain and grounded', detail: "every prompt again with anachron's answers in it (as an agent with the anachron_lookup tool gets them): the model with and without anachron, side by side" },
];

/** The run config's arms for a choice (nothing for plain, so plain runs keep their folder and identity). */
function armsConfig(arms: ArmsChoice | undefined): Pick<RunConfig, 'arms'> {
  return arms === 'plain+grounded' ? { arms: ['plain', 'grounded'] } : {};
}

export interface RunPlan {
  config: RunConfig;
  /** The run folder: DIR/config.json, DIR/run.sqlite, DIR/report.html … */
  dir: string;
  /** Arguments of the runtime: the CLI and `bench run …`. Never a secret. */
  args: string[];
  /** Set for vscode.lm models: the provider id the child records, with requests served over IPC. */
  ipcModelId?: string;
  /** The environment variable the child needs the API key in (OpenAI-compatible endpoints with a key). */
  apiKeyEnv?: string;
  label: string;
  matricesFolder: string;
}

export function modelLabel(model: ModelChoice): string {
  switch (model.kind) {
    case 'builtin':
      return model.model;
    case 'openai':
      return `${model.model} @ ${displayUrl(model.baseUrl)}`;
    case 'lm':
      return `${model.name} (${model.vendor})`;
  }
}

/** The provider id a vscode.lm model is recorded under. */
export function lmProviderId(model: { vendor: string; id: string }): string {
  return `vscode-lm:${model.vendor}/${model.id}`;
}

/** A base URL the flow accepts: http(s), no credentials in it. Returns the problem, or undefined. */
export function checkBaseUrl(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return 'Not a URL, e.g. https://api.openai.com/v1';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'The URL must start with http:// or https://';
  if (u.username || u.password) return 'No credentials in the URL: the key is asked for next and kept in VS Code\'s secret storage';
  return undefined;
}

function modelConfig(model: ModelChoice): ModelConfig {
  switch (model.kind) {
    case 'builtin':
      return { provider: 'builtin', model: model.model } satisfies BuiltinModelConfig;
    case 'openai':
      return { provider: 'openai-compatible', baseUrl: model.baseUrl.trim().replace(/\/+$/, ''), model: model.model, ...(model.withKey ? { apiKeyEnv: API_KEY_ENV } : {}) } satisfies RemoteModelConfig;
    case 'lm':
      // The selector vscode.lm chose the model by: config.json says which model answered (reproducible, and the
      // CLI refuses it with a clear message, since only the editor serves vscode.lm).
      return ipcModelConfig(model.vendor, model.id, { family: model.family, version: model.version, name: model.name });
  }
}

/** Requests in flight per model kind: the built-in models are local; a chat subscription is rate-limited. */
export function concurrencyFor(model: ModelChoice): number {
  return model.kind === 'builtin' ? 8 : model.kind === 'openai' ? 4 : 2;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'run';

export function planRun(input: PlanInput): RunPlan {
  if (input.suite.kind === 'drift') return planDriftRun(input);
  const { suite, model, size } = input;
  const sizeInfo = SIZES.find((s) => s.id === size)!;
  const libraries = [...input.libraries.map((l) => l.library)].sort();
  const tasks = suite.kind === 'libevobench' && suite.corpus === 'none' ? BENCH_TASKS.filter((t) => !CORPUS_TASKS.includes(t)) : [...BENCH_TASKS];
  const label = `${libraries.join(', ')} · ${modelLabel(model)} · ${sizeInfo.label.toLowerCase()}${input.arms === 'plain+grounded' ? ' · + grounded' : ''}`;
  const config: RunConfig = {
    name: label,
    // A samples file replaces the dataset builder whatever the suite; API-C's corpus is a CLI option.
    suite: suite.kind === 'samples' ? 'samples' : 'libevobench',
    libraries,
    tasks: tasks as RunConfig['tasks'],
    levels: [...LEVELS],
    model: modelConfig(model),
    seed: 1,
    ...(sizeInfo.limit !== undefined ? { limit: sizeInfo.limit } : {}),
    concurrency: concurrencyFor(model),
    ...armsConfig(input.arms),
  };
  // The same choices give the same folder (resume); anything that changes the dataset or the model gives another.
  const { name: _name, concurrency: _c, ...measured } = config;
  const corpus = suite.kind === 'samples' ? { samples: suite.digest } : suite.kind === 'libevobench' && suite.corpus === 'workspace' ? { workspace: suite.folder } : { corpus: suite.kind === 'libevobench' ? suite.corpus : 'none' };
  const matrices = input.matricesFolder ?? input.libraries.map((l) => `${l.library}:${l.source}`).sort().join(',');
  const key = createHash('sha256').update(canonicalJson({ measured, corpus, version: input.extensionVersion, matrices })).digest('hex').slice(0, 10);
  const corpusSlug = suite.kind === 'samples' ? 'samples' : suite.kind === 'libevobench' && suite.corpus === 'workspace' ? `ws-${suite.folderName}` : suite.kind === 'libevobench' && suite.corpus === 'example' ? 'example' : 'matrices';
  const dir = join(input.runsRoot, slug(`${libraries.join('-')}-${model.kind === 'lm' ? model.id : model.kind === 'openai' ? model.model : model.model}-${corpusSlug}-${size}`) + `-${key}`);
  const corpusArgs =
    suite.kind === 'samples' ? ['--samples', suite.file]
    : suite.kind === 'libevobench' && suite.corpus === 'example' ? ['--example-corpus']
    : suite.kind === 'libevobench' && suite.corpus === 'workspace' ? ['--corpus', suite.folder]
    : [];
  return runPlan(input, config, dir, label, corpusArgs);
}

/**
 * A drift run: the libraries with the versions of their environments, the bundled tasks (the CLI finds them beside
 * the bundle), the size's samples per prompt and limit. The same choices give the same folder (resume).
 */
function planDriftRun(input: PlanInput): RunPlan {
  const { model, size } = input;
  const sizeInfo = DRIFT_SIZES.find((s) => s.id === size)!;
  const libraries = [...input.libraries].sort((a, b) => a.library.localeCompare(b.library));
  const label = `drift · ${libraries.map((l) => l.library).join(', ')} · ${modelLabel(model)} · ${sizeInfo.label.toLowerCase()}${input.arms === 'plain+grounded' ? ' · + grounded' : ''}`;
  const config = {
    name: label,
    suite: 'drift',
    libraries: libraries.map((l) => l.library),
    versions: Object.fromEntries(libraries.map((l) => [l.library, [...l.versions]])),
    model: modelConfig(model),
    seed: 1,
    ...(sizeInfo.limit !== undefined ? { limit: sizeInfo.limit } : {}),
    concurrency: concurrencyFor(model),
    ...armsConfig(input.arms),
    drift: { samplesPerPrompt: sizeInfo.samplesPerPrompt },
  } as unknown as RunConfig; // no tasks or levels: the drift suite's tasks come from its task files
  const { name: _name, concurrency: _c, ...measured } = config;
  const key = createHash('sha256').update(canonicalJson({ measured, version: input.extensionVersion })).digest('hex').slice(0, 10);
  const dir = join(input.runsRoot, slug(`drift-${config.libraries.join('-')}-${model.kind === 'lm' ? model.id : model.model}-${size}`) + `-${key}`);
  return runPlan(input, config, dir, label, []);
}

/** The CLI child for a run config written in `dir`: `anachron bench run`, resumed when asked, the model reached over IPC or by key. */
function runPlan(input: PlanInput, config: RunConfig, dir: string, label: string, suiteArgs: string[]): RunPlan {
  const { model } = input;
  const matricesFolder = input.matricesFolder ?? join(dir, 'matrices');
  const args = [input.cli, 'bench', 'run', join(dir, 'config.json'), '--out', dir, '--matrices', matricesFolder, '--quiet', ...suiteArgs];
  if (input.resume) args.push('--retry-failed');
  const plan: RunPlan = { config, dir, args, label, matricesFolder };
  if (model.kind === 'lm') {
    plan.ipcModelId = lmProviderId(model);
    args.push('--model-ipc', plan.ipcModelId);
  }
  if (model.kind === 'openai' && model.withKey) plan.apiKeyEnv = API_KEY_ENV;
  return plan;
}

/** The child's environment: the parent's, Electron running as Node, and the key (only) in the variable the config names. */
export function childEnvironment(base: NodeJS.ProcessEnv, plan: Pick<RunPlan, 'apiKeyEnv'>, apiKey: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, ELECTRON_RUN_AS_NODE: '1' };
  delete env[API_KEY_ENV];
  if (plan.apiKeyEnv && apiKey) env[plan.apiKeyEnv] = apiKey;
  return env;
}

/** True when `file` is inside one of `folders` (an untrusted workspace's code is never read as a corpus). */
export function isInside(file: string, folders: readonly string[]): boolean {
  return folders.some((f) => {
    const rel = relative(f, file);
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  });
}

// ---- progress -------------------------------------------------------------------------------------------------------

export function clock(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '–';
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** The progress notification's line: the stage (drift runs), done/total, failed, ETA (and the last failure's kind). */
export function progressMessage(p: RunProgress): string {
  const parts = [`${p.phase ? `${p.phase}: ` : ''}${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} done`, `${p.failed} failed`];
  if (p.done < p.total) parts.push(`ETA ${clock(p.etaSeconds)}`);
  if (p.lastFailure) parts.push(`last failure: ${p.lastFailure.kind}`);
  return parts.join(' · ');
}

/**
 * How far a run is, 0–100. A drift run has stages (generate, execute, repair i/n): they share the bar, 20% generating,
 * 60% executing, 20% repairing, so the bar only moves forward across them.
 */
export function overallPercent(p: RunProgress): number {
  if (!p.phase) return p.total > 0 ? Math.min(100, (100 * p.done) / p.total) : 0;
  const r = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  if (p.phase === 'generate') return 20 * r;
  if (p.phase === 'execute') return 20 + 60 * r;
  const m = /^repair (\d+)\/(\d+)(: execute)?/.exec(p.phase);
  if (m) {
    const round = Number(m[1]);
    const rounds = Math.max(1, Number(m[2]));
    const within = m[3] ? 0.5 + 0.5 * r : 0.5 * r;
    return 80 + (20 * (round - 1 + within)) / rounds;
  }
  return 100 * r;
}

/** Tracks the percentage reported so far; VS Code's progress takes increments. */
export class ProgressTracker {
  private reported = 0;

  increment(p: RunProgress): number {
    const now = Math.min(100, overallPercent(p));
    const delta = Math.max(0, now - this.reported);
    this.reported += delta;
    return delta;
  }
}

/** What the CLI printed at the end (stdout): the counts, SEUS (or the drift headlines) and the report's path. */
export interface RunOutcome {
  runLine?: string;
  seusLine?: string;
  /** Drift runs: one line per library (fidelity, forward compatibility, largest drop, repair). */
  driftLines?: string[];
  report?: string;
}

export function readOutcome(stdout: string): RunOutcome {
  const out: RunOutcome = {};
  for (const line of stdout.split(/\r?\n/)) {
    if (line.startsWith('run: ')) out.runLine = line.slice(5);
    else if (line.startsWith('SEUS')) out.seusLine = line;
    else if (line.startsWith('drift ')) (out.driftLines ??= []).push(line.slice(6));
    else if (line.startsWith('report: ')) out.report = line.slice(8).trim();
  }
  return out;
}

/**
 * The finished notification, one sentence: the headline figure (SEUS with its interval; a drift run's first
 * library's fidelity), how many samples the run holds and how many were recorded before, and where the run is. The
 * rest of the closing lines go to the output channel; "Open Report" and "Show Output" are its buttons.
 */
export function finishedSentence(outcome: RunOutcome, counts: string, where: string): string {
  const drift = outcome.driftLines?.[0];
  // "SEUS: not available (why…)": the why is in the output channel.
  const seus = outcome.seusLine?.startsWith('SEUS:') ? 'SEUS not available' : outcome.seusLine?.split(/\s{2,}/)[0];
  const headline = seus ?? (drift ? /^[^:]+: fidelity [^(,]+/.exec(drift)?.[0]?.trim() ?? null : null);
  const samples = /^(\S+) samples\b/.exec(outcome.runLine ?? '')?.[1];
  const before = /\((\S+) recorded before\)/.exec(outcome.runLine ?? '')?.[1];
  const what = samples ? `${samples} samples${before !== undefined ? ` (${before} recorded before)` : ''}` : counts;
  return `anachron: benchmark finished${headline ? ` — ${headline}` : ''} on ${what}; the run is in ${where}.`;
}

// ---- VS Code's Language Model API ---------------------------------------------------------------------------------

/** vscode.lm (1.91) knows user and assistant messages: the system message goes first, as a user message. */
export function toLanguageModelMessages(messages: readonly ChatMessage[]): { role: 'user' | 'assistant'; content: string }[] {
  return messages.map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content }));
}

const RATE_LIMIT = /rate[-_ ]?limit|too many requests|\b429\b|quota/i;

/** "Please wait 89 seconds", "wait 9 hours 23 minutes", "try again in 2 minutes": the wait asked for, in ms. */
export function requestedWaitMs(message: string): number | undefined {
  const m = /(?:wait|again in|retry after|after)\s+((?:\d+\s*(?:hours?|h|minutes?|mins?|m|seconds?|secs?|s)\b[\s,and]*)+)/i.exec(message);
  if (!m) return undefined;
  let ms = 0;
  for (const [, n, unit] of m[1]!.matchAll(/(\d+)\s*(hours?|h|minutes?|mins?|m|seconds?|secs?|s)\b/gi)) {
    const u = unit!.toLowerCase();
    ms += Number(n) * (u.startsWith('h') ? 3_600_000 : u.startsWith('m') ? 60_000 : 1000);
  }
  return ms > 0 ? ms : undefined;
}

export interface MappedLmError {
  error: ModelError;
  /** The run cannot go on with this model (no permission, the model is gone): stop it and say why. */
  fatal: boolean;
}

/**
 * A vscode.lm failure (LanguageModelError: code NoPermissions, Blocked, NotFound, or Unknown with a cause; or a
 * plain error from the response stream) as a ModelError of the benchmark:
 * - NoPermissions → auth, not retried: the user has not allowed anachron to use the model (consent);
 * - rate limits and quota (Blocked, or a message saying so) → rate-limited, retried (waiting what it asks for);
 * - NotFound → refused, not retried (the model is gone); a filtered response → refused;
 * - anything else → server, retried.
 */
export function mapLanguageModelError(e: unknown, modelName: string): MappedLmError {
  const err = (typeof e === 'object' && e !== null ? e : { message: String(e) }) as { code?: unknown; message?: unknown; cause?: unknown };
  const code = typeof err.code === 'string' ? err.code : '';
  const cause = err.cause instanceof Error ? err.cause.message : typeof err.cause === 'string' ? err.cause : '';
  const message = [typeof err.message === 'string' ? err.message : '', cause].filter(Boolean).join(': ').slice(0, 500) || 'unknown error';
  if (code === 'NoPermissions') {
    return {
      error: new ModelError('auth', `VS Code has not allowed anachron to use ${modelName} (no permission, or consent was not given). Allow it when VS Code asks, or under the Accounts menu (Manage Language Model Access), then run the benchmark again. (${message})`, { retryable: false }),
      fatal: true,
    };
  }
  if (code === 'NotFound') {
    return { error: new ModelError('refused', `${modelName} is not available any more (${message}); pick another model`, { retryable: false }), fatal: true };
  }
  if (code === 'Blocked' || RATE_LIMIT.test(message)) {
    const wait = requestedWaitMs(message);
    return { error: new ModelError('rate-limited', `${modelName} is rate-limited: ${message}`, { retryable: true, ...(wait !== undefined ? { retryAfterMs: wait } : {}) }), fatal: false };
  }
  if (/filtered|content filter|responsible ai/i.test(message)) {
    return { error: new ModelError('refused', `${modelName} refused the prompt: ${message}`, { retryable: false }), fatal: false };
  }
  return { error: new ModelError('server', `${modelName} failed: ${message}`, { retryable: true }), fatal: false };
}
