// PEP 508 environment markers ("python_version < '3.12' and sys_platform != 'win32'") read and evaluated against
// what the project fixes: its Python (the versions its pins allow, each minor a possible environment) and nothing
// of the platform, which a manifest does not state. Three-valued: a marker is true, false, or undecided where it
// depends on something the project leaves open (which Python of a range, which platform, which extras). Pure.
import { satisfies, isValidVersion, isValidSpecifier } from './versions.js';

/** Variables PEP 508 defines (and the legacy dotted spellings packaging still reads), PEP 751's `extras` and `dependency_groups`. */
const VARIABLES: Record<string, string> = {
  python_version: 'python_version',
  python_full_version: 'python_full_version',
  os_name: 'os_name',
  'os.name': 'os_name',
  sys_platform: 'sys_platform',
  'sys.platform': 'sys_platform',
  platform_release: 'platform_release',
  platform_system: 'platform_system',
  platform_version: 'platform_version',
  'platform.version': 'platform_version',
  platform_machine: 'platform_machine',
  'platform.machine': 'platform_machine',
  platform_python_implementation: 'platform_python_implementation',
  'platform.python_implementation': 'platform_python_implementation',
  python_implementation: 'platform_python_implementation',
  implementation_name: 'implementation_name',
  implementation_version: 'implementation_version',
  extra: 'extra',
  extras: 'extras',
  dependency_groups: 'dependency_groups',
};

/** Markers longer than this are not read (a marker is a line of a manifest, not a document). */
export const MAX_MARKER_LENGTH = 4096;
/** Parentheses nest at most this deep: deeper is an error, never a deeper recursion. */
export const MAX_MARKER_DEPTH = 32;

type Operand = { variable: string } | { literal: string };
export type MarkerNode =
  | { kind: 'compare'; left: Operand; op: string; right: Operand }
  | { kind: 'and' | 'or'; parts: MarkerNode[] };

type Token = { kind: 'op' | 'name' | 'string' | '(' | ')' | 'and' | 'or'; text: string; at: number };

const OPERATORS = ['===', '<=', '>=', '==', '!=', '~=', '<', '>'];

function tokenize(text: string): Token[] | { error: string } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') { i++; continue; }
    if (c === '(' || c === ')') { tokens.push({ kind: c, text: c, at: i }); i++; continue; }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return { error: `unterminated string at character ${i + 1}` };
      tokens.push({ kind: 'string', text: text.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) { tokens.push({ kind: 'op', text: op, at: i }); i += op.length; continue; }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i, i + 64));
    if (!word) return { error: `unexpected "${c}" at character ${i + 1}` };
    const w = word[0];
    if (w === 'and' || w === 'or') tokens.push({ kind: w, text: w, at: i });
    else if (w === 'in') tokens.push({ kind: 'op', text: 'in', at: i });
    else if (w === 'not') {
      const rest = /^not\s+in\b/.exec(text.slice(i, i + 64));
      if (!rest) return { error: `"not" must be followed by "in" (character ${i + 1})` };
      tokens.push({ kind: 'op', text: 'not in', at: i });
      i += rest[0].length;
      continue;
    } else tokens.push({ kind: 'name', text: w, at: i });
    i += w.length;
  }
  return tokens;
}

/**
 * Reads a marker into its tree, or says why it is not PEP 508. Nesting is capped (MAX_MARKER_DEPTH) and the text's
 * length too, so what a project writes cannot make the reader recurse or work without bound.
 */
export function parseMarker(text: string): MarkerNode | { error: string } {
  if (text.length > MAX_MARKER_LENGTH) return { error: `longer than ${MAX_MARKER_LENGTH} characters` };
  const tokens = tokenize(text);
  if ('error' in tokens) return tokens;
  if (tokens.length === 0) return { error: 'empty' };
  let pos = 0;
  const fail = (what: string): { error: string } => {
    const t = tokens[pos];
    return { error: t ? `${what} at character ${t.at + 1}` : `${what} at the end` };
  };
  const operand = (): Operand | null => {
    const t = tokens[pos];
    if (!t) return null;
    if (t.kind === 'string') { pos++; return { literal: t.text }; }
    if (t.kind === 'name') {
      const variable = VARIABLES[t.text];
      if (!variable) return null;
      pos++;
      return { variable };
    }
    return null;
  };
  const expression = (depth: number): MarkerNode | { error: string } => {
    if (depth > MAX_MARKER_DEPTH) return { error: `parentheses nest deeper than ${MAX_MARKER_DEPTH}` };
    const ors: MarkerNode[] = [];
    let ands: MarkerNode[] = [];
    for (;;) {
      let node: MarkerNode | { error: string };
      if (tokens[pos]?.kind === '(') {
        pos++;
        node = expression(depth + 1);
        if ('error' in node) return node;
        if (tokens[pos]?.kind !== ')') return fail('expected ")"');
        pos++;
      } else {
        const name = tokens[pos];
        const left = operand();
        if (!left) return fail(name?.kind === 'name' ? `"${name.text.slice(0, 40)}" is no marker variable` : 'expected a marker variable or a quoted string');
        const op = tokens[pos];
        if (op?.kind !== 'op') return fail('expected a comparison operator');
        pos++;
        const right = operand();
        if (!right) return fail('expected a marker variable or a quoted string');
        if ('literal' in left && 'literal' in right) return { error: `"${left.literal.slice(0, 40)}" ${op.text} "${right.literal.slice(0, 40)}" compares two strings` };
        node = { kind: 'compare', left, op: op.text, right };
      }
      ands.push(node);
      const next = tokens[pos];
      if (next?.kind === 'and') { pos++; continue; }
      ors.push(ands.length === 1 ? ands[0]! : { kind: 'and', parts: ands });
      ands = [];
      if (next?.kind === 'or') { pos++; continue; }
      break;
    }
    return ors.length === 1 ? ors[0]! : { kind: 'or', parts: ors };
  };
  const tree = expression(0);
  if ('error' in tree) return tree;
  if (pos < tokens.length) return fail(tokens[pos]!.kind === ')' ? 'unbalanced ")"' : 'expected "and" or "or"');
  return tree;
}

/** One environment the project may run in: a Python minor ("3.11"), and its exact release when the project fixes it. */
export interface MarkerEnvironment {
  pythonVersion: string;
  pythonFullVersion: string | null;
}

/** true, false, or undecided, with the variables that left it open. */
export type MarkerOutcome = { value: boolean } | { value: 'undecided'; on: string[] };

const VERSION_VARIABLES = new Set(['python_version', 'python_full_version', 'implementation_version', 'platform_release']);

/** `left op right` on two known strings, as packaging does it: PEP 440 where both read as versions, else text. */
function compareKnown(left: string, op: string, right: string, versionVariable: boolean): boolean | 'undecided' {
  if (op === 'in') return right.includes(left);
  if (op === 'not in') return !right.includes(left);
  if (op === '===') return left === right;
  const spec = `${op}${right}`;
  if (versionVariable && isValidVersion(left) && isValidSpecifier(spec)) return satisfies(left, spec);
  if (op === '==') return left === right;
  if (op === '!=') return left !== right;
  return 'undecided';
}

/** python_full_version in a minor the project allows, its patch unknown: decided where every patch release agrees. */
function compareWithinMinor(minor: string, op: string, right: string): boolean | 'undecided' {
  if (op === 'in' || op === 'not in' || op === '===') return 'undecided';
  const spec = `${op}${right}`;
  if (!isValidSpecifier(spec)) return op === '==' ? false : op === '!=' ? true : 'undecided';
  const candidates = new Set([`${minor}.0`, `${minor}.99999`]);
  const named = /^(\d+)\.(\d+)\.(\d+)/.exec(right);
  if (named && `${named[1]}.${named[2]}` === minor) {
    const patch = Number(named[3]);
    for (const p of [patch - 1, patch, patch + 1]) if (p >= 0) candidates.add(`${minor}.${p}`);
  }
  const answers = new Set([...candidates].map((v) => satisfies(v, spec)));
  return answers.size === 1 ? [...answers][0]! : 'undecided';
}

const FLIPPED: Record<string, string> = { '<': '>', '>': '<', '<=': '>=', '>=': '<=' };

function compare(node: Extract<MarkerNode, { kind: 'compare' }>, env: MarkerEnvironment): MarkerOutcome {
  // Variable on the left: "'3.8' <= python_version" is "python_version >= '3.8'"; in/not in keep their order.
  let { left, op, right } = node;
  if ('literal' in left && 'variable' in right && FLIPPED[op]) [left, right, op] = [right, left, FLIPPED[op]!];
  const valueOf = (o: Operand): string | null => ('literal' in o ? o.literal : o.variable === 'python_version' ? env.pythonVersion : o.variable === 'python_full_version' ? env.pythonFullVersion : null);
  const l = valueOf(left);
  const r = valueOf(right);
  const variables = [left, right].flatMap((o) => ('variable' in o ? [o.variable] : []));
  if (l !== null && r !== null) {
    const got = compareKnown(l, op, r, variables.some((v) => VERSION_VARIABLES.has(v)));
    return got === 'undecided' ? { value: 'undecided', on: variables } : { value: got };
  }
  if ('variable' in left && left.variable === 'python_full_version' && 'literal' in right && (op !== 'in' && op !== 'not in')) {
    const got = compareWithinMinor(env.pythonVersion, op, right.literal);
    return got === 'undecided' ? { value: 'undecided', on: ['python_full_version'] } : { value: got };
  }
  return { value: 'undecided', on: variables.filter((v) => v !== 'python_version' && (v !== 'python_full_version' || env.pythonFullVersion === null)) };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** The marker's value in one environment (Kleene's logic: false and anything is false, true or anything is true). */
export function evaluateMarker(node: MarkerNode, env: MarkerEnvironment): MarkerOutcome {
  if (node.kind === 'compare') return compare(node, env);
  const decisive = node.kind === 'or';
  let open: string[] | null = null;
  for (const part of node.parts) {
    const got = evaluateMarker(part, env);
    if (got.value === decisive) return { value: decisive };
    if (got.value === 'undecided') open = union(open ?? [], got.on);
  }
  return open ? { value: 'undecided', on: open } : { value: !decisive };
}

/** Python 3's minors, for a project that does not say which it runs on (no marker can then tell one from another). */
export const PYTHON_3_MINORS: readonly string[] = Array.from({ length: 31 }, (_, i) => `3.${i}`);

/** The Python variables a marker reads (its tree is at most MAX_MARKER_DEPTH deep). */
function pythonVariablesOf(node: MarkerNode, into: Set<string>): Set<string> {
  if (node.kind !== 'compare') for (const part of node.parts) pythonVariablesOf(part, into);
  else for (const o of [node.left, node.right]) if ('variable' in o && o.variable.startsWith('python_')) into.add(o.variable);
  return into;
}

/** The marker over every environment given: true or false where all agree, else undecided (with what left it open). */
export function markerAcross(node: MarkerNode, envs: readonly MarkerEnvironment[]): MarkerOutcome {
  let seen: boolean | 'undecided' | null = null;
  let on: string[] = [];
  let differs = false;
  for (const env of envs) {
    const got = evaluateMarker(node, env);
    if (got.value === 'undecided') on = union(on, got.on);
    if (seen === null) seen = got.value;
    else if (seen !== got.value) differs = true;
  }
  // Different answers for different Pythons: the Python variables it reads are what the project leaves open.
  if (differs) on = union(on, [...pythonVariablesOf(node, new Set())]);
  if (differs || seen === 'undecided' || seen === null) return { value: 'undecided', on: on.length ? on : ['python_version'] };
  return { value: seen };
}
