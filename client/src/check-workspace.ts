// "anachron: Check Workspace": every Python file of the workspace, in batches the server checks and publishes to
// Problems, with progress and cancel. Static only, so it runs in untrusted workspaces too.
import { commands, ProgressLocation, RelativePattern, window, workspace, type Uri } from 'vscode';
import { CheckFilesRequest, type CheckFilesResult } from '../../server/src/lsp/protocol.js';
import type { AnachronSession } from './session.js';
import { workspaceCheckSettings } from './settings.js';

const BATCH = 25;

/** One brace glob of the configured exclusions and files.exclude. */
function excludeGlob(extra: string[]): string | undefined {
  const filesExclude = workspace.getConfiguration('files').get<Record<string, boolean>>('exclude') ?? {};
  const all = [...extra, ...Object.entries(filesExclude).filter(([, on]) => on).map(([glob]) => glob)].filter((g) => !g.includes('{') && !g.includes(','));
  return all.length ? `{${[...new Set(all)].join(',')}}` : undefined;
}

export async function checkWorkspace(anachron: AnachronSession): Promise<void> {
  const folders = workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void window.showInformationMessage('anachron: open a folder to check its Python files.');
    return;
  }
  if (!anachron.running) {
    await anachron.request(CheckFilesRequest, { uris: [] }); // says why it cannot
    return;
  }
  const settings = workspaceCheckSettings();
  const exclude = excludeGlob(settings.exclude);
  const started = Date.now();
  const outcome = await window.withProgress({ location: ProgressLocation.Notification, title: 'anachron: checking the workspace', cancellable: true }, async (progress, token) => {
    progress.report({ message: 'finding Python files…' });
    const found: Uri[] = [];
    for (const folder of folders) {
      found.push(...(await workspace.findFiles(new RelativePattern(folder, '**/*.py'), exclude, settings.maxFiles - found.length, token)));
      if (found.length >= settings.maxFiles || token.isCancellationRequested) break;
    }
    const files = [...new Map(found.map((u) => [u.toString(), u])).values()].sort((a, b) => (a.fsPath < b.fsPath ? -1 : 1));
    const total: CheckFilesResult = { checked: 0, findings: 0, failed: [] };
    for (let i = 0; i < files.length && !token.isCancellationRequested; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      let r: CheckFilesResult | null;
      try {
        r = (await anachron.client!.sendRequest(CheckFilesRequest, { uris: batch.map((u) => u.toString()) }, token)) as CheckFilesResult | null;
      } catch (e) {
        if (token.isCancellationRequested) break;
        throw e;
      }
      if (!r) break;
      total.checked += r.checked;
      total.findings += r.findings;
      total.failed.push(...r.failed);
      progress.report({ increment: (100 * batch.length) / files.length, message: `${Math.min(i + BATCH, files.length)} of ${files.length} files, ${total.findings} findings` });
    }
    return { total, files: files.length, cancelled: token.isCancellationRequested, capped: found.length >= settings.maxFiles };
  });
  const { total, files, cancelled, capped } = outcome;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const f of total.failed) anachron.log.warn(`not checked: ${f.uri}: ${f.reason}`);
  const summary = `${cancelled ? `Stopped after ${total.checked} of ${files}` : `Checked ${total.checked}`} Python files in ${seconds} s: ${total.findings} finding${total.findings === 1 ? '' : 's'}${total.failed.length ? `, ${total.failed.length} not checked (see the output)` : ''}${capped ? ` (capped at anachron.checkWorkspace.maxFiles = ${settings.maxFiles})` : ''}.`;
  anachron.log.info(summary);
  const choice = await window.showInformationMessage(`anachron: ${summary}`, ...(total.findings ? ['Open Problems'] : []));
  if (choice === 'Open Problems') await commands.executeCommand('workbench.actions.view.problems');
}
