// Which distributions may install a top-level module, for imports no matrix tracks (coverage asks which of them is
// pinned): the library files and distributions.toml, the columns fetched before (the user's store knows what a
// release's files held), and the rule that a distribution's "-" becomes "_".
import { normalizeDistributionName } from '../core/library-names.js';
import { bundledLibraryDefinitions } from './definitions.js';

export type DistributionsOfImport = (importRoot: string, pinned: Iterable<string>) => string[];

function bundledImportNameOf(distribution: string): string {
  try {
    return bundledLibraryDefinitions().importNameOf(distribution);
  } catch {
    // No library files beside this build (or a broken one, reported where they are read): the naming rule only.
    return normalizeDistributionName(distribution).replace(/-/g, '_');
  }
}

/** `known(root)`: distributions a column in the user's store gave that module (their import names need no guess). */
export function distributionsOfImport(known: (importRoot: string) => readonly string[] = () => []): DistributionsOfImport {
  return (importRoot, pinned) => {
    const out = [...known(importRoot)];
    for (const d of pinned) if (!out.includes(d) && bundledImportNameOf(d) === importRoot) out.push(d);
    return out;
  };
}
