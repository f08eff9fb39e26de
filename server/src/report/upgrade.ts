// `check --upgrade-to LIB==VERSION`: what an upgrade would change, from two checks of the same files — at the pins in
// force and with the upgraded library pinned to the target. A finding at the target that the current pins do not
// have (same place, same code, same API and keyword) is new: it would break (an anachronism at the target) or warn
// (a deprecation there). Findings at the current pins that the target no longer has go away. Pure.
import type { FileCoverageEntry } from '../core/coverage.js';
import type { FindingCode } from '../core/findings.js';
import type { ReportedFinding } from './reported-finding.js';

/** The codes that mean "works at the target, but warns": the deprecation tier. Every other code breaks. */
const WARNING_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>(['deprecated-api', 'deprecated-parameter']);

export interface UpgradeStep {
  /** Normalised distribution name, as --upgrade-to gives it. */
  distribution: string;
  /** The import names the files use it under (from the coverage), e.g. ["numpy"]. */
  libraries: string[];
  /** The pins in force before, as written ("==1.24.2 (requirements.txt:1)"); empty when the files do not use it. */
  from: string[];
  to: string;
}

export interface UpgradeReport {
  steps: UpgradeStep[];
  /** New at the target and not a deprecation: what would break. */
  breaks: ReportedFinding[];
  /** New at the target and a deprecation: what would warn. */
  warns: ReportedFinding[];
  /** At the current pins, of an upgraded library, and gone at the target. */
  resolved: ReportedFinding[];
}

function key(f: ReportedFinding): string {
  return [f.file, f.line, f.column, f.code, f.api, f.parameter ?? ''].join('\u0000');
}

/**
 * The difference an upgrade makes. `targets` maps each upgraded distribution to its target version; `before` and
 * `after` are the findings and coverage of the two checks.
 */
export function upgradeReport(
  targets: ReadonlyMap<string, string>,
  before: { findings: readonly ReportedFinding[]; coverage: readonly FileCoverageEntry[] },
  after: { findings: readonly ReportedFinding[]; coverage: readonly FileCoverageEntry[] },
): UpgradeReport {
  const steps: UpgradeStep[] = [...targets].map(([distribution, to]) => {
    const entries = [...before.coverage, ...after.coverage].filter((c) => c.distribution === distribution);
    const from = before.coverage
      .filter((c) => c.distribution === distribution && c.specifier !== null)
      .map((c) => `${c.specifier}${c.pinSource ? ` (${c.pinSource})` : ''}`);
    return { distribution, libraries: [...new Set(entries.map((c) => c.library))].sort(), from: [...new Set(from)], to };
  });
  const upgraded = new Set(steps.flatMap((s) => s.libraries));
  const ofUpgraded = (fs: readonly ReportedFinding[]) => fs.filter((f) => upgraded.has(f.library));
  const beforeKeys = new Set(ofUpgraded(before.findings).map(key));
  const afterKeys = new Set(ofUpgraded(after.findings).map(key));
  const added = ofUpgraded(after.findings).filter((f) => !beforeKeys.has(key(f)));
  return {
    steps,
    breaks: added.filter((f) => !WARNING_CODES.has(f.code)),
    warns: added.filter((f) => WARNING_CODES.has(f.code)),
    resolved: ofUpgraded(before.findings).filter((f) => !afterKeys.has(key(f))),
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The heading of the text report: "upgrade numpy ==1.24.2 (requirements.txt:1) → 2.2.4". */
export function upgradeHeading(step: UpgradeStep): string {
  const name = step.libraries.length > 0 ? step.libraries.join(', ') : step.distribution;
  if (step.libraries.length === 0) return `upgrade ${name} → ${step.to}: no checked file imports it`;
  return `upgrade ${name} ${step.from.length > 0 ? step.from.join(', ') : '(unpinned)'} → ${step.to}`;
}

/** The last line: "After the upgrade: 2 would break, 1 would warn (deprecated), in 2 of 3 files; 1 finding goes away." */
export function upgradeSummary(report: UpgradeReport, fileCount: number): string {
  const files = new Set([...report.breaks, ...report.warns].map((f) => f.file)).size;
  const gone = report.resolved.length > 0 ? `; ${plural(report.resolved.length, 'finding')} at the current pins ${report.resolved.length === 1 ? 'goes' : 'go'} away` : '';
  if (report.breaks.length + report.warns.length === 0) return `After the upgrade: nothing breaks or warns in ${plural(fileCount, 'file')}${gone}.`;
  return `After the upgrade: ${report.breaks.length} would break, ${report.warns.length} would warn (deprecated), in ${files} of ${fileCount} files${gone}.`;
}
