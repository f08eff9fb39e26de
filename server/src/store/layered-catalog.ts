// The bundled matrices plus the ones a user built in the editor (anachron: Add Matrix Column from Interpreter):
// for a library in both, the user's version columns join the bundled ones (the user's cell wins for a version
// both have). The core sees one MatrixCatalog either way.
import { existsSync } from 'node:fs';
import type { ApiHistory, LibraryMatrix, VersionCell } from '../core/api-model.js';
import { sortVersions, versionsEqual } from '../core/versions.js';
import { openMatrixCatalog, type LoadedCatalog } from '../store/catalog.js';

/** One library's columns from two matrices; `user` wins where both track a version. */
export class CombinedMatrix implements LibraryMatrix {
  readonly library: string;
  readonly distribution: string;
  readonly versions: readonly string[];
  readonly userVersions: readonly string[];
  private readonly cache = new Map<string, ApiHistory | undefined>();

  constructor(
    private readonly bundled: LibraryMatrix,
    private readonly user: LibraryMatrix,
  ) {
    this.library = bundled.library;
    this.distribution = bundled.distribution;
    this.userVersions = user.versions;
    const fromBundle = bundled.versions.filter((v) => !user.versions.some((u) => versionsEqual(u, v)));
    this.versions = sortVersions([...fromBundle, ...user.versions]);
  }

  lookup(api: string): ApiHistory | undefined {
    if (this.cache.has(api)) return this.cache.get(api);
    const mine = this.user.lookup(api);
    const theirs = this.bundled.lookup(api);
    let history: ApiHistory | undefined;
    if (mine || theirs) {
      const cellFor = (version: string): VersionCell => {
        const own = this.user.versions.some((u) => versionsEqual(u, version));
        const source = own ? mine : theirs;
        const cell = source?.versions.find((c) => versionsEqual(c.version, version));
        return cell ?? { version, state: 'absent', kind: null, signature: null, signatureSource: null, returns: null, doc: null };
      };
      const versions = this.versions.map(cellFor);
      const newestPresent = [...versions].reverse().find((c) => c.state === 'present' && c.kind);
      history = {
        api,
        library: this.library,
        kind: newestPresent?.kind ?? (mine ?? theirs)!.kind,
        versions,
      };
    }
    this.cache.set(api, history);
    return history;
  }

  isUnresolved(api: string): boolean {
    return this.user.isUnresolved(api) || this.bundled.isUnresolved(api);
  }

  apisWithDoc(doc: string): string[] {
    return [...new Set([...this.bundled.apisWithDoc(doc), ...this.user.apisWithDoc(doc)])].sort();
  }

  /** Every API path either matrix lists (what the agent tools search), when they can list them. */
  apiPaths(): string[] {
    const list = (m: LibraryMatrix) => (m as LibraryMatrix & { apiPaths?: () => string[] }).apiPaths?.() ?? [];
    return [...new Set([...list(this.bundled), ...list(this.user)])].sort();
  }
}

export interface LayeredCatalog extends LoadedCatalog {
  /** Versions per library that come from the user's matrices. */
  userVersionsOf(library: string): readonly string[];
}

/** The bundled catalog, with the user's matrices layered on top when that folder exists; both opened lazily. */
export function openLayeredCatalog(bundledFolder: string, userFolder: string | undefined, onProblem?: (problem: string) => void): LayeredCatalog {
  const bundled = openMatrixCatalog(bundledFolder, { onProblem });
  // A user's broken matrix is reported like a bundled one; the bundled matrices still work. No folder (or an empty
  // one) is the usual case, not a problem.
  const user = userFolder && existsSync(userFolder) ? openMatrixCatalog(userFolder, { onProblem: (p) => !p.startsWith('no matrices') && onProblem?.(`your matrices (${userFolder}): ${p}`) }) : undefined;
  const combined = new Map<string, LibraryMatrix | undefined>();
  const forImportRoot = (root: string): LibraryMatrix | undefined => {
    if (!combined.has(root)) {
      const base = bundled.forImportRoot(root);
      const mine = user?.forImportRoot(root);
      combined.set(root, base && mine ? new CombinedMatrix(base, mine) : (mine ?? base));
    }
    return combined.get(root);
  };
  const names = [...new Set([...bundled.names, ...(user?.names ?? [])])].sort();
  return {
    names,
    get problems() {
      return [...bundled.problems, ...(user?.problems ?? []).filter((p) => !p.startsWith('no matrices')).map((p) => `your matrices (${userFolder}): ${p}`)];
    },
    get matrices() {
      return [...bundled.matrices, ...(user?.matrices ?? [])];
    },
    forImportRoot,
    libraries: () => names.map(forImportRoot).filter((m): m is LibraryMatrix => m !== undefined),
    userVersionsOf: (library) => user?.forImportRoot(library)?.versions ?? [],
    close: () => {
      bundled.close();
      user?.close();
    },
  };
}
