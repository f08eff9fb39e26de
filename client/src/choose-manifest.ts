// "anachron: Choose Manifest…": the manifests a search of the project found that pin a library (the server's
// PinsResult.manifestCandidates), offered for the active Python file; the one picked is written to the workspace
// folder's anachron.manifestPaths (relative to the folder), which the server reads before the file's own manifests.
import { ConfigurationTarget, Uri, window, workspace } from 'vscode';
import type { PinsResult } from '../../server/src/lsp/protocol.js';

export interface ManifestChoice {
  label: string;
  description?: string;
  /** The setting's new value; [] clears it (the search decides again). */
  paths: string[];
}

/** The choices offered: every candidate (the one in use marked), and clearing the setting when it is set. */
export function manifestChoices(pins: PinsResult, relativeTo: (uri: string) => string): ManifestChoice[] {
  const chosen = new Set(pins.found?.chosen ?? []);
  const choices: ManifestChoice[] = pins.manifestCandidates.map((uri, i) => ({
    label: `$(file) ${relativeTo(uri)}`,
    description: chosen.has(uri) ? (pins.found?.how === 'configured' ? 'in use (anachron.manifestPaths)' : 'in use (found by the search)') : i === 0 ? 'best ranked' : undefined,
    paths: [relativeTo(uri)],
  }));
  if (pins.found?.how === 'configured') choices.push({ label: '$(search) Let the search decide', description: 'clears anachron.manifestPaths', paths: [] });
  return choices;
}

export async function chooseManifest(pinsFor: (uri: Uri) => Promise<PinsResult | null | undefined>): Promise<void> {
  const doc = window.activeTextEditor?.document;
  if (!doc || doc.languageId !== 'python' || doc.uri.scheme !== 'file') {
    void window.showInformationMessage('anachron: open a Python file to choose the manifest that pins it.');
    return;
  }
  const folder = workspace.getWorkspaceFolder(doc.uri);
  if (!folder) {
    void window.showInformationMessage('anachron: the file is outside every workspace folder; name its manifests in anachron.manifestPaths of the user settings.');
    return;
  }
  const pins = await pinsFor(doc.uri);
  if (!pins) return;
  const relativeTo = (uri: string) => workspace.asRelativePath(Uri.parse(uri), false);
  const choices = manifestChoices(pins, relativeTo);
  if (choices.length === 0) {
    void window.showInformationMessage(`anachron: no manifest in ${folder.name} pins a library (searched requirements/, ci/, envs/ and the like, 3 folders deep). Name one in anachron.manifestPaths.`);
    return;
  }
  const picked = await window.showQuickPick(choices, { title: `anachron: which manifest pins ${workspace.asRelativePath(doc.uri)}?`, placeHolder: 'The pins of the file picked are checked (with the files it includes)' });
  if (!picked) return;
  await workspace.getConfiguration('anachron', folder.uri).update('manifestPaths', picked.paths.length ? picked.paths : undefined, ConfigurationTarget.WorkspaceFolder);
}
