// What the checker reports. Codes are stable: users filter and suppress by them. Each code is one module in rules/
// (its metadata, severity, message and page); this module names the shapes everyone else uses.
import { describeOrigin } from './pin.js';
import type { Finding } from './rules/index.js';

export { ALL_CODES, fullMessage, type Finding, type FindingCode } from './rules/index.js';
export type { Severity } from './rules/rule.js';

/** What a finding says beyond where it is and what it is: the facts every output carries (diagnostic data, JSON, SARIF). */
export interface FindingData {
  library: string;
  api: string;
  parameter: string | null;
  pin: string;
  requirement: string;
  /** Where the pin was written, as text: "requirements.txt:3", "command line". */
  pinSource: string;
  availableIn: string[];
  replacement: string | null;
}

export function findingData(f: Finding): FindingData {
  return {
    library: f.library,
    api: f.api,
    parameter: f.parameter,
    pin: f.pin,
    requirement: f.requirement,
    pinSource: describeOrigin(f.pinOrigin),
    availableIn: f.availableIn,
    replacement: f.replacement,
  };
}
