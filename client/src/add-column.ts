// "anachron: Add Matrix Column from Interpreter": probes a library in the selected interpreter with the bundled CLI
// (`anachron matrix add LIB==VERSION --python PATH --matrices DIR`) into the user's matrices folder, with progress and
// cancel, then restarts the server so the new column counts. Runs an interpreter, so only in trusted workspaces.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { commands, ProgressLocation, window, workspace, type QuickPickItem } from 'vscode';
import { LibrariesRequest, type LibraryInfo } from '../../server/src/lsp/protocol.js';
import { cliFailureNote } from './cli-exit.js';
import type { AnachronSession } from './session.js';
import { describeInterpreter, installedDistributions, type Interpreter } from './interpreter.js';

const normalize = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

async function pickInterpreter(anachron: AnachronSession): Promise<Interpreter | undefined> {
  const doc = window.activeTextEditor?.document;
  const folder = (doc && workspace.getWorkspaceFolder(doc.uri)) ?? workspace.workspaceFolders?.[0];
  const selected = await anachron.interpreters.interpreterFor(folder?.uri);
  if (selected) return selected;
  const choice = await window.showWarningMessage(
    'anachron: no Python interpreter is selected. Select one with the Python extension, or set "anachron.interpreter.path".',
    'Enter Path…',
    'Open Setting',
  );
  if (choice === 'Open Setting') await commands.executeCommand('workbench.action.openSettings', 'anachron.interpreter.path');
  if (choice !== 'Enter Path…') return undefined;
  const typed = await window.showInputBox({ title: 'anachron: Python interpreter', prompt: 'Path of a Python interpreter (3.8 or newer)', ignoreFocusOut: true });
  return typed?.trim() ? { command: typed.trim(), args: [], source: 'entered' } : undefined;
}

export async function addMatrixColumn(anachron: AnachronSession): Promise<void> {
  if (!workspace.isTrusted) {
    const c = await window.showWarningMessage('anachron: adding a matrix column runs the selected Python interpreter, which Restricted Mode does not allow. Trust this workspace first.', 'Manage Workspace Trust');
    if (c) await commands.executeCommand('workbench.trust.manage');
    return;
  }
  const runtime = anachron.runtime;
  if (!runtime) {
    void window.showErrorMessage('anachron: the language server has not started, so no matrix can be built. See the output.', 'Show Output').then((c) => c && anachron.log.show(true));
    return;
  }
  const interpreter = await pickInterpreter(anachron);
  if (!interpreter) return;

  let installed: { executable: string; distributions: Record<string, string> };
  try {
    installed = await window.withProgress({ location: ProgressLocation.Window, title: `anachron: asking ${describeInterpreter(interpreter)} what it has installed` }, () => installedDistributions(interpreter, path.join(anachron.context.extensionPath, 'python-probe')));
  } catch (e) {
    void window.showErrorMessage(`anachron: ${(e as Error).message}`);
    return;
  }
  const libraries = (await anachron.request<LibraryInfo[]>(LibrariesRequest)) ?? [];
  const tracked = new Map(libraries.map((l) => [normalize(l.distribution), l]));
  type Item = QuickPickItem & { distribution?: string; version?: string };
  const entries = Object.entries(installed.distributions).sort(([a], [b]) => Number(tracked.has(normalize(b))) - Number(tracked.has(normalize(a))) || a.localeCompare(b));
  const items: Item[] = entries.map(([distribution, version]) => {
    const lib = tracked.get(normalize(distribution));
    const has = lib && [...lib.versions, ...lib.userVersions].includes(version);
    return {
      label: `${distribution} ${version}`,
      description: lib ? (has ? 'already tracked: replaces that column in your matrices' : `tracked: ${lib.versions.join(', ')}`) : 'not tracked yet: starts a matrix of your own',
      distribution,
      version,
    };
  });
  const picked = await window.showQuickPick(items, { title: `anachron: add a matrix column from ${installed.executable}`, placeHolder: 'Which installed library (at its installed version)?', matchOnDescription: true });
  if (!picked?.distribution || !picked.version) return;

  const folder = anachron.userMatricesFolder;
  const cli = path.join(anachron.context.extensionPath, 'dist', 'cli.js');
  const node = runtime.path;
  const args = [cli, 'matrix', 'add', `${picked.distribution}==${picked.version}`, '--python', installed.executable, '--matrices', folder];
  anachron.log.info(`running ${node} ${args.join(' ')}`);
  // Windows cannot replace a matrix file the server holds open.
  if (process.platform === 'win32') await anachron.stop();

  const result = await window.withProgress({ location: ProgressLocation.Notification, title: `anachron: adding ${picked.distribution} ${picked.version}`, cancellable: true }, (progress, token) =>
    new Promise<{ code: number | null; lastLine: string; cancelled: boolean }>((resolve) => {
      const child = spawn(node, [...runtime.nodeArgs, ...args], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let lastLine = '';
      let killTimer: NodeJS.Timeout | undefined;
      const onLine = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split(/\r?\n/)) {
          if (!line.trim()) continue;
          lastLine = line.trim();
          anachron.log.appendLine(line);
          progress.report({ message: lastLine.slice(0, 120) });
        }
      };
      child.stdout.on('data', onLine);
      child.stderr.on('data', onLine);
      token.onCancellationRequested(() => {
        child.kill('SIGINT'); // the CLI stops the probe and leaves the matrix unchanged
        killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
      });
      child.on('error', (e) => resolve({ code: null, lastLine: e.message, cancelled: false }));
      child.on('close', (code) => {
        clearTimeout(killTimer);
        resolve({ code, lastLine, cancelled: token.isCancellationRequested });
      });
    }),
  );
  if (result.cancelled || result.code !== 0) await anachron.start();
  if (result.cancelled) {
    void window.showInformationMessage(`anachron: cancelled; your matrices are unchanged.`);
    return;
  }
  if (result.code !== 0) {
    void window.showErrorMessage(`anachron: could not add ${picked.distribution} ${picked.version}: ${result.lastLine}${cliFailureNote(result.code)}`, 'Show Output').then((c) => c && anachron.log.show(true));
    return;
  }
  await anachron.restart();
  void window.showInformationMessage(`anachron: ${picked.distribution} ${picked.version} is now a column of your matrices (${folder}); the checker uses it.`);
}

export async function removeUserMatrices(anachron: AnachronSession): Promise<void> {
  const folder = anachron.userMatricesFolder;
  if (!existsSync(folder)) {
    void window.showInformationMessage('anachron: you have not added any matrix columns.');
    return;
  }
  const ok = await window.showWarningMessage(`anachron: remove every matrix column you added (${folder})? The bundled matrices stay.`, { modal: true }, 'Remove');
  if (ok !== 'Remove') return;
  rmSync(folder, { recursive: true, force: true });
  await anachron.restart();
}
