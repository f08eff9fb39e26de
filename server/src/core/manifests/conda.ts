// conda environment files (environment.yml): `dependencies` holds conda match specs ("numpy=1.24",
// "numpy==1.24.2", "numpy>=1.21", "numpy 1.24.*", "conda-forge::numpy=1.24.2=py311h_0") and a nested `pip:` list
// of pip requirement lines.
import type { Node } from 'yaml';

// The YAML parser is loaded when an environment file is first read: most projects have none, and the language server
// starts faster without evaluating it.
let yaml: typeof import('yaml') | undefined;
const yamlModule = (): typeof import('yaml') => (yaml ??= require('yaml') as typeof import('yaml'));
import type { ManifestInclude, ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import { isValidSpecifier } from '../versions.js';
import { flowNestingPastCap } from './flow-depth.js';
import { PYTHON_DISTRIBUTION } from './python-pins.js';
import { makePin } from './requirement.js';
import { parseRequirementLines, type RequirementLine } from './requirements-txt.js';

/** "1.24*" and "1.24.*" are the same wildcard in conda; PEP 440 spells it "1.24.*". */
function wildcard(version: string): string {
  return version.replace(/\.?\*$/, '') + '.*';
}

/** One conda version constraint (no "|", no ",") → a PEP 440 clause. */
function condaClause(clause: string): string {
  const m = /^(==|!=|>=|<=|~=|>|<|=)?\s*(.*)$/.exec(clause.trim())!;
  const op = m[1] ?? '';
  const version = m[2]!;
  if (op === '' || op === '==') return version.includes('*') ? `==${wildcard(version)}` : `==${version}`;
  if (op === '=') {
    // conda's "=" is fuzzy: "=1.24" means 1.24.*. With three or more components ("=1.24.2") it names a release.
    if (version.includes('*')) return `==${wildcard(version)}`;
    return version.split('.').length >= 3 ? `==${version}` : `==${version}.*`;
  }
  return `${op}${version.replace(/\.?\*$/, '')}`;
}

/** A conda match spec → distribution name and PEP 440 specifier. */
export function condaSpec(spec: string): { name: string; specifier: string } | { error: string } {
  let text = spec.trim().replace(/^[^\s:]+::/, ''); // channel (and subdir) prefix
  let bracketVersion: string | undefined;
  text = text.replace(/\[([^\]]*)\]/, (_all, inner: string) => {
    const v = /(?:^|,)\s*version\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,]*))/.exec(inner);
    if (v) bracketVersion = (v[1] ?? v[2] ?? v[3]!).trim();
    return '';
  });
  const m = /^([A-Za-z0-9_][A-Za-z0-9._-]*)\s*(.*)$/.exec(text);
  if (!m) return { error: `cannot read a conda package spec from "${spec.trim()}"` };
  const name = m[1]!;
  let rest = (bracketVersion ?? m[2]!).trim().replace(/([<>=!~]+)\s+(?=[0-9*])/g, '$1');
  if (rest === '') return { name, specifier: '' };
  // "=1.24.2=py311h_0" and "1.24.2 py311h_0": a build string follows the version.
  if (rest.startsWith('=') && !rest.startsWith('==')) rest = '=' + rest.slice(1).split('=')[0]!;
  else rest = rest.split(/\s+/)[0]!.replace(/^(==[^=]*)=.*$/, '$1');
  if (rest.includes('|')) return { name, specifier: '' }; // alternatives have no PEP 440 spelling: any version
  const specifier = rest.split(',').filter((c) => c.trim() !== '').map(condaClause).join(',');
  if (specifier !== '' && !isValidSpecifier(specifier)) return { error: `"${m[2]!.trim()}" is not a conda version spec anachron can read for ${name}` };
  return { name, specifier };
}

/** Deeper than this is no environment file (the YAML reader recurses on it). */
export const MAX_FLOW_DEPTH = 256;

export function parseCondaEnvironment(text: string, file: string): ParsedManifest {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const includes: ManifestInclude[] = [];
  const tooDeep = flowNestingPastCap(text, MAX_FLOW_DEPTH);
  if (tooDeep !== undefined) return { pins, problems: [{ file, line: tooDeep, message: `invalid YAML: nested deeper than ${MAX_FLOW_DEPTH} levels` }], includes };
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlModule();
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: false });
  for (const e of doc.errors) {
    // The YAML reader recurses on flow nesting and reports the stack overflow as the error's message.
    const message = /Maximum call stack size exceeded/.test(e.message) ? 'nested too deep to read' : e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    problems.push({ file, line: e.linePos?.[0]?.line ?? 1, message: `invalid YAML: ${message}` });
  }
  const lineOf = (node: Node | null | undefined): number => (node?.range ? counter.linePos(node.range[0]).line : 1);
  const root = doc.contents;
  if (root === null || root === undefined) return { pins, problems, includes };
  if (!isMap(root)) {
    problems.push({ file, line: lineOf(root), message: 'an environment file must be a mapping with a "dependencies" list' });
    return { pins, problems, includes };
  }
  const deps = root.get('dependencies', true);
  if (deps === undefined || deps === null) return { pins, problems, includes };
  if (!isSeq(deps)) {
    problems.push({ file, line: lineOf(deps as Node), message: '"dependencies" must be a list' });
    return { pins, problems, includes };
  }
  for (const item of deps.items) {
    if (isScalar(item) && typeof item.value === 'string') {
      const line = lineOf(item);
      const parsed = condaSpec(item.value);
      if ('error' in parsed) problems.push({ file, line, message: parsed.error });
      else if (parsed.name.toLowerCase() === 'python') {
        // `python=3.10`: the environment's interpreter, pinned like a library (a bare `python` pins nothing).
        if (parsed.specifier !== '') pins.push(makePin(PYTHON_DISTRIBUTION, parsed.specifier, { file, line }));
      } else pins.push(makePin(parsed.name, parsed.specifier, { file, line }));
    } else if (isMap(item) && item.has('pip')) {
      const pip = item.get('pip', true);
      if (!isSeq(pip)) {
        problems.push({ file, line: lineOf(item as Node), message: '"pip" must be a list of requirements' });
        continue;
      }
      const lines: RequirementLine[] = [];
      for (const p of pip.items) {
        if (isScalar(p) && typeof p.value === 'string') lines.push({ line: lineOf(p), text: p.value.replace(/(^|\s)#.*$/, '') });
        else if (p !== null) problems.push({ file, line: lineOf(p as Node), message: 'every pip entry must be a requirement string' });
      }
      const read = parseRequirementLines(lines, file);
      for (const x of read.pins) pins.push(x);
      for (const x of read.problems) problems.push(x);
      for (const x of read.includes) includes.push(x);
    } else if (item !== null) {
      problems.push({ file, line: lineOf(item as Node), message: 'every dependency must be a package spec such as "numpy=1.24" or a "pip:" list' });
    }
  }
  return { pins, problems, includes };
}
