// "anachron: Run Benchmark…": a LibEvoBench run from the command palette. Four quick picks (suite, libraries, model,
// size — each size also with the grounded arm), then the bundled CLI's `bench run` in a child process on the runtime the language server uses (VS
// Code's own unless anachron.server.nodePath says otherwise; the run database is written with the WebAssembly SQLite
// where better-sqlite3 does not load), with a cancellable progress notification fed over the
// child's IPC channel, and the report in a webview at the end. vscode.lm models are served to the child over that
// channel ((lm-provider.ts)); built-in and OpenAI-compatible models run entirely in the child, an endpoint's key reaching
// it only in an environment variable. Run folders go to the workspace's .anachron/bench/ when it is trusted, else
// to the extension's global storage; the same choices give the same folder, so running them again resumes.
// The drift suite (generated code run in every version environment) is refused in an untrusted workspace and runs
// only after a modal confirmation, every time.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ProgressLocation, QuickPickItemKind, window, workspace, type CancellationToken, type LanguageModelChat, type QuickPickItem } from 'vscode';
import { serveModelOverIpc } from '../../../server/src/eval/models/ipc-provider.js';
import { displayUrl, makeRedactor } from '../../../server/src/eval/models/redact.js';
import type { RunProgress } from '../../../server/src/eval/runs/runner.js';
import { LibrariesRequest, type LibraryInfo } from '../../../server/src/lsp/protocol.js';
import {
  checkBaseUrl,
  ARMS_CHOICES,
  childEnvironment,
  DRIFT_SIZES,
  driftConfirmation,
  driftLibraryChoices,
  envAddArgs,
  environmentCreationConfirmation,
  missingDriftEnvironments,
  type DriftEnvironmentGap,
  type DriftLibraryChoice,
  type PlanInput,
  finishedSentence,
  inspectSamplesFile,
  isInside,
  libraryChoices,
  matricesFor,
  planRun,
  progressMessage,
  ProgressTracker,
  readOutcome,
  SIZES,
  type ArmsChoice,
  type BuiltinModelId,
  type LibraryChoice,
  type ModelChoice,
  type RunPlan,
  type SizeId,
  type SuiteChoice,
} from './run-flow.js';
import { availableChatModels, languageModelHandler } from './lm-provider.js';
import { showBenchmarkReport } from './reports-command.js';
import { cliFailureNote } from '../cli-exit.js';
import type { AnachronSession } from '../session.js';
import { compareVersions, versionsEqual } from '../../../server/src/core/versions.js';
import { bundledTaskLibraries, readTaskFile } from '../../../server/src/eval/drift/task-files.js';

const ENDPOINTS_KEY = 'anachron.bench.endpoints';
const LIBRARIES_KEY = 'anachron.bench.libraries';
const secretKeyFor = (baseUrl: string) => `anachron.bench.apiKey:${displayUrl(baseUrl)}`;

/** The folder runs started from the editor go to, and how to say where that is. */
export function benchRunsRoot(anachron: AnachronSession): { root: string; where: string } {
  const folder = workspace.workspaceFolders?.[0];
  if (workspace.isTrusted && folder && folder.uri.scheme === 'file') {
    return { root: path.join(folder.uri.fsPath, '.anachron', 'bench'), where: `this workspace's .anachron/bench/ (${folder.name})` };
  }
  return {
    root: path.join(anachron.context.globalStorageUri.fsPath, 'bench'),
    where: workspace.isTrusted ? "the extension's global storage (no workspace folder is open)" : "the extension's global storage (Restricted Mode: nothing is written into this workspace)",
  };
}

type Item<T> = QuickPickItem & { value?: T };
const separator = <T>(label: string): Item<T> => ({ label, kind: QuickPickItemKind.Separator });

let running: Promise<void> | undefined;

export async function runBenchmark(anachron: AnachronSession): Promise<void> {
  if (running) {
    void window.showInformationMessage('anachron: a benchmark is running already; cancel it from its notification, or wait for it to finish.');
    return;
  }
  running = flow(anachron).finally(() => {
    running = undefined;
  });
  return running;
}

const STEPS = 4;

async function flow(anachron: AnachronSession): Promise<void> {
  if (!anachron.runtime) {
    void window.showErrorMessage('anachron: the language server has not started, so no benchmark can run. See the output.', 'Show Output').then((c) => c && anachron.log.show(true));
    return;
  }
  const infos = await anachron.request<LibraryInfo[]>(LibrariesRequest);
  if (!infos) return;
  const tracked = libraryChoices(infos);
  if (tracked.length === 0) {
    void window.showErrorMessage('anachron: no matrices are loaded, so there is nothing to benchmark on. See the output.');
    return;
  }
  const { root, where } = benchRunsRoot(anachron);
  // 1. suite
  const suitePick = await window.showQuickPick(suiteItems(tracked, workspace.isTrusted), {
    title: `anachron: Run Benchmark (1/${STEPS}): suite`,
    placeHolder: workspace.isTrusted ? 'What to ask the model' : "What to ask the model. Restricted Mode: this workspace's code is never read as a corpus; trust the workspace to benchmark on it",
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  if (!suitePick?.value) return;
  if (suitePick.value !== 'samples' && suitePick.value.kind === 'drift') return driftFlow(anachron, root, where);
  const chosen: { suite: SuiteChoice; offered: LibraryChoice[]; counts?: Record<string, number> } | undefined = suitePick.value === 'samples' ? await samplesSuite(tracked) : { suite: suitePick.value, offered: tracked };
  if (!chosen) return;
  const { suite, offered, counts } = chosen;
  // 2. libraries
  const libraries = await pickLibraries(anachron, suite, offered, counts);
  if (!libraries) return;
  // 3. model
  const model = await pickModel(anachron, libraries.length === 1 ? libraries[0]!.library : `${libraries.length} libraries`, STEPS);
  if (!model) return;
  // 4. size
  const size = await window.showQuickPick(
    withArms(SIZES.map((s): Item<SizeId> => ({ label: s.label, description: s.limit ? `~${s.limit.toLocaleString('en-US')} samples` : 'everything', detail: s.detail, value: s.id }))),
    { title: `anachron: Run Benchmark (${STEPS}/${STEPS}): size`, placeHolder: `How much to run; the run goes to ${where}`, ignoreFocusOut: true },
  );
  if (!size?.value) return;
  const folders = { bundled: path.join(anachron.context.extensionPath, 'matrices'), user: anachron.userMatricesFolder };
  const matrices = matricesFor(libraries, folders);
  const base = {
    suite,
    libraries,
    model: model.choice,
    size: size.value.size,
    arms: size.value.arms,
    runsRoot: root,
    ...bundledCli(anachron),
    ...('folder' in matrices ? { matricesFolder: matrices.folder } : {}),
  };
  await startPlanned(anachron, base, model, root, where, 'files' in matrices ? matrices.files : []);
}

/** The suites on offer: LibEvoBench from the matrices, on the example corpus (numpy bundled), on each trusted folder's code; a samples file; drift. */
function suiteItems(tracked: readonly LibraryChoice[], trusted: boolean): Item<SuiteChoice | 'samples'>[] {
  const items: Item<SuiteChoice | 'samples'>[] = [
    { label: '$(database) LibEvoBench: API-I and SR', description: 'from the matrices', detail: 'LibEvoBench asks a model about APIs at given library versions and scores its answers against the matrices. API-I (API identification): from a module and a description, name the API. SR (signature recall): from an API and a version, write its parameters. No code is read.', value: { kind: 'libevobench', corpus: 'none' } },
  ];
  if (tracked.some((l) => l.library === 'numpy' && l.source === 'bundled')) {
    items.push({ label: '$(file-code) LibEvoBench: all tasks, API-C on the example corpus', description: 'numpy', detail: 'API-C (API calling): fill in a masked library call, given L0 the code only, L1 + what the API does, L2 + the version, L3 + the API\'s name; on generated numpy projects written in each version\'s idioms. Plus API-I and SR. No workspace code is read.', value: { kind: 'libevobench', corpus: 'example' } });
  }
  if (trusted) {
    for (const f of workspace.workspaceFolders ?? []) {
      if (f.uri.scheme !== 'file') continue;
      items.push({ label: `$(folder) LibEvoBench: all tasks, API-C on the code of ${f.name}`, description: 'this workspace', detail: 'API-C (API calling, levels L0–L3: code only, + description, + version, + name) on masked calls from its Python files that manifests pin exactly, plus API-I and SR. That code is sent to the model you pick.', value: { kind: 'libevobench', corpus: 'workspace', folder: f.uri.fsPath, folderName: f.name } });
    }
  }
  items.push({ label: '$(json) Samples file (.jsonl)…', description: 'your own samples', detail: 'BenchSample objects, one a line (docs/benchmark-models.md).', value: 'samples' });
  items.push({
    label: '$(play) Drift: generated code run in every version',
    description: trusted ? 'runs generated code' : 'Restricted Mode: not available',
    detail: 'The model writes code for a task at one version; each sample runs in every environment of the library (anachron env), then what breaks in newer versions is repaired with migration notes from the matrices. Runs generated code on this machine, sandboxed.',
    value: { kind: 'drift' },
  });
  return items;
}

/** A samples file the user picks, read and summarised: the suite, the libraries it holds, and its samples per library. */
async function samplesSuite(tracked: readonly LibraryChoice[]): Promise<{ suite: SuiteChoice; offered: LibraryChoice[]; counts: Record<string, number> } | undefined> {
  const picked = await window.showOpenDialog({ title: 'anachron: a samples file (.jsonl)', canSelectMany: false, filters: { 'Benchmark samples': ['jsonl'], 'All files': ['*'] } });
  const file = picked?.[0]?.fsPath;
  if (!file) return undefined;
  if (!workspace.isTrusted && isInside(file, (workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath))) {
    void window.showWarningMessage('anachron: Restricted Mode: benchmark input is never read from this workspace. Trust the workspace, or pick a file outside it.');
    return undefined;
  }
  let summary;
  try {
    summary = inspectSamplesFile(readFileSync(file, 'utf8'));
  } catch (e) {
    void window.showErrorMessage(`anachron: cannot read ${file}: ${(e as Error).message}`);
    return undefined;
  }
  if (summary.samples === 0) {
    void window.showErrorMessage(`anachron: ${path.basename(file)} holds no samples (one JSON BenchSample a line${summary.badLines.length ? `; lines ${summary.badLines.slice(0, 5).join(', ')} are not samples` : ''}).`);
    return undefined;
  }
  const libraries = Object.keys(summary.libraries).sort();
  const suite: SuiteChoice = { kind: 'samples', file, digest: summary.digest, libraries };
  const offered = libraries.map((library) => tracked.find((l) => l.library === library) ?? { library, versions: [], source: 'bundled' as const });
  return { suite, offered, counts: summary.libraries };
}

/** Step 2: the libraries to run on (all of a samples file's, pre-picked; else the last run's, or the first bundled one). */
async function pickLibraries(anachron: AnachronSession, suite: SuiteChoice, offered: readonly LibraryChoice[], counts: Record<string, number> | undefined): Promise<LibraryChoice[] | undefined> {
  if (offered.length === 1) return [...offered];
  // Pre-selected: the libraries of the last run, else the first bundled one (numpy when it is there).
  const last = anachron.context.globalState.get<string[]>(LIBRARIES_KEY, []).filter((l) => offered.some((o) => o.library === l));
  const preselected = new Set(last.length ? last : [offered.find((l) => l.library === 'numpy' && l.source === 'bundled')?.library ?? offered[0]!.library]);
  const items: Item<LibraryChoice>[] = offered.map((l) => ({
    label: l.library,
    description: l.versions.length ? l.versions.join(', ') : 'no matrix: no reference answers, no taxonomy',
    detail: counts ? `${counts[l.library]} samples in the file` : l.source === 'user' ? 'your matrix (anachron: Add Matrix Column…)' : 'bundled matrix',
    picked: counts ? true : preselected.has(l.library),
    value: l,
  }));
  const picked = await window.showQuickPick(items, {
    title: `anachron: Run Benchmark (2/${STEPS}): libraries`,
    placeHolder: suite.kind === 'libevobench' && suite.corpus === 'example' ? 'Which libraries (the example corpus has API-C samples for numpy only)' : 'Which libraries',
    canPickMany: true,
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return undefined;
  const libraries = picked.map((i) => i.value!);
  if (!counts) await anachron.context.globalState.update(LIBRARIES_KEY, libraries.map((l) => l.library));
  return libraries;
}

/** The CLI the extension bundles, and the extension's version (part of a run's identity). */
function bundledCli(anachron: AnachronSession): Pick<PlanInput, 'cli' | 'extensionVersion'> {
  return {
    cli: path.join(anachron.context.extensionPath, 'dist', 'cli.js'),
    extensionVersion: String((anachron.context.extension?.packageJSON as { version?: string } | undefined)?.version ?? '0'),
  };
}

/** Plans the run (resuming the folder of the same choices), writes its config, and runs it until the user stops. */
async function startPlanned(anachron: AnachronSession, base: PlanInput, model: PickedModel, root: string, where: string, matrixFiles: readonly string[]): Promise<void> {
  let plan = planRun(base);
  const resume = existsSync(path.join(plan.dir, 'run.sqlite'));
  if (resume) plan = planRun({ ...base, resume: true });
  mkdirSync(plan.dir, { recursive: true });
  // Run databases are large and machine-made: keep them out of the workspace's version control.
  const ignore = path.join(root, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '# anachron: benchmark runs started from the editor\n*\n');
  writeFileSync(path.join(plan.dir, 'config.json'), JSON.stringify(plan.config, null, 2) + '\n');
  if (matrixFiles.length) {
    // Libraries from the bundled and the user's matrices: the run reads copies side by side (and keeps them).
    mkdirSync(plan.matricesFolder, { recursive: true });
    for (const file of matrixFiles) {
      const target = path.join(plan.matricesFolder, path.basename(file));
      if (existsSync(file) && !existsSync(target)) copyFileSync(file, target);
    }
  }
  let resumed = resume;
  for (;;) {
    const next = await launch(anachron, plan, model, where, resumed);
    if (next === 'resume') {
      resumed = true;
      if (!plan.args.includes('--retry-failed')) plan = { ...plan, args: [...plan.args, '--retry-failed'] };
    } else if (next === 'start-over') {
      for (const f of ['run.sqlite', 'run.sqlite-wal', 'run.sqlite-shm', 'run.sqlite-lock']) rmSync(path.join(plan.dir, f), { force: true });
      resumed = false;
      plan = { ...plan, args: plan.args.filter((a) => a !== '--retry-failed') };
    } else return;
  }
}

/** Runs the bundled CLI with `args` on the server's runtime and returns its stdout (rejects on a non-zero exit). */
/** Runs the bundled CLI; `onLine` sees each line of its error output (progress), `token` stops it. */
function runCli(anachron: AnachronSession, args: string[], options: { token?: CancellationToken; onLine?: (line: string) => void } = {}): Promise<string> {
  const node = anachron.runtime!.path;
  const cli = path.join(anachron.context.extensionPath, 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(node, [...anachron.runtime!.nodeArgs, cli, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const stop = options.token?.onCancellationRequested(() => child.kill());
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => {
      const text = c.toString('utf8');
      stderr = (stderr + text).slice(-16_000);
      if (!options.onLine) return;
      const lines = (partial + text).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) options.onLine(line);
    });
    child.on('error', (e) => {
      stop?.dispose();
      reject(e);
    });
    child.on('exit', (code) => {
      stop?.dispose();
      if (code === 0) resolve(stdout);
      else reject(new Error(stderr.trim().split('\n').pop() || `anachron ${args.join(' ')} exited with ${code}`));
    });
  });
}

/** The registered environments (anachron env list); when no library with tasks has one, the Debian roots are
 * discovered first (anachron env discover, which registers them). */
async function driftEnvironments(anachron: AnachronSession, withTasks: readonly string[]): Promise<{ library: string; version: string }[]> {
  const list = async () => JSON.parse(await runCli(anachron, ['env', 'list', '--json'])) as { library: string; version: string }[];
  let envs = await list();
  if (!envs.some((e) => withTasks.includes(e.library))) {
    anachron.log.info('benchmark: no environment registered for the drift suite; discovering the Debian roots (anachron env discover)');
    await runCli(anachron, ['env', 'discover', '--json']);
    envs = await list();
  }
  return envs;
}

/** The versions each bundled task file names (its `versions`), for the environments the editor can make. */
function declaredTaskVersions(folder: string, libraries: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const library of libraries) {
    try {
      const versions = readTaskFile(path.join(folder, `${library}.json`)).versions;
      if (versions) out.set(library, versions);
    } catch {
      // a broken task file is the run's to report
    }
  }
  return out;
}

/**
 * Makes the missing environments (anachron env add … --venv DIR --create, one after another, under the extension's
 * storage) after the user agrees, with a cancellable progress notification that shows pip's last line; returns the
 * environments registered afterwards, or undefined when the user declined or cancelled.
 */
async function makeEnvironments(anachron: AnachronSession, gaps: readonly DriftEnvironmentGap[]): Promise<{ library: string; version: string }[] | undefined> {
  const folder = path.join(anachron.context.globalStorageUri.fsPath, 'environments');
  const make = 'Make Environments';
  if ((await window.showWarningMessage(environmentCreationConfirmation(gaps, folder), { modal: true }, make)) !== make) return undefined;
  const failed: string[] = [];
  const cancelled = await window.withProgress({ location: ProgressLocation.Notification, title: 'anachron: making environments', cancellable: true }, async (progress, token) => {
    const all = gaps.flatMap((g) => g.missing.map((v) => ({ library: g.library, version: v })));
    for (const [i, { library, version }] of all.entries()) {
      if (token.isCancellationRequested) return true;
      progress.report({ message: `${library} ${version} (${i + 1}/${all.length})`, increment: 100 / all.length });
      try {
        await runCli(anachron, envAddArgs(library, version, folder, path.join(anachron.context.globalStorageUri.fsPath, 'wheels')), {
          token,
          onLine: (line) => {
            anachron.log.info(`env add ${library}==${version}: ${line}`);
            if (/^\s*(python|dependencies|\$)/.test(line)) progress.report({ message: `${library} ${version}: ${line.trim().slice(0, 120)}` });
          },
        });
      } catch (e) {
        if (token.isCancellationRequested) return true;
        failed.push(`${library} ${version}: ${(e as Error).message}`);
      }
    }
    return false;
  });
  if (failed.length > 0) void window.showErrorMessage(`anachron: could not make ${failed.length === 1 ? 'an environment' : `${failed.length} environments`}: ${failed.join('; ')}`);
  if (cancelled) return undefined;
  return JSON.parse(await runCli(anachron, ['env', 'list', '--json'])) as { library: string; version: string }[];
}

/** The drift suite from the command palette: never in an untrusted workspace, and only after the user agrees to run generated code. */
async function driftFlow(anachron: AnachronSession, root: string, where: string): Promise<void> {
  if (!workspace.isTrusted) {
    void window.showWarningMessage('anachron: Restricted Mode: the drift suite runs generated code, which anachron never does in an untrusted workspace. Trust the workspace to run it.');
    return;
  }
  const total = 4;
  const tasksFolder = path.join(anachron.context.extensionPath, 'tasks', 'drift');
  const withTasks = bundledTaskLibraries(tasksFolder);
  let envs: { library: string; version: string }[];
  try {
    envs = await window.withProgress({ location: ProgressLocation.Notification, title: 'anachron: looking for version environments…' }, () => driftEnvironments(anachron, withTasks));
  } catch (e) {
    void window.showErrorMessage(`anachron: cannot list the environments: ${(e as Error).message}`);
    return;
  }
  // Task sets that name their versions (qiskit.json) and lack environments can have them made here.
  const gaps = missingDriftEnvironments(declaredTaskVersions(tasksFolder, withTasks), envs, versionsEqual);
  const choices = driftLibraryChoices(withTasks, envs, compareVersions);
  if (choices.length === 0 && gaps.length === 0) {
    void window.showErrorMessage(`anachron: no environment runs ${withTasks.join(', ')}: add some with "anachron env add LIB==VERSION --venv DIR --create" (or --python PATH, or scripts/debian-python.sh, then "anachron env discover") and run the benchmark again.`);
    return;
  }
  // 2. libraries (and environments to make)
  type LibraryItem = { kind: 'run'; choice: DriftLibraryChoice } | { kind: 'make'; gap: DriftEnvironmentGap };
  const picked = await window.showQuickPick(
    [
      ...choices.map((c): Item<LibraryItem> => ({ label: c.library, description: c.versions.join(', '), detail: c.versions.length < 2 ? 'one environment: fidelity only, no drift across versions' : `${c.versions.length} environments`, picked: c.library === 'numpy', value: { kind: 'run', choice: c } })),
      ...gaps.map((g): Item<LibraryItem> => ({ label: `$(add) ${g.library}`, description: `make ${g.missing.join(', ')}`, detail: `${g.missing.length} environment${g.missing.length === 1 ? '' : 's'} from the package index, then run in all of them`, value: { kind: 'make', gap: g } })),
    ],
    { title: `anachron: Run Benchmark (2/${total}): libraries`, placeHolder: 'Which libraries (tasks for each run in every environment listed)', canPickMany: true, ignoreFocusOut: true },
  );
  if (!picked || picked.length === 0) return;
  const toMake = picked.flatMap((i) => (i.value?.kind === 'make' ? [i.value.gap] : []));
  let libraries = picked.flatMap((i) => (i.value?.kind === 'run' ? [i.value.choice] : []));
  if (toMake.length > 0) {
    const made = await makeEnvironments(anachron, toMake);
    if (!made) return;
    const again = driftLibraryChoices(withTasks, made, compareVersions);
    const wanted = new Set([...libraries.map((l) => l.library), ...toMake.map((g) => g.library)]);
    libraries = again.filter((c) => wanted.has(c.library));
    if (libraries.length === 0) return;
  }
  // 3. model
  const model = await pickModel(anachron, libraries.length === 1 ? libraries[0]!.library : `${libraries.length} libraries`, total, 'drift');
  if (!model) return;
  // 4. size
  const size = await window.showQuickPick(
    withArms(DRIFT_SIZES.map((s): Item<SizeId> => ({ label: s.label, description: s.limit ? `${s.limit} samples, ${s.samplesPerPrompt} per prompt` : `everything, ${s.samplesPerPrompt} per prompt`, detail: s.detail, value: s.id }))),
    { title: `anachron: Run Benchmark (${total}/${total}): size`, placeHolder: `How much to run; the run goes to ${where}`, ignoreFocusOut: true },
  );
  if (!size?.value) return;
  // Ask before running generated code, every time.
  const run = 'Run Generated Code';
  const answer = await window.showWarningMessage(driftConfirmation(model.choice, libraries), { modal: true }, run);
  if (answer !== run) return;
  await startPlanned(
    anachron,
    {
      suite: { kind: 'drift' },
      libraries: libraries.map((l) => ({ library: l.library, versions: l.versions, source: 'bundled' as const })),
      model: model.choice,
      size: size.value.size,
      arms: size.value.arms,
      runsRoot: root,
      ...bundledCli(anachron),
      matricesFolder: path.join(anachron.context.extensionPath, 'matrices'),
    },
    model,
    root,
    where,
    [],
  );
}

/**
 * The size step's items: each size with the plain prompts, then each again with the grounded arm too (config.arms,
 * both suites) — a choice in the step the flow already has, so its steps stay four.
 */
function withArms(sizes: readonly Item<SizeId>[]): Item<{ size: SizeId; arms: ArmsChoice }>[] {
  const grounded = ARMS_CHOICES.find((a) => a.id === 'plain+grounded')!;
  return [
    ...sizes.map((s) => ({ ...s, value: { size: s.value!, arms: 'plain' as const } })),
    separator<{ size: SizeId; arms: ArmsChoice }>(grounded.label),
    ...sizes.map((s) => ({ label: `${s.label} + grounded`, description: `${s.description ?? ''}, twice: plain and grounded`, detail: grounded.detail, value: { size: s.value!, arms: 'plain+grounded' as const } })),
  ];
}

interface PickedModel {
  choice: ModelChoice;
  chat?: LanguageModelChat;
  apiKey?: string;
}

async function pickModel(anachron: AnachronSession, what: string, total: number, suite: 'libevobench' | 'drift' = 'libevobench'): Promise<PickedModel | undefined> {
  const chats = await availableChatModels();
  anachron.log.info(`benchmark: VS Code's Language Model API offers ${chats.length ? chats.map((c) => `${c.vendor}/${c.id}`).join(', ') : 'no chat models'}`);
  const endpoints = anachron.context.globalState.get<{ baseUrl: string; model: string }[]>(ENDPOINTS_KEY, []);
  type M = { kind: 'builtin'; model: BuiltinModelId } | { kind: 'endpoint'; baseUrl?: string; model?: string } | { kind: 'lm'; chat: LanguageModelChat };
  const builtins: Item<M>[] =
    suite === 'drift'
      ? [
          { label: '$(beaker) version-aware', description: 'reference', detail: "Answers with the task's own solution for the version the prompt names (and for the target version when repairing): the ceiling to compare with.", value: { kind: 'builtin', model: 'version-aware' } },
          { label: '$(beaker) version-oblivious', description: 'reference', detail: "Always answers with the newest solution; repairs by applying the migration notes mechanically: the drift a version-blind model shows.", value: { kind: 'builtin', model: 'version-oblivious' } },
        ]
      : [
          { label: '$(beaker) reference-pinned', description: 'version-aware', detail: 'Documentation retrieval over the matrices, answering from the version the prompt names: a floor to compare with.', value: { kind: 'builtin', model: 'reference-pinned' } },
          { label: '$(beaker) reference-newest', description: 'version-oblivious', detail: 'The same retrieval from the newest version only: it makes the anachronistic errors the benchmark measures.', value: { kind: 'builtin', model: 'reference-newest' } },
        ];
  const items: Item<M>[] = [
    separator('built-in: no network'),
    ...builtins,
    separator('OpenAI-compatible endpoint'),
    ...endpoints.map((e): Item<M> => ({ label: `$(cloud) ${e.model}`, description: displayUrl(e.baseUrl), detail: 'Used before; its key (if any) is in VS Code\'s secret storage.', value: { kind: 'endpoint', baseUrl: e.baseUrl, model: e.model } })),
    { label: '$(cloud) OpenAI-compatible endpoint…', description: 'base URL, model, API key', detail: 'OpenAI, Azure-style gateways, vLLM, Ollama, llama.cpp… The key is kept in VS Code\'s secret storage, never in settings or logs.', value: { kind: 'endpoint' } },
    separator(chats.length ? "VS Code's language models" : "VS Code's language models: none available (GitHub Copilot Chat, for one, provides them)"),
    ...chats.map((chat): Item<M> => ({ label: `$(sparkle) ${chat.name}`, description: `${chat.vendor} · ${chat.family}${chat.version ? ` · ${chat.version}` : ''}`, detail: "Through VS Code's Language Model API; VS Code asks you once to allow anachron to use it.", value: { kind: 'lm', chat } })),
  ];
  const picked = await window.showQuickPick(items, { title: `anachron: Run Benchmark (3/${total}): model for ${what}`, placeHolder: 'Which model answers', matchOnDescription: true, ignoreFocusOut: true });
  const value = picked?.value;
  if (!value) return undefined;
  if (value.kind === 'builtin') return { choice: { kind: 'builtin', model: value.model } };
  if (value.kind === 'lm') {
    const chat = value.chat;
    if (anachron.context.languageModelAccessInformation?.canSendRequest(chat) === false) {
      void window.showErrorMessage(`anachron: VS Code does not allow anachron to use ${chat.name}. Allow it under the Accounts menu (Manage Language Model Access), then run the benchmark again.`);
      return undefined;
    }
    return { choice: { kind: 'lm', vendor: chat.vendor, id: chat.id, family: chat.family, version: chat.version, name: chat.name }, chat };
  }
  return pickEndpoint(anachron, value.baseUrl, value.model);
}

async function pickEndpoint(anachron: AnachronSession, knownUrl: string | undefined, knownModel: string | undefined): Promise<PickedModel | undefined> {
  const endpoints = anachron.context.globalState.get<{ baseUrl: string; model: string }[]>(ENDPOINTS_KEY, []);
  let baseUrl = knownUrl;
  let model = knownModel;
  if (!baseUrl || !model) {
    baseUrl = (
      await window.showInputBox({ title: 'anachron: OpenAI-compatible endpoint: base URL', prompt: 'Up to the version segment; /chat/completions is appended', value: endpoints[0]?.baseUrl ?? 'https://api.openai.com/v1', validateInput: (v) => checkBaseUrl(v), ignoreFocusOut: true })
    )?.trim();
    if (!baseUrl) return undefined;
    model = (await window.showInputBox({ title: 'anachron: OpenAI-compatible endpoint: model', prompt: 'The model name the endpoint knows', value: endpoints.find((e) => e.baseUrl === baseUrl)?.model ?? '', validateInput: (v) => (v.trim() ? undefined : 'Name the model'), ignoreFocusOut: true }))?.trim();
    if (!model) return undefined;
  }
  const secrets = anachron.context.secrets;
  const stored = await secrets.get(secretKeyFor(baseUrl));
  let apiKey = stored;
  if (stored) {
    const how = await window.showQuickPick(
      [
        { label: 'Use the stored key', value: 'stored' },
        { label: 'Enter a new key…', value: 'new' },
        { label: 'No key', description: 'an endpoint without authentication', value: 'none' },
      ],
      { title: `anachron: API key for ${displayUrl(baseUrl)}`, ignoreFocusOut: true },
    );
    if (!how) return undefined;
    if (how.value === 'none') apiKey = undefined;
    if (how.value === 'new') apiKey = undefined;
    if (how.value !== 'new') return remember(anachron, baseUrl, model, apiKey);
  }
  const typed = await window.showInputBox({ title: `anachron: API key for ${displayUrl(baseUrl)}`, prompt: "Kept in VS Code's secret storage; it reaches the benchmark process in an environment variable only. Leave empty for an endpoint without authentication.", password: true, ignoreFocusOut: true });
  if (typed === undefined) return undefined;
  apiKey = typed.trim() || undefined;
  if (apiKey) await secrets.store(secretKeyFor(baseUrl), apiKey);
  return remember(anachron, baseUrl, model, apiKey);
}

async function remember(anachron: AnachronSession, baseUrl: string, model: string, apiKey: string | undefined): Promise<PickedModel> {
  const endpoints = anachron.context.globalState.get<{ baseUrl: string; model: string }[]>(ENDPOINTS_KEY, []);
  const next = [{ baseUrl, model }, ...endpoints.filter((e) => e.baseUrl !== baseUrl || e.model !== model)].slice(0, 5);
  await anachron.context.globalState.update(ENDPOINTS_KEY, next);
  return { choice: { kind: 'openai', baseUrl, model, withKey: apiKey !== undefined }, ...(apiKey ? { apiKey } : {}) };
}

interface ChildResult {
  code: number | null;
  stdout: string;
  lastErrors: string[];
  cancelled: boolean;
  fatal?: string;
  progress?: RunProgress;
}

/** Runs the plan in a child process with a progress notification; says what the user wants next. */
async function launch(anachron: AnachronSession, plan: RunPlan, model: PickedModel, where: string, resumed: boolean): Promise<'resume' | 'start-over' | undefined> {
  return afterRun(anachron, plan, where, await runInChild(anachron, plan, model, resumed));
}

/** The CLI's `bench run` in a child process, behind a cancellable progress notification; the model over IPC where the editor serves it. */
function runInChild(anachron: AnachronSession, plan: RunPlan, model: PickedModel, resumed: boolean): Thenable<ChildResult> {
  const node = anachron.runtime!.path;
  const redact = makeRedactor([model.apiKey]);
  anachron.log.info(`benchmark: ${resumed ? 'resuming' : 'starting'} ${plan.label} in ${plan.dir}`);
  anachron.log.info(`benchmark: ${node} ${plan.args.join(' ')}${plan.apiKeyEnv ? ` (the API key in ${plan.apiKeyEnv})` : ''}`);
  return window.withProgress(
    { location: ProgressLocation.Notification, title: `anachron: benchmark ${plan.label}`, cancellable: true },
    (progress, token) =>
      new Promise<ChildResult>((resolve) => {
        const child = spawn(node, [...anachron.runtime!.nodeArgs, ...plan.args], { cwd: plan.dir, env: childEnvironment(process.env, plan, model.apiKey), stdio: ['ignore', 'pipe', 'pipe', 'ipc'], windowsHide: true });
        const tracker = new ProgressTracker();
        const out: ChildResult = { code: null, stdout: '', lastErrors: [], cancelled: false };
        let killTimer: NodeJS.Timeout | undefined;
        progress.report({ message: resumed ? 'building the dataset (resuming: what is recorded stays)…' : 'building the dataset…' });
        const server = serveModelOverIpc(child, {
          ...(model.chat
            ? {
                handler: languageModelHandler(model.chat, {
                  onFatal: (message) => {
                    out.fatal = message;
                    server.stop();
                  },
                }),
              }
            : {}),
          onProgress: (p) => {
            out.progress = p;
            if (out.cancelled) return;
            progress.report({ message: p.done >= p.total ? `${p.done}/${p.total} done · ${p.failed} failed · scoring and writing the report…` : progressMessage(p), increment: tracker.increment(p) });
          },
        });
        const onLine = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
          const text = redact(chunk.toString('utf8'));
          if (stream === 'stdout') out.stdout += text;
          for (const line of text.split(/\r?\n/)) {
            if (!line.trim()) continue;
            anachron.log.appendLine(line);
            if (stream === 'stderr') {
              out.lastErrors.push(line.trim());
              if (out.lastErrors.length > 5) out.lastErrors.shift();
            }
          }
        };
        child.stdout?.on('data', onLine('stdout'));
        child.stderr?.on('data', onLine('stderr'));
        token.onCancellationRequested(() => {
          out.cancelled = true;
          progress.report({ message: 'stopping: keeping what is recorded and writing the partial report…' });
          // Before the first progress the run has not started: nothing to keep, so just end the process.
          if (!out.progress || !server.stop()) child.kill('SIGTERM');
          killTimer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        });
        child.on('error', (e) => {
          out.lastErrors.push(e.message);
          server.dispose();
          resolve(out);
        });
        // Not 'close': it does not come when the channel was disconnected. The exit, once the output is read, ends it.
        const output = Promise.all([child.stdout, child.stderr].map((s) => s && new Promise((r) => s.once('close', r))));
        child.on('exit', (code) => {
          clearTimeout(killTimer);
          void Promise.race([output, new Promise((r) => setTimeout(r, 2000))]).then(() => {
            server.dispose();
            out.code = code;
            resolve(out);
          });
        });
      }),
  );
}

/** Tells how the run ended (finished, stopped, failed) and offers what comes next: the report, Resume, Start Over. */
async function afterRun(anachron: AnachronSession, plan: RunPlan, where: string, result: ChildResult): Promise<'resume' | 'start-over' | undefined> {
  const outcome = readOutcome(result.stdout);
  const report = outcome.report ?? path.join(plan.dir, 'report.html');
  const title = `Benchmark: ${plan.label}`;
  const counts = result.progress ? `${result.progress.done.toLocaleString('en-US')} of ${result.progress.total.toLocaleString('en-US')} samples recorded` : 'nothing recorded yet';
  const resume = 'Resume';
  const open = 'Open Report';
  const output = 'Show Output';

  if (result.fatal) {
    anachron.log.error(`benchmark: ${result.fatal}`);
    void window.showErrorMessage(`anachron: the benchmark stopped: ${result.fatal} (${counts}; what is recorded is kept).`, output).then((c) => c && anachron.log.show(true));
    return undefined;
  }
  if (result.code === 0 && !result.cancelled) {
    anachron.log.info(`benchmark: finished: ${outcome.runLine ?? ''} ${outcome.seusLine ?? outcome.driftLines?.join('; ') ?? ''}`);
    const hasReport = existsSync(report);
    if (hasReport) await showBenchmarkReport(report, title);
    void window.showInformationMessage(finishedSentence(outcome, counts, where), ...(hasReport ? [open] : []), output).then(async (c) => {
      if (c === open) await showBenchmarkReport(report, title);
      else if (c === output) anachron.log.show(true);
    });
    return undefined;
  }
  if (result.cancelled || result.code === 130) {
    const c = await window.showInformationMessage(`anachron: benchmark stopped; ${counts} are kept. Run the same choices again (or Resume) to continue.`, ...(existsSync(report) ? [open] : []), resume);
    if (c === open) await showBenchmarkReport(report, `${title} (partial)`);
    return c === resume ? 'resume' : undefined;
  }
  const why = result.lastErrors.filter((l) => l.startsWith('anachron:') || l.startsWith('bench:')).pop() ?? result.lastErrors.pop() ?? `exit code ${result.code}`;
  const changed = /the dataset changed|belongs to a different run/.test(result.lastErrors.join('\n'));
  const startOver = 'Start Over';
  const c = await window.showErrorMessage(
    `anachron: the benchmark failed: ${why}${changed ? ' (Start Over discards what this run recorded and runs the same choices afresh)' : ''}${cliFailureNote(result.code)}`,
    ...(changed ? [startOver] : []),
    output,
  );
  if (c === output) anachron.log.show(true);
  return c === startOver ? 'start-over' : undefined;
}

/** The folders run folders go to, for "Open Benchmark Reports": the global storage (outside the workspace) and,
 * when trusted, the workspace's .anachron/bench (listed directly, whatever search excludes). */
export function editorRunsFolders(anachron: AnachronSession): string[] {
  const folders = [path.join(anachron.context.globalStorageUri.fsPath, 'bench')];
  if (workspace.isTrusted) for (const f of workspace.workspaceFolders ?? []) if (f.uri.scheme === 'file') folders.push(path.join(f.uri.fsPath, '.anachron', 'bench'));
  return folders;
}
