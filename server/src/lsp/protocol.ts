// The custom requests and notifications between the VS Code client and the language server, beyond LSP. Plain
// types and method names only (no runtime imports), so both bundles can share them.
import type { CoverageEntry } from '../core/coverage.js';
import type { Band } from '../core/hover.js';

/** Manifest kinds a user can switch off with `anachron.manifests`. */
export const MANIFEST_KINDS = ['requirements', 'pyproject', 'setup.cfg', 'pipfile', 'conda', 'python-version', 'lock'] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

export type SeverityOverride = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** The `anachron.*` settings the server applies, for one workspace folder (or the window, outside folders). */
export interface EditorSettings {
  /** Severity per finding code; "off" silences the code. Overrides [tool.anachron] severity for the same code. */
  severity?: Record<string, SeverityOverride>;
  /** Finding codes never reported, in addition to [tool.anachron] ignore. */
  ignore?: string[];
  /** Which manifests' pins count; absent = all. */
  manifests?: ManifestKind[];
  /** Versions assumed for distributions the manifests leave unpinned (precedence step "assumed"). */
  assumeVersions?: Record<string, string>;
  /** false: no automatic columns for pins no matrix covers (default on; never in an untrusted workspace). */
  fetchColumns?: boolean;
  /** Absolute paths of the manifests to read besides the file's own (anachron.manifestPaths, resolved by the client). */
  manifestPaths?: string[];
  /** Which references get the timeline hover: only those with a finding (default), every tracked one, none. */
  hover?: HoverMode;
}

export const HOVER_MODES = ['flagged', 'always', 'never'] as const;
export type HoverMode = (typeof HOVER_MODES)[number];

export interface FolderSettings {
  /** file: URI of a workspace folder; null for files outside every folder. */
  folder: string | null;
  settings: EditorSettings;
}

/** What the selected interpreter of a folder has installed: pins of kind "installed". Only sent when trusted. */
export interface FolderEnvironment {
  folder: string | null;
  /** The interpreter's path, shown as the pins' origin. */
  interpreter: string;
  /** Installed distributions and their versions. */
  distributions: Record<string, string>;
}

/** `initializationOptions` the client sends. */
export interface ClientInitializationOptions {
  /** The bundled matrices. */
  matricesFolder?: string;
  /** Matrices the user built (anachron: Add Matrix Column…, automatic columns); their columns join the bundled ones. */
  userMatricesFolder?: string;
  /** Where release files and index pages fetched for automatic columns are kept (the extension's global storage). */
  cacheFolder?: string;
  editorSettings?: FolderSettings[];
  environments?: FolderEnvironment[];
  /** False in an untrusted workspace: the server then runs nothing but static checks (it never does more today). */
  trusted?: boolean;
}

/** What the server adds to its `initialize` result, under the key `anachron`. */
export interface ServerInitializationInfo {
  /** The SQLite implementation the matrices are read with: native (better-sqlite3) or wasm (WebAssembly). */
  store: 'native' | 'wasm';
  /** For people: "WebAssembly SQLite 3.54.1", "native SQLite (better-sqlite3)". */
  storeLabel: string;
  /** Why the native implementation is not in use, when it is not. */
  nativeUnavailable?: string;
}

export const DidChangeEditorSettings = 'anachron/didChangeEditorSettings';
export interface DidChangeEditorSettingsParams {
  folders: FolderSettings[];
}

export const DidChangeEnvironments = 'anachron/didChangeEnvironments';
export interface DidChangeEnvironmentsParams {
  environments: FolderEnvironment[];
}

/** The pins in force for a file, and where each comes from. */
export const PinsRequest = 'anachron/pins';
export interface PinsParams {
  uri: string;
}
export interface PinInfo {
  distribution: string;
  /** Import name of the tracked library, when a matrix tracks this distribution. */
  library: string | null;
  specifier: string;
  exactVersion: string | null;
  kind: 'lock' | 'requirement' | 'installed' | 'assumed';
  /** Where the pin is written, as shown in findings ("requirements.txt:1"). */
  origin: string;
  /** file: URI of the manifest, when the pin comes from a file. */
  originUri: string | null;
  /** 0-based line in that file, when known. */
  originLine: number | null;
  /** Tracked versions of the library; empty when no matrix tracks it. */
  trackedVersions: string[];
  /** The versions the checker applies: the exact version, or the tracked versions a range allows. */
  checkedVersions: string[];
  /** Other pins stated for the distribution, which lost by precedence. */
  overridden: string[];
}
export interface PinsResult {
  file: string;
  pins: PinInfo[];
  /** file: URIs of the manifests read. */
  manifests: string[];
  /** The pyproject.toml whose [tool.anachron] applies, as a file: URI. */
  settingsFile: string | null;
  /** Manifest kinds switched off by `anachron.manifests`. */
  manifestsOff: ManifestKind[];
  problems: string[];
  /** Tracked libraries without any pin for this file: their APIs are not checked. */
  unpinned: string[];
  /** Per library the open file imports: checked at its pin, inferred from the columns around it, or not checked (why). */
  coverage: CoverageEntry[];
  /** Manifests named in the settings or found by searching the project (as file: URIs), when the file's folders pinned no library. */
  found: { how: 'configured' | 'searched'; chosen: string[]; candidates: string[]; ambiguous: boolean } | null;
  /** The manifests a search of the project finds that pin a library (file: URIs, best first): what Choose manifest… offers. */
  manifestCandidates: string[];
}

/** What the matrix says about one API, for the history webview. */
export const HistoryRequest = 'anachron/history';
export interface HistoryParams {
  /** A fully qualified API ("numpy.trapezoid"); or the API under `position` in `uri`. */
  api?: string;
  uri?: string;
  position?: { line: number; character: number };
}
export interface HistoryVersion {
  version: string;
  state: 'present' | 'absent' | 'unknown';
  kind: string | null;
  signature: string | null;
  signatureSource: string | null;
  doc: string | null;
  /** The pin applies this version. */
  pinned: boolean;
  /** The version is only in the user's matrices. */
  user: boolean;
}
export interface HistoryResult {
  api: string;
  library: string;
  distribution: string;
  kind: string;
  versions: HistoryVersion[];
  /** The versions in bands that say the same thing (state and signature), as the hover groups them (core/hover.ts). */
  bands: Band[];
  /** The pin in force for `uri`, when one was given: "numpy==1.24.2 (requirements.txt:1)". */
  pin: string | null;
  /** For an exact pin: the state there, and whether it is tracked or inferred from the tracked versions around it. */
  atPin: { version: string; state: 'present' | 'absent' | 'unknown'; basis: 'tracked' | 'interpolated' | 'extrapolated' } | null;
  /** APIs with the same documentation, in some version: likely renames. */
  related: string[];
}
export type HistoryResponse = HistoryResult | { error: string; suggestions: string[] };

/** Checks files on disk (or their open text) and publishes their diagnostics; the client batches and cancels. */
export const CheckFilesRequest = 'anachron/checkFiles';
export interface CheckFilesParams {
  uris: string[];
}
export interface CheckFilesResult {
  checked: number;
  findings: number;
  /** Files that could not be read or parsed, with the reason. */
  failed: { uri: string; reason: string }[];
}

/** Tracked libraries and versions (bundled and user), for pickers. */
export const LibrariesRequest = 'anachron/libraries';
export interface LibraryInfo {
  library: string;
  distribution: string;
  versions: string[];
  userVersions: string[];
}

// ---- agent tools (knowledge/tools.ts): VS Code's language model tools, the @anachron chat participant, and
// "anachron: Review AI Suggestion" ask the server through these. Answers come rendered (Markdown), with data where
// the client acts on it (fixes to apply).

/** anachron_lookup: an API at the pins of `uri` (or the API under `position` there), or a module + description. */
export const LookupRequest = 'anachron/lookup';
export interface LookupParams {
  /** The tool's input (LookupToolInput: api, module, description, scope, pins, path); validated by the server. */
  input: unknown;
  /** The file whose pins apply (the active editor's); `path` in the input overrides it. */
  uri?: string;
  /** With `uri` and no api in the input: the API under this position. */
  position?: { line: number; character: number };
}
export interface LookupResult {
  /** Markdown for a model or a person. */
  text: string;
  /** The API answered about, when the answer is about one. */
  api: string | null;
}
export type LookupResponse = LookupResult | { error: string };

/** A text edit on the checked text (0-based, LSP-style positions). */
export interface AgentTextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

export interface AgentFinding {
  /** file: URI of the file, for findings in files (a review of changes); absent for snippets. */
  uri?: string;
  /** 1-based, as the CLI reports them. */
  line: number;
  column: number;
  code: string;
  severity: string;
  message: string;
  api: string;
  replacement: string | null;
  /** The preferred fix: its title and edits (in the checked text's coordinates). */
  fix: { title: string; edits: AgentTextEdit[] } | null;
}

/** anachron_check: code (a snippet, a selection, the clipboard) checked at the pins of `uri`. */
export const CheckSnippetRequest = 'anachron/checkSnippet';
export interface CheckSnippetParams {
  /** The tool's input (CheckToolInput: code, pins, path); validated by the server. */
  input: unknown;
  uri?: string;
  /** 1-based line of the snippet's first line in `uri` (a selection), for the positions shown. */
  firstLine?: number;
  /** The code is part of `uri` (a selection): check it under that file's imports. */
  withImports?: boolean;
}
export interface CheckSnippetResult {
  text: string;
  findings: AgentFinding[];
  /** The code with the preferred fixes applied; null when none applies. */
  fixedCode: string | null;
  /** The tracked libraries the code uses and the pins applied ("numpy==1.24.2 (requirements.txt:2)", or null). */
  libraries: { library: string; pin: string | null }[];
}
export type CheckSnippetResponse = CheckSnippetResult | { error: string };

/** /migrate: what `code` must change to move a library to `target` ("2.2.4" or "numpy==2.2.4"). */
export const MigrateRequest = 'anachron/migrate';
export interface MigrateParams {
  code: string;
  uri?: string;
  target: string;
}
export interface MigrateResult {
  text: string;
  changes: number;
}
export type MigrateResponse = MigrateResult | { error: string };

/** The lines a working tree changed since `rev` (git), checked like `anachron check --diff REV`. */
export const ReviewChangesRequest = 'anachron/reviewChanges';
export interface ReviewChangesParams {
  /** file: URI of a workspace folder inside a git repository. */
  folderUri: string;
  /** Default HEAD. */
  rev?: string;
}
export interface ReviewChangesResult {
  text: string;
  /** Python files with changed lines. */
  files: number;
  findings: AgentFinding[];
}
export type ReviewChangesResponse = ReviewChangesResult | { error: string };
