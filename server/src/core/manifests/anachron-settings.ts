// [tool.anachron] in pyproject.toml → ProjectSettings, validated: an unknown key or a bad value is a problem on
// its line and is left out; everything else still applies.
import { ALL_CODES, type FindingCode, type Severity } from '../findings.js';
import { normalizeDistributionName } from '../library-names.js';
import type { ManifestProblem, Pin } from '../pin.js';
import { DEFAULT_PRECEDENCE, type PrecedenceStep, type ProjectSettings } from '../settings.js';
import { isValidVersion } from '../versions.js';
import { makePin } from './requirement.js';
import { isTable, type TomlPath } from './toml.js';

const SEVERITIES: readonly (Severity | 'off')[] = ['error', 'warning', 'information', 'hint', 'off'];
const KEYS = ['libraries', 'ignore', 'severity', 'assume-versions', 'precedence', 'manifests'] as const;

const quoteList = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  if (typeof value === 'string') return `"${value}"`;
  return String(value);
}

/**
 * Reads the `[tool.anachron]` table. `base` is the table's own path (["tool", "anachron"]) so problems point at
 * the line of the offending key or element. `assumed` holds the assume-versions entries as pins of kind
 * "assumed", each at the line of its key.
 */
export function readAnachronSettings(
  table: unknown,
  base: TomlPath,
  lineOf: (path: TomlPath) => number,
  file: string,
): { settings: ProjectSettings; problems: ManifestProblem[]; assumed: Pin[] } {
  const settings: ProjectSettings = {};
  const problems: ManifestProblem[] = [];
  const assumed: Pin[] = [];
  const problem = (path: TomlPath, message: string) => problems.push({ file, line: lineOf([...base, ...path]), message });
  if (!isTable(table)) {
    problem([], `[${base.join('.')}] must be a table`);
    return { settings, problems, assumed };
  }

  const stringArray = (key: string, check?: (item: string, index: number) => string | null): string[] | undefined => {
    const value = table[key];
    if (!Array.isArray(value)) {
      problem([key], `${key} must be an array of strings, not ${describe(value)}`);
      return undefined;
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item !== 'string') return problem([key, i], `${key}: every entry must be a string, not ${describe(item)}`);
      const error = check?.(item, i);
      if (error) return problem([key, i], error);
      out.push(item);
    });
    return out;
  };

  for (const key of Object.keys(table)) {
    switch (key) {
      case 'libraries': {
        const libs = stringArray(key, (item) => (/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(item) ? null : `libraries: "${item}" is not an import name`));
        if (libs) settings.libraries = libs;
        break;
      }
      case 'ignore': {
        const codes = stringArray(key, (item) => ((ALL_CODES as readonly string[]).includes(item) ? null : `ignore: unknown finding code "${item}"`));
        if (codes) settings.ignore = codes;
        break;
      }
      case 'severity': {
        const value = table[key];
        if (!isTable(value)) {
          problem([key], `severity must be a table of finding code = severity, not ${describe(value)}`);
          break;
        }
        const severity: Partial<Record<FindingCode, Severity | 'off'>> = {};
        for (const [code, level] of Object.entries(value)) {
          if (!(ALL_CODES as readonly string[]).includes(code)) problem([key, code], `severity: unknown finding code "${code}"`);
          else if (typeof level !== 'string' || !(SEVERITIES as readonly string[]).includes(level)) problem([key, code], `severity.${code} must be one of ${quoteList(SEVERITIES)}, not ${describe(level)}`);
          else severity[code as FindingCode] = level as Severity | 'off';
        }
        settings.severity = severity;
        break;
      }
      case 'assume-versions': {
        const value = table[key];
        if (!isTable(value)) {
          problem([key], `assume-versions must be a table of distribution = "version", not ${describe(value)}`);
          break;
        }
        const versions: Record<string, string> = {};
        for (const [dist, version] of Object.entries(value)) {
          if (typeof version !== 'string' || !isValidVersion(version)) problem([key, dist], `assume-versions.${dist} must be a PEP 440 version such as "1.24.2", not ${describe(version)}`);
          else {
            versions[normalizeDistributionName(dist)] = version;
            assumed.push(makePin(dist, `==${version}`, { file, line: lineOf([...base, key, dist]) }, 'assumed'));
          }
        }
        settings.assumeVersions = versions;
        break;
      }
      case 'precedence': {
        const seen = new Set<string>();
        const steps = stringArray(key, (item) => {
          if (!(DEFAULT_PRECEDENCE as readonly string[]).includes(item)) return `precedence: unknown step "${item}"; known steps: ${quoteList(DEFAULT_PRECEDENCE)}`;
          if (seen.has(item)) return `precedence: "${item}" is listed twice`;
          seen.add(item);
          return null;
        });
        if (steps) settings.precedence = steps as PrecedenceStep[];
        break;
      }
      case 'manifests': {
        const paths = stringArray(key, (item) => (item.trim() === '' || item.includes('\0') ? `manifests: "${item}" is not a path` : null));
        if (paths) settings.manifests = paths;
        break;
      }
      default:
        problem([key], `unknown setting "${key}" in [${base.join('.')}]; known settings: ${quoteList(KEYS)}`);
    }
  }
  return { settings, problems, assumed };
}
