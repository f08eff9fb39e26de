// The bundled matrices plus the user's (columns fetched from a package index, probed from an interpreter, or added
// with `anachron matrix add`): for a library in both, the user's version columns join the bundled ones (the user's
// cell wins for a version both have). The core sees one MatrixCatalog either way. The user's folders are read
// again on reopenUser(), when a column has landed.
import { existsSync } from 'node:fs';
import type { ApiHistory, DeprecationRun, LibraryMatrix, VersionCell } from '../core/api-model.js';
import { sortVersions, versionsEqual } from '../core/versions.js';
import { openMatrixCatalog, type LoadedCatalog } from './catalog.js';
import type { SqliteMatrix } from './sqlite-matrix.js';

/** One library's columns from two matrices; `user` wins where both track a version. */
export class CombinedMatrix implements LibraryMatrix {
  readonly library: string;
  readonly distribution: string;
  readonly versions: readonly string[];
  readonly userVersions: readonly string[];
  readonly importRoots?: readonly string[];
  readonly versionSeries?: boolean;
  private readonly cache = new Map<string, ApiHistory | undefined>();

  constructor(
    private readonly bundled: LibraryMatrix,
    private readonly user: LibraryMatrix,
  ) {
    this.library = bundled.library;
    this.distribution = bundled.distribution;
    this.userVersions = user.versions;
    if (bundled.importRoots) this.importRoots = bundled.importRoots;
    if (bundled.versionSeries) this.versionSeries = true;
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

  removalNote(api: string): { note: string; version: string } | null {
    return this.user.removalNote?.(api) ?? this.bundled.removalNote?.(api) ?? null;
  }

  deprecations(api: string, parameter: string | null): readonly DeprecationRun[] {
    return this.bundled.deprecations?.(api, parameter) ?? [];
  }

  hasMembers(api: string): boolean {
    return (this.user.hasMembers?.(api) ?? false) || (this.bundled.hasMembers?.(api) ?? true);
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
  /** Where a version column came from (index, file, sha256; or the interpreter), the user's before the bundled. */
  provenanceOf(library: string, version: string): Record<string, string> | undefined;
  userColumnSource(library: string, version: string): Record<string, string> | undefined;
  /** Reads the user's folders again (a column landed). */
  reopenUser(): void;
  /** Closes the user's matrices (before their files are replaced) until reopenUser(). */
  closeUser(): void;
}

function versionInfoOf(matrix: LibraryMatrix | undefined): SqliteMatrix['versionInfo'] {
  return (matrix as Partial<SqliteMatrix> | undefined)?.versionInfo ?? [];
}

/**
 * The bundled catalog, with the user's matrix folders layered on top (a later folder's columns win); every matrix
 * opened when first needed. A folder that does not exist yet is looked at again by reopenUser().
 */
export function openLayeredCatalog(bundledFolder: string, userFolders: string | readonly (string | undefined)[] | undefined, onProblem?: (problem: string) => void): LayeredCatalog {
  const bundled = openMatrixCatalog(bundledFolder, { onProblem });
  const folders = (typeof userFolders === 'string' ? [userFolders] : [...(userFolders ?? [])]).filter((f): f is string => !!f);
  // A user's broken matrix is reported like a bundled one; the bundled matrices still work. No folder (or an empty
  // one) is the usual case, not a problem.
  const openUser = (folder: string): LoadedCatalog | undefined =>
    existsSync(folder) ? openMatrixCatalog(folder, { onProblem: (p) => !p.startsWith('no matrices') && onProblem?.(`your matrices (${folder}): ${p}`) }) : undefined;
  let users = folders.map(openUser);
  const combined = new Map<string, LibraryMatrix | undefined>();
  const mineOf = (root: string): LibraryMatrix | undefined =>
    users.reduce<LibraryMatrix | undefined>((acc, u) => {
      const m = u?.forImportRoot(root);
      return acc && m ? new CombinedMatrix(acc, m) : (m ?? acc);
    }, undefined);
  const forImportRoot = (root: string): LibraryMatrix | undefined => {
    if (!combined.has(root)) {
      const base = bundled.forImportRoot(root);
      const mine = mineOf(root);
      combined.set(root, base && mine ? new CombinedMatrix(base, mine) : (mine ?? base));
    }
    return combined.get(root);
  };
  const names = () => [...new Set([...bundled.names, ...users.flatMap((u) => u?.names ?? [])])].sort();
  return {
    get names() {
      return names();
    },
    get problems() {
      return [...bundled.problems, ...users.flatMap((u, i) => (u?.problems ?? []).filter((p) => !p.startsWith('no matrices')).map((p) => `your matrices (${folders[i]}): ${p}`))];
    },
    get matrices() {
      return [...bundled.matrices, ...users.flatMap((u) => u?.matrices ?? [])];
    },
    forImportRoot,
    libraries: () => names().map(forImportRoot).filter((m): m is LibraryMatrix => m !== undefined),
    userVersionsOf: (library) => mineOf(library)?.versions ?? [],
    provenanceOf(library, version) {
      for (const u of [...users].reverse()) {
        const info = versionInfoOf(u?.forImportRoot(library)).find((v) => versionsEqual(v.version, version));
        if (info) return info.provenance;
      }
      return versionInfoOf(bundled.forImportRoot(library)).find((v) => versionsEqual(v.version, version))?.provenance;
    },
    userColumnSource(library, version) {
      for (const u of [...users].reverse()) {
        const info = versionInfoOf(u?.forImportRoot(library)).find((v) => versionsEqual(v.version, version));
        if (info) return info.provenance;
      }
      return undefined;
    },
    reopenUser() {
      // Cheap: matrices are opened lazily, so reopening costs a listing of each folder.
      users.forEach((u) => u?.close());
      users = folders.map(openUser);
      combined.clear();
    },
    closeUser() {
      users.forEach((u) => u?.close());
      users = folders.map(() => undefined);
      combined.clear();
    },
    close: () => {
      bundled.close();
      users.forEach((u) => u?.close());
    },
  };
}
