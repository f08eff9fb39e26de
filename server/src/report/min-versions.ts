// `anachron min-versions`: from what the checker says at each tracked version, the range of versions the code can
// run on, the usages that force its ends, and whether the declared requirement agrees. Pure: findings in, verdict out.
import { seriesSatisfies } from '../core/version-series.js';
import { allowsNoVersion, compareVersions, isValidVersion, satisfies } from '../core/versions.js';

/** One place where the code uses something that some tracked versions lack. */
export interface Usage {
  file: string;
  line: number;
  column: number;
  code: string;
  api: string;
  parameter: string | null;
}

/** A usage the library deprecates at some tracked version: it works there, but warns. */
export interface DeprecatedUsage extends Usage {
  /** What the library says to use instead, when it names something that exists there. */
  replacement: string | null;
  /** The first tracked version after it that no longer has it (or takes the keyword). */
  removedIn: string | null;
}

export interface DeclaredRequirement {
  /** As the project writes it, e.g. "numpy>=1.19". */
  requirement: string;
  /** The specifier alone, e.g. ">=1.19"; "" for a bare name. */
  specifier: string;
  /** Where it is written, e.g. "requirements.txt:1". */
  source: string;
  /** The environment marker written with it, where markers leave several declarations in force. */
  marker?: string;
}

/**
 * - ok: the declared range starts at or above the lowest tracked version that has everything used
 * - too-low: it allows a tracked version that lacks something the code uses, below that lowest version
 * - unverified: it starts between the last tracked version that lacks something and the first that has all
 * - unsatisfiable: no tracked version has everything the code uses
 * - allows-nothing: the declared range allows no version at all (`numpy>=2.0,<1.0`, `numpy<0`): nothing can be installed
 * - undeclared: the project's manifests do not name the library
 */
export type DeclaredVerdict = 'ok' | 'too-low' | 'unverified' | 'unsatisfiable' | 'allows-nothing' | 'undeclared';

export interface UsageRange extends Usage {
  /** Tracked versions at which this usage works. */
  worksIn: string[];
}

export interface LibraryRequirement {
  library: string;
  distribution: string;
  trackedVersions: string[];
  /** Files (as shown to the user) that use the library and share this declaration. */
  files: string[];
  /** Lowest tracked version with every API and keyword the code uses; null when no tracked version has them all. */
  minimum: string | null;
  /** The tracked version just below `minimum`, which lacks something; null when `minimum` is the oldest tracked. */
  failsBelowMinimum: string | null;
  /** What `failsBelowMinimum` lacks: the usages that force the minimum up. */
  minimumForcedBy: Usage[];
  /** Highest tracked version with everything; below the newest tracked when something was removed. */
  maximum: string | null;
  /** The tracked version just above `maximum`, which lacks something; null when `maximum` is the newest tracked. */
  failsAboveMaximum: string | null;
  /** What `failsAboveMaximum` lacks: the usages that force the maximum down. */
  maximumForcedBy: Usage[];
  /** Every tracked version with everything the code uses. */
  compatibleVersions: string[];
  /** Every usage that some tracked version lacks, with the versions where it works. */
  usages: UsageRange[];
  declared: (DeclaredRequirement & { lowerBound: string | null }) | null;
  verdict: DeclaredVerdict;
  /** Tracked versions the declared range allows that lack something the code uses. */
  declaredAllowsFailing: string[];
  /**
   * Usages the library deprecates at versions the code runs on (compatible ones), with those versions: what an upgrade
   * within the range would warn about, and what to use instead.
   */
  deprecations: (DeprecatedUsage & { deprecatedIn: string[] })[];
}

const CLAUSE = /^\s*(~=|===|==|!=|<=|>=|<|>)\s*(\S+?)\s*$/;

/**
 * The lowest version a PEP 440 specifier names as its start ("1.19" for ">=1.19,<2", "1.24" for "==1.24.*"),
 * or null when it has no lower bound (a bare name, "<2", "!=1.0"). With several, the highest wins.
 */
export function lowerBoundOf(specifier: string): string | null {
  let bound: string | null = null;
  for (const clause of specifier.split(',')) {
    const m = CLAUSE.exec(clause);
    if (!m) continue;
    const op = m[1]!;
    if (op === '!=' || op === '<' || op === '<=') continue;
    const version = m[2]!.replace(/\.\*$/, '');
    if (!isValidVersion(version)) continue;
    if (bound === null || compareVersions(version, bound) > 0) bound = version;
  }
  return bound;
}

function usageKey(u: Usage): string {
  return [u.file, u.line, u.column, u.code, u.api, u.parameter ?? ''].join('\u0000');
}

function byPlace(a: Usage, b: Usage): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.api.localeCompare(b.api);
}

export interface RequirementInput {
  library: string;
  distribution: string;
  /** Tracked versions, ascending. */
  versions: readonly string[];
  /** What each tracked version lacks of what the code uses (absent = nothing). */
  failuresAt: ReadonlyMap<string, readonly Usage[]>;
  /** What the library deprecates of what the code uses, per tracked version (absent = nothing). */
  deprecatedAt?: ReadonlyMap<string, readonly DeprecatedUsage[]>;
  files: string[];
  declared: DeclaredRequirement | null;
  /** Each tracked version stands for a release series (Python's 3.9 is every 3.9.x): a range allows a series it meets. */
  versionSeries?: boolean;
}

export function computeRequirement(input: RequirementInput): LibraryRequirement {
  const versions = [...input.versions];
  const failing = (v: string) => (input.failuresAt.get(v)?.length ?? 0) > 0;
  const compatible = versions.filter((v) => !failing(v));
  const minimum = compatible[0] ?? null;
  const maximum = compatible[compatible.length - 1] ?? null;
  const minIndex = minimum === null ? -1 : versions.indexOf(minimum);
  const maxIndex = maximum === null ? -1 : versions.indexOf(maximum);
  const failsBelowMinimum = minIndex > 0 ? versions[minIndex - 1]! : null;
  const failsAboveMaximum = maxIndex >= 0 && maxIndex < versions.length - 1 ? versions[maxIndex + 1]! : null;
  const sorted = (v: string | null) => (v === null ? [] : [...(input.failuresAt.get(v) ?? [])].sort(byPlace));

  const usages = new Map<string, UsageRange>();
  for (const v of versions) {
    for (const u of input.failuresAt.get(v) ?? []) {
      const key = usageKey(u);
      if (!usages.has(key)) usages.set(key, { ...u, worksIn: [] });
    }
  }
  for (const [key, usage] of usages) {
    usage.worksIn = versions.filter((v) => !(input.failuresAt.get(v) ?? []).some((u) => usageKey(u) === key));
  }

  const declared = input.declared ? { ...input.declared, lowerBound: lowerBoundOf(input.declared.specifier) } : null;
  const allows = (v: string, specifier: string) => (input.versionSeries ? seriesSatisfies(v, specifier) : satisfies(v, specifier));
  const allowsFailing = declared ? versions.filter((v) => failing(v) && allows(v, declared.specifier)) : [];
  let verdict: DeclaredVerdict;
  if (!declared) verdict = 'undeclared';
  else if (allowsNoVersion(declared.specifier)) verdict = 'allows-nothing';
  else if (minimum === null) verdict = 'unsatisfiable';
  else if (allowsFailing.some((v) => compareVersions(v, minimum) < 0)) verdict = 'too-low';
  else if (failsBelowMinimum !== null && (declared.lowerBound === null || compareVersions(declared.lowerBound, minimum) < 0)) verdict = 'unverified';
  else verdict = 'ok';

  const deprecations = new Map<string, DeprecatedUsage & { deprecatedIn: string[] }>();
  for (const v of compatible) {
    for (const u of input.deprecatedAt?.get(v) ?? []) {
      const key = usageKey(u);
      const entry = deprecations.get(key) ?? { ...u, deprecatedIn: [] };
      entry.deprecatedIn.push(v);
      // The removal the newest deprecated version names (the run ends there).
      entry.removedIn = u.removedIn;
      deprecations.set(key, entry);
    }
  }

  return {
    library: input.library,
    distribution: input.distribution,
    trackedVersions: versions,
    files: [...input.files].sort(),
    minimum,
    failsBelowMinimum,
    minimumForcedBy: sorted(failsBelowMinimum),
    maximum,
    failsAboveMaximum,
    maximumForcedBy: sorted(failsAboveMaximum),
    compatibleVersions: compatible,
    usages: [...usages.values()].sort(byPlace),
    declared,
    verdict,
    declaredAllowsFailing: allowsFailing,
    deprecations: [...deprecations.values()].sort(byPlace),
  };
}

/** Whether the verdict means the declared requirement is wrong (the command then exits with 1). */
export function declaredBoundIsWrong(r: LibraryRequirement): boolean {
  return r.verdict === 'too-low' || r.verdict === 'unsatisfiable' || r.verdict === 'allows-nothing';
}

function describeUsage(u: Usage): string {
  const what = u.parameter !== null ? `\`${u.api}(${u.parameter}=…)\`` : `\`${u.api}\``;
  return `${u.file}:${u.line}:${u.column}: ${what}`;
}

function list(usages: Usage[], indent: string): string[] {
  return usages.map((u) => `${indent}${describeUsage(u)}`);
}

/** The text report for one library: what the code needs, what forces it, what the project declares. */
export function formatRequirementText(r: LibraryRequirement): string[] {
  const lines: string[] = [];
  const files = `${r.files.length} file${r.files.length === 1 ? '' : 's'}`;
  lines.push(`${r.library} (tracked: ${r.trackedVersions.join(', ')}; used in ${files})`);
  if (r.minimum === null) {
    lines.push(`  no tracked version of ${r.distribution} has everything the code uses:`);
    for (const u of r.usages) lines.push(`    ${describeUsage(u)} works in ${u.worksIn.length ? `${r.distribution} ${u.worksIn.join(', ')}` : 'no tracked version'}`);
  } else {
    if (r.failsBelowMinimum === null) {
      lines.push(`  lowest version: ${r.minimum} (the oldest tracked; everything the code uses is there)`);
    } else {
      lines.push(`  lowest version: ${r.minimum}, forced by what ${r.distribution} ${r.failsBelowMinimum} lacks:`);
      lines.push(...list(r.minimumForcedBy, '    '));
    }
    if (r.failsAboveMaximum !== null) {
      lines.push(`  highest version: ${r.maximum}, forced by what ${r.distribution} ${r.failsAboveMaximum} lacks:`);
      lines.push(...list(r.maximumForcedBy, '    '));
    }
    const gaps = r.trackedVersions.filter((v) => !r.compatibleVersions.includes(v) && compareVersions(v, r.minimum!) > 0 && compareVersions(v, r.maximum!) < 0);
    if (gaps.length > 0) lines.push(`  but not ${gaps.join(', ')}, which lack${gaps.length === 1 ? 's' : ''} something the code uses`);
  }
  const d = r.declared;
  const where = d ? `${d.requirement} (${d.source})` : '';
  switch (r.verdict) {
    case 'undeclared':
      lines.push(`  declared: nothing (no manifest names ${r.distribution})`);
      break;
    case 'ok':
      lines.push(`  declared: ${where}: ok`);
      break;
    case 'unverified':
      lines.push(
        `  declared: ${where}: cannot tell; ${r.distribution} ${r.failsBelowMinimum} lacks something the code uses and ${r.minimum} has it all, ` +
          `and the versions in between are not tracked`,
      );
      break;
    case 'too-low': {
      const below = r.declaredAllowsFailing.filter((v) => compareVersions(v, r.minimum!) < 0);
      const bound = d!.lowerBound === null ? 'no lower bound' : `lower bound ${d!.lowerBound}`;
      const forcing = r.minimumForcedBy[0];
      const forced = forcing
        ? ` — \`${forcing.parameter !== null ? `${forcing.api}(${forcing.parameter}=…)` : forcing.api}\`${r.minimumForcedBy.length > 1 ? ` and ${r.minimumForcedBy.length - 1} more` : ''} force${r.minimumForcedBy.length > 1 ? '' : 's'} ${r.minimum}`
        : '';
      lines.push(`  declared: ${where}: TOO LOW (${bound})${forced}; it allows ${r.distribution} ${below.join(', ')}, which lack${below.length === 1 ? 's' : ''} what the code uses; require ${r.distribution}>=${r.minimum}`);
      break;
    }
    case 'unsatisfiable':
      lines.push(`  declared: ${where}: cannot be right, since no tracked version has everything the code uses`);
      break;
    case 'allows-nothing':
      lines.push(`  declared: ${where}: ALLOWS NO VERSION AT ALL, so nothing can be installed${r.minimum === null ? '' : `; require ${r.distribution}>=${r.minimum}`}`);
      break;
  }
  if (r.deprecations.length > 0) {
    lines.push(`  deprecated where it runs (it warns there; plan the change before upgrading):`);
    for (const u of r.deprecations) {
      const at = u.deprecatedIn.length === 1 ? u.deprecatedIn[0]! : `${u.deprecatedIn[0]}–${u.deprecatedIn[u.deprecatedIn.length - 1]}`;
      const gone = u.removedIn ? `, gone in ${u.removedIn}` : '';
      const instead = u.replacement ? `; use \`${u.parameter !== null ? `${u.replacement}=` : u.replacement}\`` : '';
      lines.push(`    ${describeUsage(u)} deprecated in ${r.distribution} ${at}${gone}${instead}`);
    }
  }
  const newer = r.maximum === null ? [] : r.declaredAllowsFailing.filter((v) => compareVersions(v, r.maximum!) > 0);
  if (r.verdict !== 'unsatisfiable' && newer.length > 0) {
    lines.push(`  note: the declared range also allows ${r.distribution} ${newer.join(', ')}, which lack${newer.length === 1 ? 's' : ''} something the code uses`);
  }
  return lines;
}
