// What a pin is: a library, the versions a manifest (or the command line, an interpreter, a setting) allows, and where
// it was written; and what reading a manifest gives. Plain data (core/pins.ts decides between pins).

export interface PinOrigin {
  /** Manifest path as the user should see it (relative where possible), or "command line". */
  file: string;
  /** 1-based line in the manifest; null for pins that do not come from a file. */
  line: number | null;
}

/** Where a pin comes from, which decides precedence: lock > exact requirement > range > installed > bare name. */
export type PinKind = 'lock' | 'requirement' | 'installed' | 'assumed';

export interface Pin {
  /** Normalised distribution name (PEP 503). */
  distribution: string;
  /** Lock files and installed interpreters name exact versions; requirements may be exact, ranges or bare. */
  kind?: PinKind;
  /** The specifier as written, e.g. "==1.24.2" or ">=1.21,<2" (Poetry and conda constraints in PEP 440 form). */
  specifier: string;
  /** The single version the specifier allows, when it is an exact pin ("==1.24.2"); null otherwise. */
  exactVersion: string | null;
  origin: PinOrigin;
  /** The environment marker written with the pin ("python_version < '3.9'"), evaluated by choosePins (core/markers.ts). */
  marker?: string;
  /**
   * Set by choosePins on a pin whose marker the project's Python and platform do not decide: what it depends on
   * ("python_version", "sys_platform", "extra"; "marker" for one that cannot be read).
   */
  undecided?: string[];
  /**
   * Set by choosePins on the winning pin: the other pins of the distribution that apply in some environment the
   * project allows, where markers could not decide between them. The code is checked under each.
   */
  alternatives?: Pin[];
}

export interface ManifestProblem {
  file: string;
  line: number;
  message: string;
}

/** A file a manifest pulls in: `-r other.txt` (constraint: false) or `-c constraints.txt` (constraint: true). */
export interface ManifestInclude {
  /** The path as written, relative to the including file's folder. */
  target: string;
  constraint: boolean;
  /** 1-based line of the include. */
  line: number;
}

export interface ParsedManifest {
  pins: Pin[];
  problems: ManifestProblem[];
  /** Files pulled in (-r, -c, setup.cfg "file:"), for the caller to read. */
  includes?: ManifestInclude[];
  /** False when the file holds no dependency information at all (a pyproject.toml or setup.cfg of tool settings). */
  describesProject?: boolean;
  /** uv.lock: folders, relative to the lock's folder, of the workspace members it was locked for. */
  workspaceMembers?: string[];
}

export function describeOrigin(origin: PinOrigin): string {
  return origin.line === null ? origin.file : `${origin.file}:${origin.line}`;
}
