// Finds the manifests that govern a Python file and reads their pins and settings (see docs/pins.md):
// - pins come from the nearest folder, walking up from the file, that holds a recognised manifest (plus the
//   uv.lock of the workspace that folder is a member of), and the files those manifests pull in with -r/-c;
// - settings come from the nearest pyproject.toml with a [tool.anachron] table at or above the file;
// - one pin per distribution wins by precedence.
// Every read goes through a ManifestReader, so editors can supply unsaved text.
// A hostile project is read safely: only regular files of a bounded size (workspace/bounded-read.ts), includes only
// inside the project (or folders the user names in ANACHRON_INCLUDE_PATHS) and nested at most MAX_INCLUDE_DEPTH deep,
// and problem messages quote at most a short excerpt of what the files hold.
import { readdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { excerpt, MAX_PROBLEM_MESSAGE } from '../core/excerpt.js';
import {
  compareManifestNames,
  isCompanionFormat,
  isLockFormat,
  manifestFormatOf,
  parseManifestAs,
  type ManifestFormat,
  type ParsedAnyManifest,
} from '../core/manifests/index.js';
import { choosePins, type ManifestProblem, type Pin } from '../core/pins.js';
import type { PrecedenceStep, ProjectSettings } from '../core/settings.js';
import { MAX_MANIFEST_BYTES, readBoundedText } from './bounded-read.js';
import { searchManifests, type ManifestCandidate } from './manifest-search.js';

/** How deep -r/-c includes may nest (a chain of files each including the next). */
export const MAX_INCLUDE_DEPTH = 32;
/** Folders (separated as PATH is) outside the project that -r/-c includes may also read, named by the user. */
export const INCLUDE_PATHS_VARIABLE = 'ANACHRON_INCLUDE_PATHS';

export interface ManifestPins {
  /** The pin that wins, per normalised distribution name. */
  pins: Map<string, Pin>;
  /** Every pin stated for each distribution, the winner first, then the others in the order they would win. */
  candidates: Map<string, Pin[]>;
  problems: ManifestProblem[];
  /** Absolute paths of the manifests read, in the order read (each followed by the files it includes). */
  manifests: string[];
  /** [tool.anachron] of the nearest pyproject.toml that has one; {} when none does. */
  settings: ProjectSettings;
  /** Absolute path of the pyproject.toml the settings come from, or null. */
  settingsFile: string | null;
  /** Top-level module names the project provides, which shadow standard-library modules of those names. */
  localModules: Set<string>;
  /** Manifests named by the user or found by searching the project, when the folders at and above the file pinned no library. */
  found: ManifestsFound | null;
}

export interface ManifestsFound {
  /** `configured`: named by anachron.manifestPaths or [tool.anachron] manifests; `searched`: found in the project. */
  how: 'configured' | 'searched';
  /** Absolute paths of the manifests whose pins are taken. */
  chosen: string[];
  /** Absolute paths of the manifests the search found that pin a library, best first (the choices offered). */
  candidates: string[];
  /** Equally ranked manifests pin different versions: the one chosen is a guess the user should confirm. */
  ambiguous: boolean;
  /** Where the search looked. */
  searchRoot: string | null;
}

export interface ManifestReader {
  listDir(dir: string): string[];
  readText(file: string): string | undefined;
  /** Why readText gives nothing for `file` ("a FIFO, not a regular file"), where the reader can say. */
  whyUnreadable?(file: string): string | undefined;
  /** The path with its symlinks resolved, where the reader can tell (includes are confined by it). */
  realPath?(file: string): string;
}

export interface PinsOptions {
  /** Never look above this folder. */
  root?: string;
  /** Manifest paths in pins and problems are shown relative to this folder. */
  displayBase: string;
  reader?: ManifestReader;
  /** Pins from elsewhere (an installed interpreter: kind "installed"), ranked with the manifests' pins. */
  extraPins?: Pin[];
  /** Folders outside the project that includes may read; default: those ANACHRON_INCLUDE_PATHS names. */
  includePaths?: string[];
  /** Manifests the user named (absolute paths: the editor's anachron.manifestPaths); they win over [tool.anachron] manifests. */
  manifestPaths?: string[];
  /** The manifest search's results per folder searched, kept between calls by a caller that drops it when files change. */
  searchCache?: Map<string, ManifestCandidate[]>;
  /** false: never search the project for manifests (a corpus of many projects side by side); default true. */
  searchProject?: boolean;
}

/** The folders ANACHRON_INCLUDE_PATHS names (absolute ones only). */
export function includePathsFromEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[INCLUDE_PATHS_VARIABLE] ?? '').split(delimiter).filter((p) => p !== '' && isAbsolute(p)).map((p) => resolve(p));
}

export const diskReader: ManifestReader = {
  listDir(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  readText(file) {
    return readBoundedText(file, MAX_MANIFEST_BYTES).text;
  },
  whyUnreadable(file) {
    return readBoundedText(file, MAX_MANIFEST_BYTES).skipped;
  },
  realPath(file) {
    try {
      return realpathSync(file);
    } catch {
      return file;
    }
  },
};

/** Reads and parses each file once per call, through the reader, and only inside the project (see boundaryOf). */
class ManifestSession {
  private readonly parsed = new Map<string, ParsedAnyManifest | null>();
  private readonly unreadable = new Map<string, string>();
  private readonly boundaries = new Map<string, string[]>();
  private readonly allowedOutside: string[];
  constructor(
    readonly reader: ManifestReader,
    readonly displayBase: string,
    private readonly root: string | undefined,
    includePaths: string[],
  ) {
    this.allowedOutside = includePaths.map((p) => this.real(p));
  }

  shown(file: string): string {
    return relative(this.displayBase, file) || file;
  }

  real(file: string): string {
    return this.reader.realPath?.(file) ?? file;
  }

  /**
   * The folders a manifest found in `dir` may read in (itself and what it includes), as real paths: `dir`, the git
   * repository it lies in, the root the caller gave, and the folder paths are shown relative to (the CLI's working
   * folder, the editor's workspace folder, the MCP server's project) when `dir` lies in it and it is not the file-system root.
   */
  boundaryOf(dir: string): string[] {
    let boundary = this.boundaries.get(dir);
    if (boundary === undefined) {
      const folders = [dir];
      const repository = foldersUp(dir, undefined).find((d) => this.reader.listDir(d).includes('.git'));
      if (repository !== undefined) folders.push(repository);
      if (this.root !== undefined && isInside(this.root, dir)) folders.push(this.root);
      const base = resolve(this.displayBase);
      if (dirname(base) !== base && isInside(base, dir)) folders.push(base);
      this.boundaries.set(dir, (boundary = [...new Set(folders.map((f) => this.real(f)))]));
    }
    return boundary;
  }

  /** Why `file` may not be read from within `boundary`, or undefined when it may. */
  outside(file: string, boundary: string[]): string | undefined {
    const real = this.real(file);
    if (boundary.some((b) => isInside(b, real)) || this.allowedOutside.some((p) => isInside(p, real))) return undefined;
    const widest = boundary.reduce((a, b) => (b.length < a.length ? b : a));
    return `it lies outside the project (${widest}); name its folder in ${INCLUDE_PATHS_VARIABLE} to read it`;
  }

  /**
   * The parsed manifest (in `format`, or the one its name says), or null when it cannot be read (whyNot says why,
   * where known). `boundary`: the project folder it must lie in (default: that of its own folder).
   */
  parse(file: string, format: ManifestFormat | undefined = manifestFormatOf(file), boundary?: string[]): ParsedAnyManifest | null {
    const key = `${format}\0${file}`;
    if (!this.parsed.has(key)) {
      const refused = this.outside(file, boundary ?? this.boundaryOf(dirname(file)));
      const text = refused === undefined ? this.reader.readText(file) : undefined;
      const why = refused ?? (text === undefined ? this.reader.whyUnreadable?.(file) : undefined);
      if (why !== undefined) this.unreadable.set(file, why);
      this.parsed.set(key, text === undefined ? null : parseManifestAs(format, text, this.shown(file)));
    }
    return this.parsed.get(key)!;
  }

  /** Why `file` could not be read, where the reader or the project boundary says. */
  whyNot(file: string): string | undefined {
    return this.unreadable.get(file);
  }

  /** Manifests in `dir`, in the fixed file order. */
  manifestsIn(dir: string): string[] {
    return this.reader
      .listDir(dir)
      .filter((n) => manifestFormatOf(n) !== undefined)
      .sort(compareManifestNames)
      .map((n) => join(dir, n));
  }
}

function isInside(root: string, dir: string): boolean {
  const rel = relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `start` and the folders above it, stopping at `root` (when given) and at the file-system root. */
function foldersUp(start: string, root: string | undefined): string[] {
  const out: string[] = [];
  let dir = start;
  for (;;) {
    out.push(dir);
    const up = dirname(dir);
    if (up === dir || (root !== undefined && (dir === root || !isInside(root, up)))) break;
    dir = up;
  }
  return out;
}

/**
 * A pyproject.toml or setup.cfg of tool settings only, or a setup.py without a literal python_requires, does not
 * make its folder a project; a .python-version never does on its own (it is read with the folder's manifests).
 */
function countsAsManifest(session: ManifestSession, file: string): boolean {
  const format = manifestFormatOf(file);
  if (isCompanionFormat(format)) return false;
  if (format !== 'pyproject.toml' && format !== 'setup.cfg' && format !== 'setup.py') return true;
  return session.parse(file)?.describesProject !== false;
}

/** The uv.lock of a workspace that lists `folder` as a member, searched in the folders above it. */
function workspaceLockFor(session: ManifestSession, folder: string, root: string | undefined): string | undefined {
  const up = dirname(folder);
  if (up === folder || (root !== undefined && (folder === root || !isInside(root, up)))) return undefined;
  for (const dir of foldersUp(up, root)) {
    const lock = session.manifestsIn(dir).find((f) => manifestFormatOf(f) === 'uv.lock');
    if (!lock) continue;
    const member = relative(dir, folder).split(sep).join('/');
    if (session.parse(lock)?.workspaceMembers?.includes(member)) return lock;
  }
  return undefined;
}

/**
 * Pins for `file`: from the nearest folder at or above it (not above `root`, when given) that holds a recognised
 * manifest, with the settings of the nearest pyproject.toml that has [tool.anachron]. Manifest paths in pins and
 * problems are shown relative to `displayBase`.
 */
export function pinsForFile(file: string, options: PinsOptions): ManifestPins {
  const root = options.root ? resolve(options.root) : undefined;
  const session = new ManifestSession(options.reader ?? diskReader, options.displayBase, root, options.includePaths ?? includePathsFromEnvironment());
  const folders = foldersUp(dirname(resolve(file)), root);
  const { files, projectFolder } = nearestProject(session, folders, root);

  let settingsFile: string | null = null;
  for (const dir of folders) {
    const pyproject = session.manifestsIn(dir).find((f) => manifestFormatOf(f) === 'pyproject.toml');
    if (pyproject && session.parse(pyproject)?.settings) {
      settingsFile = pyproject;
      break;
    }
  }
  const named = options.manifestPaths?.length
    ? options.manifestPaths.map((p) => resolve(p))
    : settingsFile
      ? (session.parse(settingsFile)?.settings?.manifests ?? []).map((p) => resolve(dirname(settingsFile!), p))
      : [];
  const searchRoot = searchRootOf(session, folders, root, projectFolder);
  let found: ManifestsFound | null = null;
  let extra: NamedManifest[] = [];
  if (named.length) {
    // The user's own setting reads where it says; a project's [tool.anachron] only inside that project.
    const within = options.manifestPaths?.length ? undefined : session.boundaryOf(dirname(settingsFile!));
    extra = named.map((f) => ({ file: f, format: manifestFormatOf(f) ?? 'requirements', within }));
    found = { how: 'configured', chosen: named, candidates: searchRoot ? pinningCandidates(session, searchRoot, options.searchCache).map((c) => c.file) : [], ambiguous: false, searchRoot };
  } else if (searchRoot && options.searchProject !== false && !pinsALibrary(session, files)) {
    const candidates = pinningCandidates(session, searchRoot, options.searchCache);
    const best = candidates[0];
    if (best) {
      extra = [{ file: best.file, format: best.format, within: session.boundaryOf(searchRoot) }];
      found = { how: 'searched', chosen: [best.file], candidates: candidates.map((c) => c.file), ambiguous: false, searchRoot };
    }
  }
  const collected = collect(session, files, settingsFile, options.extraPins ?? [], extra);
  collected.localModules = localModulesFor(session.reader, dirname(resolve(file)), projectFolder);
  if (found?.how === 'searched') found.ambiguous = isAmbiguous(session, pinningCandidates(session, searchRoot!, options.searchCache), collected.manifests);
  collected.found = found;
  return collected;
}

/** The manifests of the nearest folder at or above the file that holds one that makes it a project, and that folder. */
function nearestProject(session: ManifestSession, folders: string[], root: string | undefined): { files: string[]; projectFolder: string | undefined } {
  for (const dir of folders) {
    const here = session.manifestsIn(dir);
    const own = here.filter((f) => countsAsManifest(session, f));
    if (own.length === 0) continue;
    const files = here.filter((f) => own.includes(f) || isCompanionFormat(manifestFormatOf(f)));
    if (!files.some((f) => isLockFormat(manifestFormatOf(f)))) {
      const lock = workspaceLockFor(session, dir, root);
      if (lock) files.unshift(lock);
    }
    return { files, projectFolder: dir };
  }
  return { files: [], projectFolder: undefined };
}

/** Where the project is searched for manifests: the root given (the workspace folder), else the git repository, else the project folder. */
function searchRootOf(session: ManifestSession, folders: string[], root: string | undefined, projectFolder: string | undefined): string | null {
  return root ?? folders.find((d) => session.reader.listDir(d).includes('.git')) ?? projectFolder ?? null;
}

/** The manifests a search of `file`'s project finds that pin a library (absolute paths, best first): the choices for a user picking one. */
export function searchedManifestsFor(file: string, options: PinsOptions): string[] {
  const root = options.root ? resolve(options.root) : undefined;
  const session = new ManifestSession(options.reader ?? diskReader, options.displayBase, root, options.includePaths ?? includePathsFromEnvironment());
  const folders = foldersUp(dirname(resolve(file)), root);
  const searchRoot = searchRootOf(session, folders, root, nearestProject(session, folders, root).projectFolder);
  return searchRoot ? pinningCandidates(session, searchRoot, options.searchCache).map((c) => c.file) : [];
}

interface NamedManifest {
  file: string;
  format: ManifestFormat;
  /** The project folder it must lie in; default: its own folder's. */
  within?: string[];
}

/** Whether the manifests (without their includes) pin any distribution besides Python. */
function pinsALibrary(session: ManifestSession, files: string[]): boolean {
  return files.some((f) => (session.parse(f)?.pins ?? []).some((p) => p.distribution !== 'python') || (session.parse(f)?.includes ?? []).length > 0);
}

/** The searched candidates that pin a library, best first. */
function pinningCandidates(session: ManifestSession, searchRoot: string, cache: Map<string, ManifestCandidate[]> | undefined): ManifestCandidate[] {
  let all = cache?.get(searchRoot);
  if (!all) {
    all = searchManifests(searchRoot, session.reader);
    cache?.set(searchRoot, all);
  }
  const kept = all.filter((c) => {
    const parsed = session.parse(c.file, c.format);
    return !!parsed && (parsed.pins.some((p) => p.distribution !== 'python') || (parsed.includes ?? []).length > 0);
  });
  // A file another candidate pulls in with -r/-c is part of that one: the top of a chain comes first within its rank.
  const included = new Set(kept.flatMap((c) => (session.parse(c.file, c.format)?.includes ?? []).map((inc) => resolve(dirname(c.file), inc.target))));
  return kept
    .map((c, i) => ({ c, i, inner: included.has(c.file) ? 1 : 0 }))
    .sort((a, b) => a.c.rank - b.c.rank || a.inner - b.inner || a.i - b.i)
    .map((e) => e.c);
}

/** Another candidate ranked as the chosen one, not read with it, pins different versions or other libraries. */
function isAmbiguous(session: ManifestSession, candidates: ManifestCandidate[], read: string[]): boolean {
  const [best, ...rest] = candidates;
  if (!best) return false;
  const specifiers = (c: ManifestCandidate) => new Map((session.parse(c.file, c.format)?.pins ?? []).map((p) => [p.distribution, p.specifier]));
  const chosen = specifiers(best);
  return rest
    .filter((c) => c.rank === best.rank && c.depth === best.depth && !read.includes(c.file))
    .some((c) => {
      const other = specifiers(c);
      return other.size !== chosen.size || [...other].some(([d, s]) => chosen.get(d) !== s);
    });
}

/**
 * Module names an absolute import finds in the project before the standard library: the entries of the project
 * folder (and its src/ layout), and of the file's own folder when that is no package (a script's folder comes
 * first on sys.path). A `name.py` gives `name`; an entry without a dot may be a package folder and counts too
 * (reading it as a module can only hide a finding).
 */
export function localModulesFor(reader: ManifestReader, fileFolder: string, projectFolder: string | undefined): Set<string> {
  const names = new Set<string>();
  const add = (dir: string) => {
    for (const entry of reader.listDir(dir)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.py)?$/.exec(entry);
      if (m) names.add(m[1]!);
    }
  };
  const fileEntries = reader.listDir(fileFolder);
  if (!fileEntries.includes('__init__.py')) add(fileFolder);
  if (projectFolder) {
    add(projectFolder);
    add(join(projectFolder, 'src'));
  }
  return names;
}

/** Reads the given manifests (and what they include) in the order given; settings from the first that has them. */
export function readManifests(files: string[], displayBase: string, reader: ManifestReader = diskReader, precedence?: PrecedenceStep[]): ManifestPins {
  const session = new ManifestSession(reader, displayBase, undefined, includePathsFromEnvironment());
  const settingsFile = files.find((f) => manifestFormatOf(f) === 'pyproject.toml' && session.parse(f)?.settings) ?? null;
  const result = collect(session, files, settingsFile, []);
  if (precedence) {
    const chosen = choosePins([...result.candidates.values()].flat(), precedence);
    return { ...result, pins: chosen.pins, candidates: chosen.candidates };
  }
  return result;
}

function collect(session: ManifestSession, files: string[], settingsFile: string | null, extraPins: Pin[], named: NamedManifest[] = []): ManifestPins {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const seenProblems = new Set<string>();
  const addProblems = (list: ManifestProblem[]) => {
    for (const raw of list) {
      const p = { ...raw, message: excerpt(raw.message, MAX_PROBLEM_MESSAGE) };
      const key = `${p.file}\0${p.line}\0${p.message}`;
      if (!seenProblems.has(key)) problems.push(p);
      seenProblems.add(key);
    }
  };
  const read: string[] = [];
  const visited = new Set<string>();

  /** Files pulled in with -r/-c are requirements files whatever their names, and must lie in the project of the manifest that started the chain. */
  const visit = (file: string, stack: string[], boundary: string[], via?: { from: string; line: number; option: string }, format?: ManifestFormat) => {
    if (stack.includes(file)) {
      const cycle = [...stack.slice(stack.indexOf(file)), file].map((f) => session.shown(f)).join(' → ');
      addProblems([{ file: session.shown(via!.from), line: via!.line, message: `${via!.option} ${session.shown(file)} closes a cycle of includes: ${cycle}` }]);
      return;
    }
    if (visited.has(file)) return;
    if (via && stack.length >= MAX_INCLUDE_DEPTH) {
      addProblems([{ file: session.shown(via.from), line: via.line, message: `${via.option} ${session.shown(file)} not read: includes nest deeper than ${MAX_INCLUDE_DEPTH} files` }]);
      return;
    }
    visited.add(file);
    read.push(file);
    const parsed = session.parse(file, via ? 'requirements' : format, boundary);
    if (!parsed) {
      const shown = session.shown(file);
      const why = session.whyNot(file);
      const reason = why === undefined ? '' : `: ${why}`;
      addProblems([via ? { file: session.shown(via.from), line: via.line, message: `cannot read ${shown}, included with ${via.option}${reason}` } : { file: shown, line: 1, message: `cannot read ${shown}${reason}` }]);
      return;
    }
    // Assumed versions apply from the settings file only.
    // One by one: a manifest of 150,000 lines would overflow the stack as spread arguments.
    for (const p of parsed.pins) if (p.kind !== 'assumed' || file === settingsFile) pins.push(p);
    addProblems(parsed.problems);
    for (const inc of parsed.includes ?? []) {
      visit(resolve(dirname(file), inc.target), [...stack, file], boundary, { from: file, line: inc.line, option: inc.constraint ? '-c' : '-r' });
    }
  };
  // Manifests named or found elsewhere in the project come first: the user named them, or nothing nearer pins a library.
  for (const { file, format, within } of named) visit(file, [], within ?? session.boundaryOf(dirname(file)), undefined, format);
  for (const file of files) visit(file, [], session.boundaryOf(dirname(file)));

  let settings: ProjectSettings = {};
  if (settingsFile) {
    const parsed = session.parse(settingsFile);
    settings = parsed?.settings ?? {};
    if (!visited.has(settingsFile) && parsed) {
      for (const p of parsed.pins) if (p.kind === 'assumed') pins.push(p);
      addProblems(parsed.problems);
    }
  }
  for (const p of extraPins) pins.push(p);
  const chosen = choosePins(pins, settings.precedence);
  return { pins: chosen.pins, candidates: chosen.candidates, problems, manifests: read, settings, settingsFile, localModules: new Set(), found: null };
}
