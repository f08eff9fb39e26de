// The library files (libraries/*.toml) read from disk: every stage that needs a library's names, sources or
// environments asks here (the matrix builder, the environment registry, the CLI's `libraries` listing).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { LibraryDefinitionError, parseDistributionNames, parseLibraryDefinition, type LibraryDefinition } from '../core/library-definition.js';
import { normalizeDistributionName } from '../core/library-names.js';

/** ANACHRON_LIBRARIES, else `libraries/` beside the bundle (dist/) or the source tree. */
export function defaultLibrariesFolder(): string {
  if (process.env.ANACHRON_LIBRARIES) return resolve(process.env.ANACHRON_LIBRARIES);
  const candidates = [join(__dirname, '..', 'libraries'), join(__dirname, '..', '..', 'libraries'), join(__dirname, '..', '..', '..', 'libraries')];
  return candidates.find((c) => existsSync(join(c, 'distributions.toml'))) ?? candidates[0]!;
}

function readToml(file: string): unknown {
  try {
    return parse(readFileSync(file, 'utf8'));
  } catch (e) {
    if (e instanceof TomlError) throw new LibraryDefinitionError(file, `line ${e.line}, column ${e.column}: ${e.message.split('\n')[0]}`);
    throw e;
  }
}

export class LibraryDefinitions {
  readonly all: readonly LibraryDefinition[];
  private readonly otherImportNames: ReadonlyMap<string, string>;

  constructor(all: LibraryDefinition[], otherImportNames: Map<string, string>) {
    this.all = [...all].sort((a, b) => a.name.localeCompare(b.name));
    const seen = new Map<string, string>();
    for (const d of this.all) {
      for (const dist of [d.distribution, ...d.otherDistributions]) {
        const other = seen.get(dist);
        if (other) throw new LibraryDefinitionError(`${d.name}.toml`, `distribution ${dist} is also ${other}'s`);
        seen.set(dist, d.name);
      }
    }
    this.otherImportNames = otherImportNames;
  }

  byName(name: string): LibraryDefinition | undefined {
    return this.all.find((d) => d.name === name);
  }

  /** The library a distribution name (any spelling) installs. */
  byDistribution(distribution: string): LibraryDefinition | undefined {
    const n = normalizeDistributionName(distribution);
    return this.all.find((d) => d.distribution === n || d.otherDistributions.includes(n));
  }

  /** The top-level module a distribution installs: its library file's, else distributions.toml's, else the
   *  name with "-" as "_". */
  importNameOf(distribution: string): string {
    const n = normalizeDistributionName(distribution);
    return this.byDistribution(n)?.name ?? this.otherImportNames.get(n) ?? n.replace(/-/g, '_');
  }

  /** The distribution of a library's matrix name (`sklearn` -> `scikit-learn`); the name itself when unknown. */
  distributionOf(name: string): string {
    return this.byName(name)?.distribution ?? name;
  }
}

/** Reads every `NAME.toml` of the folder and its `distributions.toml`; a file that does not parse or check
 *  throws LibraryDefinitionError naming it. */
export function readLibraryDefinitions(folder: string): LibraryDefinitions {
  if (!existsSync(folder)) throw new LibraryDefinitionError(folder, 'no libraries folder');
  const files = readdirSync(folder).filter((n) => n.endsWith('.toml') && n !== 'distributions.toml').sort();
  const all = files.map((n) => parseLibraryDefinition(readToml(join(folder, n)), join(folder, n), n.slice(0, -'.toml'.length)));
  const distFile = join(folder, 'distributions.toml');
  const others = existsSync(distFile) ? parseDistributionNames(readToml(distFile), distFile) : new Map<string, string>();
  return new LibraryDefinitions(all, others);
}

let bundled: LibraryDefinitions | undefined;

/** The definitions of the bundled libraries folder (read once). */
export function bundledLibraryDefinitions(): LibraryDefinitions {
  bundled ??= readLibraryDefinitions(defaultLibrariesFolder());
  return bundled;
}
