// Names a file binds by means other than import. Scopes are modelled for parameters only (a parameter named `np`
// means something else inside its function alone); a name bound anywhere in the file by an assignment, a
// definition or a loop counts as bound everywhere, which can only hide findings, never invent them.
// Each chunk's bindings are read into plain data (`bindingFacts`); `LocalBindings` joins the chunks of a file.
import type { ChunkPositions, Span } from './chunk-position.js';
import { chainParts, literalClass, walk } from './syntax.js';
import type { SyntaxCopy, SyntaxNode } from './syntax-tree.js';

/** What a plain `name = value` assigns, as far as aliases and instances care. */
export interface AssignedValue {
  /** An identifier or attribute chain (`fft = np.fft`): its segments. */
  chain: string[] | null;
  /** A call whose callee is an identifier or attribute chain (`rng = np.random.default_rng()`). */
  call: { callee: string[]; span: Span } | null;
  /** A literal's builtin class (`s = "a"`: builtins.str), whose methods the value has. */
  literal: string | null;
}

export interface BindingFacts {
  /** Names bound some way other than a single plain `name = value` assignment or a parameter. */
  bound: string[];
  /** Plain `name = value` assignments, in document order. */
  singles: { name: string; value: AssignedValue }[];
  /**
   * Parameters, with the function (or lambda) taking them: the name means something else only inside it. A null
   * scope is the block that holds the chunk (parameters standing alone there, as error recovery leaves them).
   */
  parameters: { name: string; scope: Span | null }[];
}

export interface LocalBindings {
  /** Names bound in any way other than a single plain `name = value` assignment (parameters too). */
  boundNames: { has(name: string): boolean };
  /**
   * name -> the values of its plain `name = value` assignments. Only a lone value is read as such (an alias, an
   * instance): its call span is in file offsets; of several, only their number counts.
   */
  singleAssignments: Map<string, AssignedValue[]>;
  /** Names bound some way other than as a parameter (a subset of boundNames). */
  boundOutsideParameters: Set<string>;
  /** name -> the spans (file offsets) of the functions and lambdas that take it as a parameter. */
  parameterScopes: Map<string, Span[]>;
}

/** Identifiers bound by a target pattern (`a`, `a, (b, *c)`, `[x, y]`); attributes and subscripts bind nothing. */
function patternNames(node: SyntaxNode, out: string[]): void {
  switch (node.type) {
    case 'identifier':
      out.push(node.text);
      return;
    case 'pattern_list':
    case 'tuple_pattern':
    case 'list_pattern':
    case 'list_splat_pattern':
    case 'tuple':
    case 'list':
    case 'parenthesized_expression':
    case 'list_splat':
      for (const child of node.namedChildren) patternNames(child, out);
      return;
    default:
      return;
  }
}

const TUPLE_TARGETS = new Set(['pattern_list', 'tuple_pattern', 'tuple']);
const TUPLE_VALUES = new Set(['expression_list', 'tuple']);

/**
 * `name = value`, and `a, b = x, y` taken element by element (a tuple assignment binds each name to its value);
 * null for anything else (starred targets, unpacking a single value, nested patterns).
 */
function elementwise(left: SyntaxNode, right: SyntaxNode): [SyntaxNode, SyntaxNode][] | null {
  if (left.type === 'identifier') return [[left, right]];
  if (!TUPLE_TARGETS.has(left.type) || !TUPLE_VALUES.has(right.type)) return null;
  const names = left.namedChildren;
  const values = right.namedChildren;
  if (names.length !== values.length || names.some((n) => n.type !== 'identifier') || values.some((v) => v.type === 'list_splat')) return null;
  return names.map((n, i) => [n, values[i]!]);
}

function segmentsOf(node: SyntaxNode): string[] | null {
  const parts = node.type === 'identifier' ? [node] : chainParts(node);
  return parts ? parts.map((p) => p.text) : null;
}

function assignedValue(value: SyntaxNode, positions: ChunkPositions): AssignedValue {
  let call: AssignedValue['call'] = null;
  if (value.type === 'call') {
    const fn = value.childForFieldName('function');
    const callee = fn ? segmentsOf(fn) : null;
    if (callee) call = { callee, span: positions.spanOf(value) };
  }
  return { chain: segmentsOf(value), call, literal: literalClass(value) };
}

const PARAMETER_CONTAINERS = new Set(['parameters', 'lambda_parameters']);

const BINDING_TYPES = [
  'assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'named_expression', 'function_definition',
  'class_definition', 'as_pattern', 'global_statement', 'nonlocal_statement', 'delete_statement', 'parameters',
  'lambda_parameters', 'case_pattern', 'capture_pattern',
];

export function bindingFacts(copy: SyntaxCopy, positions: ChunkPositions): BindingFacts {
  const bound: string[] = [];
  const singles: BindingFacts['singles'] = [];
  const parameters: BindingFacts['parameters'] = [];
  const bindAll = (target: SyntaxNode | null) => {
    if (target) patternNames(target, bound);
  };

  for (const node of BINDING_TYPES.flatMap((t) => copy.byType.get(t) ?? [])) {
    switch (node.type) {
      case 'assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const pairs = left && right && right.type !== 'assignment' ? elementwise(left, right) : null;
        if (pairs) {
          for (const [name, value] of pairs) singles.push({ name: name.text, value: assignedValue(value, positions) });
        } else {
          bindAll(left);
        }
        if (left?.type === 'identifier' && !right) bound.push(left.text); // annotation only: `x: T`
        break;
      }
      case 'augmented_assignment':
      case 'for_statement':
      case 'for_in_clause':
        bindAll(node.childForFieldName('left'));
        break;
      case 'named_expression':
      case 'function_definition':
      case 'class_definition':
        bindAll(node.childForFieldName('name'));
        break;
      case 'as_pattern': {
        const alias = node.childForFieldName('alias');
        if (alias) walk(alias, (n) => n.type === 'identifier' && bound.push(n.text));
        break;
      }
      case 'global_statement':
      case 'nonlocal_statement':
      case 'delete_statement':
        bindAll(node.namedChildren[0] ?? null);
        node.namedChildren.forEach((c) => c.type === 'identifier' && bound.push(c.text));
        break;
      default:
        if (PARAMETER_CONTAINERS.has(node.type)) {
          const owner = node.parent;
          const bindParameter = (name: string) => {
            if (owner) parameters.push({ name, scope: owner.parent === null ? null : positions.spanOf(owner) });
          };
          for (const param of node.namedChildren) {
            if (param.type === 'identifier') bindParameter(param.text);
            else {
              const name = param.fields ? param.childForFieldName('name') : null;
              if (name) bindParameter(name.text);
              else param.namedChildren.forEach((c) => c.type === 'identifier' && bindParameter(c.text));
            }
          }
        } else if (node.type === 'case_pattern' || node.type === 'capture_pattern') {
          node.namedChildren.forEach((c) => c.type === 'identifier' && bound.push(c.text));
        }
    }
  }
  return { bound, singles, parameters };
}

/** The bindings of a whole file, from its chunks' facts, each with its start offset and the span of its block. */
export function joinBindings(chunks: readonly { facts: BindingFacts; start: number; parent: Span }[]): LocalBindings {
  const boundOutsideParameters = new Set<string>();
  const singleAssignments = new Map<string, AssignedValue[]>();
  /** Where the chunk of a name's first plain assignment starts. */
  const firstAt = new Map<string, number>();
  const parameterScopes = new Map<string, Span[]>();
  for (const { facts, start, parent } of chunks) {
    for (const name of facts.bound) boundOutsideParameters.add(name);
    for (const { name, value } of facts.singles) {
      const list = singleAssignments.get(name);
      if (list) list.push(value);
      else {
        singleAssignments.set(name, [value]);
        firstAt.set(name, start);
      }
    }
    for (const { name, scope } of facts.parameters) {
      const owners = parameterScopes.get(name);
      const placed = scope === null ? parent : { start: scope.start + start, end: scope.end + start };
      if (owners) owners.push(placed);
      else parameterScopes.set(name, [placed]);
    }
  }
  for (const [name, values] of singleAssignments) {
    // A name assigned more than once is not a stable alias.
    if (values.length > 1) boundOutsideParameters.add(name);
    else {
      // Facts stay as read (an unchanged chunk's are reused): the placed value is a copy.
      const call = values[0]!.call;
      const by = firstAt.get(name)!;
      if (call) values[0] = { ...values[0]!, call: { callee: call.callee, span: { start: call.span.start + by, end: call.span.end + by } } };
    }
  }
  const boundNames = { has: (name: string) => boundOutsideParameters.has(name) || parameterScopes.has(name) };
  return { boundNames, singleAssignments, boundOutsideParameters, parameterScopes };
}
