// Project settings ([tool.anachron] in pyproject.toml, editor settings): plain data the checker applies.
import type { FindingCode, Severity } from './findings.js';

/** The order in which pin sources win when several state a version for one library. */
export type PrecedenceStep = 'lock' | 'exact' | 'range' | 'installed' | 'assumed' | 'bare';

export const DEFAULT_PRECEDENCE: readonly PrecedenceStep[] = ['lock', 'exact', 'range', 'installed', 'assumed', 'bare'];

export interface ProjectSettings {
  /** Only these libraries (import names) are checked; absent = every tracked library. */
  libraries?: string[];
  /** Finding codes never reported. */
  ignore?: string[];
  /** Severity per code; "off" silences it. */
  severity?: Partial<Record<FindingCode, Severity | 'off'>>;
  /** Versions to assume for libraries the manifests do not pin, by distribution name: { numpy: "1.24.2" }. */
  assumeVersions?: Record<string, string>;
  /** Pin precedence, highest first. */
  precedence?: PrecedenceStep[];
  /** Manifests to read besides those beside and above a file, relative to the pyproject.toml (requirements/base.txt). */
  manifests?: string[];
}
