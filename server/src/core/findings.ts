// What the checker reports. Codes are stable: users filter and suppress by them.
import type { PinOrigin } from './pins.js';
import type { SourceRange } from './source-range.js';

export type FindingCode =
  /** The API exists in some tracked version, but not in the version(s) the project pins. */
  | 'anachronistic-api'
  /** The API exists in no tracked version of the library: possibly hallucinated. */
  | 'unknown-api'
  /** The tracked versions around an untracked pinned version disagree about the API. */
  | 'unconfirmed-api'
  /** The keyword is accepted by some tracked version, but not by the pinned one(s). */
  | 'anachronistic-parameter'
  /** The keyword is accepted by no tracked version. */
  | 'unknown-parameter'
  /** More positional arguments than the pinned signature takes. */
  | 'too-many-positional';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  range: SourceRange;
  /** Import name of the library, e.g. "numpy". */
  library: string;
  /** Fully qualified public name of the API. */
  api: string;
  /** The keyword, for parameter-level findings. */
  parameter: string | null;
  /** The pin applied: the exact version ("1.24.2") or the specifier (">=1.21,<2"). */
  pin: string;
  /** The requirement as a whole: "numpy==1.24.2". */
  requirement: string;
  pinOrigin: PinOrigin;
  /** Tracked versions that do have the API (or accept the parameter). */
  availableIn: string[];
  /** A version-correct API to use instead, when the matrix knows one. */
  replacement: string | null;
}

export const ALL_CODES: readonly FindingCode[] = [
  'anachronistic-api',
  'unknown-api',
  'unconfirmed-api',
  'anachronistic-parameter',
  'unknown-parameter',
  'too-many-positional',
];
