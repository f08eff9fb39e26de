// Who this anachron is, for reports that name their tool (SARIF): version and home from package.json.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';


export interface ToolInfo {
  name: string;
  version: string;
  /** The project's home (an https URL without a trailing slash), when package.json names a repository. */
  repositoryUrl: string | undefined;
  /** Where the rule pages live: `${rulesHelpBase}CODE.md`. */
  rulesHelpBase: string;
}

interface PackageJson {
  name?: string;
  version?: string;
  repository?: string | { url?: string };
}

function readPackageJson(): PackageJson {
  // dist/cli.js sits one folder below the package root; server/src/cli/*.ts three.
  for (const candidate of [join(__dirname, '..', 'package.json'), join(__dirname, '..', '..', '..', 'package.json')]) {
    if (!existsSync(candidate)) continue;
    try {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as PackageJson;
      if (pkg.name === 'anachron') return pkg;
    } catch {
      // not ours, or unreadable: try the next one
    }
  }
  return {};
}

/** "git+https://github.com/o/r.git", "github:o/r", "o/r" -> "https://github.com/o/r". */
export function repositoryUrlOf(pkg: PackageJson): string | undefined {
  const raw = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (raw) {
    const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(raw);
    if (shorthand) return `https://github.com/${shorthand[1]!.replace(/\.git$/, '')}`;
    const url = raw.replace(/^git\+/, '').replace(/^git:\/\//, 'https://').replace(/^ssh:\/\/git@/, 'https://').replace(/\.git$/, '');
    if (/^https?:\/\//.test(url)) return url.replace(/\/+$/, '');
  }
  return undefined;
}

export function toolInfo(): ToolInfo {
  const pkg = readPackageJson();
  const repositoryUrl = repositoryUrlOf(pkg);
  // Without a known home, point at the rule pages installed with this copy rather than at a guessed address.
  const localRules = [join(__dirname, '..', 'docs', 'rules'), join(__dirname, '..', '..', '..', 'docs', 'rules')].find((d) => existsSync(d));
  return {
    name: 'anachron',
    version: pkg.version ?? '0.0.0',
    repositoryUrl,
    rulesHelpBase: repositoryUrl ? `${repositoryUrl}/blob/main/docs/rules/` : `${pathToFileURL(localRules ?? join(__dirname, '..', 'docs', 'rules')).toString()}/`,
  };
}
