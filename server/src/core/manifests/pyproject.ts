// pyproject.toml: PEP 621 [project] dependencies and optional-dependencies, PEP 735 [dependency-groups] (with
// {include-group = …}), Poetry's [tool.poetry] dependencies and groups (constraints translated to PEP 440), the
// legacy uv and PDM dev-dependency lists, and anachron's own [tool.anachron] settings.
import { normalizeDistributionName } from '../library-names.js';
import type { ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import type { ProjectSettings } from '../settings.js';
import { readAnachronSettings } from './anachron-settings.js';
import { poetryToPep440 } from './poetry-constraint.js';
import { makePin, parseRequirement } from './requirement.js';
import { pythonPin } from './python-pins.js';
import { isTable, parseTomlManifest, type LocatedToml, type TomlPath, type TomlTable } from './toml.js';

export interface ParsedPyproject extends ParsedManifest {
  /** [tool.anachron], when the file has one. */
  settings?: ProjectSettings;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isTable(value)) return 'a table';
  return typeof value === 'string' ? `"${value}"` : String(value);
}

function dig(data: TomlTable, path: readonly string[]): unknown {
  let v: unknown = data;
  for (const k of path) {
    if (!isTable(v)) return undefined;
    v = v[k];
  }
  return v;
}

class Reader {
  readonly pins: Pin[] = [];
  readonly problems: ManifestProblem[] = [];
  constructor(
    readonly toml: LocatedToml,
    readonly file: string,
  ) {}

  problem(path: TomlPath, message: string): void {
    this.problems.push({ file: this.file, line: this.toml.lineOf(path), message });
  }

  /** One PEP 508 string at `path`. */
  requirement(value: unknown, path: TomlPath): void {
    if (typeof value !== 'string') {
      this.problem(path, `${path.filter((p) => typeof p === 'string').join('.')}: expected a requirement string, not ${describe(value)}`);
      return;
    }
    const line = this.toml.lineOf(path);
    const parsed = parseRequirement(value, { file: this.file, line });
    if ('error' in parsed) this.problems.push({ file: this.file, line, message: parsed.error });
    else this.pins.push(parsed);
  }

  /** An array of PEP 508 strings at `path` (absent is fine). */
  requirementList(path: readonly string[], allowIncludes = false): void {
    const value = dig(this.toml.data, path);
    if (value === undefined) return;
    if (!Array.isArray(value)) return this.problem(path, `${path.join('.')} must be an array of requirement strings, not ${describe(value)}`);
    value.forEach((item, i) => {
      if (allowIncludes && isTable(item)) return; // {include-group = …}: checked with the groups
      this.requirement(item, [...path, i]);
    });
  }

  /** A table of arrays of PEP 508 strings (optional-dependencies, PDM dev-dependencies). */
  requirementTable(path: readonly string[]): void {
    const value = dig(this.toml.data, path);
    if (value === undefined) return;
    if (!isTable(value)) return this.problem(path, `${path.join('.')} must be a table of requirement arrays, not ${describe(value)}`);
    for (const name of Object.keys(value)) this.requirementList([...path, name]);
  }

  /** PEP 735: groups of requirements that may include other groups; includes must exist and not loop. */
  dependencyGroups(): void {
    const path = ['dependency-groups'];
    const groups = dig(this.toml.data, path);
    if (groups === undefined) return;
    if (!isTable(groups)) return this.problem(path, `[dependency-groups] must be a table, not ${describe(groups)}`);
    const byNormalName = new Map<string, string>();
    for (const name of Object.keys(groups)) {
      const normal = normalizeDistributionName(name);
      if (byNormalName.has(normal)) this.problem([...path, name], `dependency group "${name}" is the same group as "${byNormalName.get(normal)}"`);
      else byNormalName.set(normal, name);
    }
    const includes = new Map<string, { target: string; index: number }[]>();
    for (const name of Object.keys(groups)) {
      this.requirementList([...path, name], true);
      const items = groups[name];
      if (!Array.isArray(items)) continue;
      const own: { target: string; index: number }[] = [];
      items.forEach((item, i) => {
        if (!isTable(item)) return;
        const keys = Object.keys(item);
        const target = item['include-group'];
        if (keys.length !== 1 || typeof target !== 'string') {
          return this.problem([...path, name, i], `dependency group "${name}": a table entry must be {include-group = "name"}`);
        }
        if (!byNormalName.has(normalizeDistributionName(target))) {
          return this.problem([...path, name, i], `dependency group "${name}" includes "${target}", which is not a group`);
        }
        own.push({ target: byNormalName.get(normalizeDistributionName(target))!, index: i });
      });
      includes.set(name, own);
    }
    // A cycle is reported once, at the include that closes it.
    const state = new Map<string, 'open' | 'done'>();
    const visit = (name: string, trail: string[]): void => {
      state.set(name, 'open');
      for (const { target, index } of includes.get(name) ?? []) {
        if (state.get(target) === 'open') {
          const cycle = [...trail.slice(trail.indexOf(target)), name, target];
          this.problem([...path, name, index], `dependency groups include each other in a cycle: ${cycle.join(' → ')}`);
        } else if (!state.has(target)) visit(target, [...trail, name]);
      }
      state.set(name, 'done');
    };
    for (const name of Object.keys(groups)) if (!state.has(name)) visit(name, []);
  }

  /** A Poetry dependency table: name = "constraint" | {version = …} | [{version = …, python = …}, …]. */
  poetryDependencies(path: readonly string[]): void {
    const deps = dig(this.toml.data, path);
    if (deps === undefined) return;
    if (!isTable(deps)) return this.problem(path, `${path.join('.')} must be a table, not ${describe(deps)}`);
    for (const [name, spec] of Object.entries(deps)) {
      if (name.toLowerCase() === 'python') {
        this.poetryPython(spec, [...path, name]);
        continue;
      }
      const entries = Array.isArray(spec) ? spec.map((s, i) => ({ spec: s as unknown, where: [...path, name, i] })) : [{ spec, where: [...path, name] }];
      for (const { spec: one, where } of entries) this.poetryEntry(name, one, where);
    }
  }

  /** Poetry's `python = "^3.9"`: the Python versions the project supports, as requires-python does. */
  private poetryPython(spec: unknown, where: TomlPath): void {
    const origin = { file: this.file, line: this.toml.lineOf(where) };
    if (typeof spec !== 'string') return this.problem(where, `python: expected a version constraint such as "^3.9", not ${describe(spec)}`);
    const translated = poetryToPep440(spec);
    if ('error' in translated) return this.problem(where, `${translated.error} for python`);
    if (translated.specifier === '') return;
    const pin = pythonPin(translated.specifier, origin);
    if ('error' in pin) this.problem(where, pin.error);
    else this.pins.push(pin);
  }

  /** PEP 621 requires-python. */
  requiresPython(path: readonly string[]): void {
    const value = dig(this.toml.data, path);
    if (value === undefined) return;
    if (typeof value !== 'string') return this.problem(path, `${path.join('.')} must be a version specifier string, not ${describe(value)}`);
    const pin = pythonPin(value, { file: this.file, line: this.toml.lineOf(path) });
    if ('error' in pin) this.problem(path, pin.error);
    else this.pins.push(pin);
  }

  private poetryEntry(name: string, spec: unknown, where: TomlPath): void {
    const origin = { file: this.file, line: this.toml.lineOf(where) };
    let constraint: unknown;
    let marker: string | undefined;
    if (typeof spec === 'string') constraint = spec;
    else if (isTable(spec)) {
      if (['git', 'path', 'url', 'file'].some((k) => k in spec) && !('version' in spec)) {
        this.pins.push(makePin(name, '', origin, 'requirement')); // a VCS, path or URL dependency: no version
        return;
      }
      constraint = spec['version'] ?? '*';
      if (typeof spec['markers'] === 'string') marker = spec['markers'];
    } else {
      this.problems.push({ ...origin, message: `${name}: expected a version constraint or a table, not ${describe(spec)}` });
      return;
    }
    if (typeof constraint !== 'string') {
      this.problems.push({ ...origin, message: `${name}: the version must be a string, not ${describe(constraint)}` });
      return;
    }
    const translated = poetryToPep440(constraint);
    if ('error' in translated) this.problems.push({ ...origin, message: `${translated.error} for ${name}` });
    else this.pins.push(makePin(name, translated.specifier, origin, 'requirement', marker));
  }
}

/** True when the document says something about a project's dependencies (not only tool configuration). */
export function pyprojectDescribesProject(data: TomlTable): boolean {
  return isTable(data['project']) || isTable(dig(data, ['tool', 'poetry'])) || isTable(data['dependency-groups']);
}

export function parsePyproject(text: string, file: string): ParsedPyproject & { describesProject: boolean } {
  const toml = parseTomlManifest(text, file);
  const r = new Reader(toml, file);
  r.requiresPython(['project', 'requires-python']);
  r.requirementList(['project', 'dependencies']);
  r.requirementTable(['project', 'optional-dependencies']);
  r.dependencyGroups();
  const poetry = dig(toml.data, ['tool', 'poetry']);
  if (isTable(poetry)) {
    r.poetryDependencies(['tool', 'poetry', 'dependencies']);
    r.poetryDependencies(['tool', 'poetry', 'dev-dependencies']);
    const groups = poetry['group'];
    if (isTable(groups)) for (const g of Object.keys(groups)) r.poetryDependencies(['tool', 'poetry', 'group', g, 'dependencies']);
  }
  r.requirementList(['tool', 'uv', 'dev-dependencies']);
  r.requirementTable(['tool', 'pdm', 'dev-dependencies']);

  const result: ParsedPyproject & { describesProject: boolean } = {
    pins: r.pins,
    problems: [...toml.problems, ...r.problems],
    // A document that does not parse (a broken table header) may well describe the project: it counts, so its problem
    // is reported (dropped without a word, the folder's other manifests or one above would silently take over).
    describesProject: pyprojectDescribesProject(toml.data) || toml.problems.length > 0,
  };
  const anachron = dig(toml.data, ['tool', 'anachron']);
  if (anachron !== undefined) {
    const { settings, problems, assumed } = readAnachronSettings(anachron, ['tool', 'anachron'], toml.lineOf, file);
    result.settings = settings;
    for (const x of problems) result.problems.push(x);
    for (const x of assumed) result.pins.push(x);
  }
  result.pins.sort((a, b) => (a.origin.line ?? 0) - (b.origin.line ?? 0));
  result.problems.sort((a, b) => a.line - b.line);
  return result;
}
