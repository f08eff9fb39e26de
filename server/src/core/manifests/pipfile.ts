// Pipfile (Pipenv): [packages] and [dev-packages] map names to "*", a PEP 440 specifier, or a table with
// `version` (and `markers`); VCS, path and URL entries name no version.
import type { ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import { isValidSpecifier } from '../versions.js';
import { pipenvPython } from './locks.js';
import { makePin } from './requirement.js';
import { isTable, parseTomlManifest } from './toml.js';

const CATEGORIES = ['packages', 'dev-packages'];

export function parsePipfile(text: string, file: string): ParsedManifest {
  const toml = parseTomlManifest(text, file);
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [...toml.problems];
  pipenvPython(toml.data['requires'], (path) => toml.lineOf(['requires', ...path]), file, pins, problems);
  for (const category of CATEGORIES) {
    const packages = toml.data[category];
    if (packages === undefined) continue;
    if (!isTable(packages)) {
      problems.push({ file, line: toml.lineOf([category]), message: `[${category}] must be a table` });
      continue;
    }
    for (const [name, spec] of Object.entries(packages)) {
      const origin = { file, line: toml.lineOf([category, name]) };
      let version: unknown = spec;
      let marker: string | undefined;
      if (isTable(spec)) {
        version = spec['version'] ?? '*';
        if (typeof spec['markers'] === 'string') marker = spec['markers'];
      }
      if (typeof version !== 'string') {
        problems.push({ ...origin, message: `${name}: expected a version specifier such as "==1.24.2" or "*"` });
        continue;
      }
      const specifier = version.trim() === '*' ? '' : version.trim();
      if (specifier !== '' && !isValidSpecifier(specifier)) {
        problems.push({ ...origin, message: `"${specifier}" is not a valid PEP 440 version specifier for ${name}` });
        continue;
      }
      pins.push(makePin(name, specifier, origin, 'requirement', marker));
    }
  }
  return { pins, problems };
}
