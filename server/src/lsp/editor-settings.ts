// Editor settings (`anachron.*`, per workspace folder) and the selected interpreter's installed versions, applied
// on top of what the manifests and [tool.anachron] say:
// - severity per code: the editor's value wins for that code; ignored codes add up;
// - `manifests`: pins from switched-off manifest kinds are dropped, and the winners re-chosen from the rest;
// - assumed versions and installed versions join the candidates, ranked by the project's pin precedence.
import { basename, isAbsolute, relative } from 'node:path';
import type { AnalysisContext } from '../core/analyze.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { manifestFormatOf, type ManifestFormat } from '../core/manifests/index.js';
import { choosePins, type Pin } from '../core/pins.js';
import type { ProjectSettings } from '../core/settings.js';
import { isValidVersion } from '../core/versions.js';
import { installedPins } from '../environments/installed-versions.js';
import { HOVER_MODES, MANIFEST_KINDS, type HoverMode, type EditorSettings, type FolderEnvironment, type FolderSettings, type ManifestKind } from './protocol.js';

const KIND_OF_FORMAT: Record<ManifestFormat, ManifestKind> = {
  'uv.lock': 'lock',
  'poetry.lock': 'lock',
  'pdm.lock': 'lock',
  'pylock.toml': 'lock',
  'Pipfile.lock': 'lock',
  requirements: 'requirements',
  conda: 'conda',
  Pipfile: 'pipfile',
  'pyproject.toml': 'pyproject',
  'setup.cfg': 'setup.cfg',
  'setup.py': 'setup.cfg',
  '.python-version': 'python-version',
};

export function manifestKindOf(file: string): ManifestKind | undefined {
  const format = manifestFormatOf(basename(file));
  return format ? KIND_OF_FORMAT[format] : undefined;
}

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint', 'off']);

/** Keeps only well-formed entries: settings arrive from the client as JSON. */
export function sanitizeEditorSettings(value: unknown): EditorSettings {
  const v = (value ?? {}) as Record<string, unknown>;
  const out: EditorSettings = {};
  if (v.severity && typeof v.severity === 'object') {
    out.severity = Object.fromEntries(Object.entries(v.severity as Record<string, unknown>).filter(([, s]) => typeof s === 'string' && SEVERITIES.has(s))) as EditorSettings['severity'];
  }
  if (Array.isArray(v.ignore)) out.ignore = v.ignore.filter((c): c is string => typeof c === 'string');
  if (Array.isArray(v.manifests)) out.manifests = v.manifests.filter((k): k is ManifestKind => (MANIFEST_KINDS as readonly unknown[]).includes(k));
  if (v.assumeVersions && typeof v.assumeVersions === 'object') {
    out.assumeVersions = Object.fromEntries(Object.entries(v.assumeVersions as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && isValidVersion(e[1])));
  }
  if (v.fetchColumns === false) out.fetchColumns = false;
  if ((HOVER_MODES as readonly unknown[]).includes(v.hover)) out.hover = v.hover as HoverMode;
  if (Array.isArray(v.manifestPaths)) out.manifestPaths = v.manifestPaths.filter((p): p is string => typeof p === 'string' && isAbsolute(p));
  return out;
}

/** Per-folder values, looked up by the longest folder that holds a file. */
export class FolderValues<T> {
  private entries: { folder: string | null; value: T }[] = [];
  constructor(private readonly toPath: (uri: string) => string | undefined) {}

  set(list: { folder: string | null; value: T }[]): void {
    this.entries = list;
  }

  for(file: string): T | undefined {
    let best: { length: number; value: T } | undefined;
    let fallback: T | undefined;
    for (const e of this.entries) {
      if (e.folder === null) {
        fallback = e.value;
        continue;
      }
      const dir = this.toPath(e.folder);
      if (!dir) continue;
      const rel = relative(dir, file);
      const inside = rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
      if (inside && (!best || dir.length > best.length)) best = { length: dir.length, value: e.value };
    }
    return best?.value ?? fallback;
  }
}

export interface EditorState {
  settings: FolderValues<EditorSettings>;
  environments: FolderValues<FolderEnvironment>;
}

export function setFolderSettings(state: EditorState, folders: FolderSettings[]): void {
  state.settings.set(folders.map((f) => ({ folder: f.folder, value: sanitizeEditorSettings(f.settings) })));
}

export function setEnvironments(state: EditorState, environments: FolderEnvironment[]): void {
  state.environments.set(environments.filter((e) => e && typeof e.interpreter === 'string' && e.distributions && typeof e.distributions === 'object').map((e) => ({ folder: e.folder, value: e })));
}

function mergeSettings(project: ProjectSettings | undefined, editor: EditorSettings | undefined): ProjectSettings | undefined {
  if (!editor || (!editor.severity && !editor.ignore)) return project;
  const merged: ProjectSettings = { ...(project ?? {}) };
  if (editor.ignore?.length) merged.ignore = [...new Set([...(project?.ignore ?? []), ...editor.ignore])];
  if (editor.severity && Object.keys(editor.severity).length) merged.severity = { ...(project?.severity ?? {}), ...(editor.severity as ProjectSettings['severity']) };
  return merged;
}

function environmentPins(env: FolderEnvironment | undefined): Pin[] {
  if (!env) return [];
  const versions = new Map(Object.entries(env.distributions).filter(([, v]) => typeof v === 'string' && isValidVersion(v)).map(([name, v]) => [normalizeDistributionName(name), v] as const));
  return installedPins(versions, env.interpreter);
}

function assumedPins(editor: EditorSettings | undefined): Pin[] {
  return Object.entries(editor?.assumeVersions ?? {}).map(([name, version]) => ({
    distribution: normalizeDistributionName(name),
    kind: 'assumed' as const,
    specifier: `==${version}`,
    exactVersion: version,
    origin: { file: 'setting anachron.assumeVersions', line: null },
  }));
}

/** Everything the editor adds for one file, computed from the manifests' candidates. */
export interface EditorPins {
  pins: Map<string, Pin>;
  candidates: Map<string, Pin[]>;
  manifestsOff: ManifestKind[];
}

export function editorPins(state: EditorState, file: string, candidates: ReadonlyMap<string, Pin[]>, project: ProjectSettings | undefined): EditorPins | undefined {
  const editor = state.settings.for(file);
  const env = state.environments.for(file);
  const enabled = editor?.manifests ? new Set(editor.manifests) : undefined;
  const manifestsOff = enabled ? MANIFEST_KINDS.filter((k) => !enabled.has(k)) : [];
  const extra = [...environmentPins(env), ...assumedPins(editor)];
  if (manifestsOff.length === 0 && extra.length === 0) return undefined;
  const counts = (p: Pin) => {
    if (!enabled || p.kind === 'installed' || p.kind === 'assumed' || p.origin.line === null) return true;
    const kind = manifestKindOf(p.origin.file);
    return kind === undefined || enabled.has(kind);
  };
  const all = [...[...candidates.values()].flat().filter(counts), ...extra];
  const chosen = choosePins(all, project?.precedence);
  return { pins: chosen.pins, candidates: chosen.candidates, manifestsOff };
}

/** The analysis context for a file with the editor's settings, assumed and installed versions applied. */
export function applyEditorState(state: EditorState, file: string, ctx: AnalysisContext, candidates: ReadonlyMap<string, Pin[]> | undefined): AnalysisContext {
  const editor = state.settings.for(file);
  const settings = mergeSettings(ctx.settings, editor);
  const pins = candidates ? editorPins(state, file, candidates, ctx.settings)?.pins : undefined;
  return { ...ctx, settings, pins: pins ?? ctx.pins };
}
