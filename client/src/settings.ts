// `anachron.*` settings, read per workspace folder (resource scope) and sent to the server as plain data.
import { isAbsolute, join } from 'node:path';
import { workspace, type ConfigurationChangeEvent, type Uri, type WorkspaceFolder } from 'vscode';
import { MANIFEST_KINDS, type EditorSettings, type FolderSettings, type ManifestKind, type SeverityOverride } from '../../server/src/lsp/protocol.js';

/** Settings the server applies; a change to any of them is sent at once. */
export const SERVER_SETTINGS = ['anachron.severity', 'anachron.ignore', 'anachron.manifests', 'anachron.manifestPaths', 'anachron.assumeVersions', 'anachron.fetchColumns', 'anachron.hover'];
/** Settings that need a new server process. */
export const RESTART_SETTINGS = ['anachron.server.nodePath'];
/** Settings that choose or use the interpreter. */
export const INTERPRETER_SETTINGS = ['anachron.interpreter.path', 'anachron.interpreter.useInstalledVersions'];

export function editorSettingsFor(scope: Uri | undefined): EditorSettings {
  const c = workspace.getConfiguration('anachron', scope);
  const out: EditorSettings = {};
  const severity = c.get<Record<string, SeverityOverride>>('severity');
  if (severity && Object.keys(severity).length) out.severity = { ...severity };
  const ignore = c.get<string[]>('ignore');
  if (ignore?.length) out.ignore = [...ignore];
  const manifests = c.get<ManifestKind[]>('manifests');
  if (Array.isArray(manifests) && MANIFEST_KINDS.some((k) => !manifests.includes(k))) out.manifests = manifests.filter((k) => (MANIFEST_KINDS as readonly string[]).includes(k));
  const assume = c.get<Record<string, string>>('assumeVersions');
  if (assume && Object.keys(assume).length) out.assumeVersions = { ...assume };
  if (c.get<boolean>('fetchColumns') === false) out.fetchColumns = false;
  const hover = c.get<string>('hover');
  if (hover === 'always' || hover === 'never') out.hover = hover;
  // Relative to the workspace folder; absolute paths as they are.
  const paths = (c.get<string[]>('manifestPaths') ?? []).filter((p) => typeof p === 'string' && p.trim() !== '');
  const base = scope ? workspace.getWorkspaceFolder(scope)?.uri.fsPath : undefined;
  const absolute = paths.map((p) => (isAbsolute(p) ? p : base ? join(base, p) : undefined)).filter((p): p is string => p !== undefined);
  if (absolute.length) out.manifestPaths = absolute;
  return out;
}

/** One entry per workspace folder, and one (folder: null) for files outside every folder. */
export function allFolderSettings(): FolderSettings[] {
  const folders: readonly WorkspaceFolder[] = workspace.workspaceFolders ?? [];
  return [{ folder: null, settings: editorSettingsFor(undefined) }, ...folders.map((f) => ({ folder: f.uri.toString(), settings: editorSettingsFor(f.uri) }))];
}

export function affectsAny(e: ConfigurationChangeEvent, sections: string[]): boolean {
  return sections.some((s) => e.affectsConfiguration(s));
}


export function nodePathSetting(): string | undefined {
  const value = workspace.getConfiguration('anachron').get<string>('server.nodePath')?.trim();
  return value ? value.replace(/^~(?=$|[\\/])/, process.env.HOME ?? process.env.USERPROFILE ?? '~') : undefined;
}

export interface WorkspaceCheckSettings {
  exclude: string[];
  maxFiles: number;
}

export function workspaceCheckSettings(): WorkspaceCheckSettings {
  const c = workspace.getConfiguration('anachron.checkWorkspace');
  return { exclude: c.get<string[]>('exclude') ?? [], maxFiles: Math.max(1, c.get<number>('maxFiles') ?? 5000) };
}
