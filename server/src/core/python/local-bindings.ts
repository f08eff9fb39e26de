// Names a file binds by means other than import. Scopes are modelled for parameters only (a parameter named `np`
// means something else inside its function alone); a name bound anywhere in the file by an assignment, a
// definition or a loop counts as bound everywhere, which can only hide findings, never invent them.
import type { Node } from 'web-tree-sitter';
import { walk } from './syntax.js';
import type { TreeIndex } from './tree-index.js';

export interface LocalBindings {
  /** Names bound in any way other than a single plain `name = value` assignment. */
  boundNames: Set<string>;
  /** name -> the value nodes of its plain `name = value` assignments. */
  singleAssignments: Map<string, Node[]>;
  /** Names bound some way other than as a parameter (a subset of boundNames). */
  boundOutsideParameters: Set<string>;
  /** name -> the functions (and lambdas) that take it as a parameter: it means something else only inside them. */
  parameterScopes: Map<string, Node[]>;
}

/** Identifiers bound by a target pattern (`a`, `a, (b, *c)`, `[x, y]`); attributes and subscripts bind nothing. */
function patternNames(node: Node, out: string[]): void {
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
      for (const child of node.namedChildren) if (child) patternNames(child, out);
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
function elementwise(left: Node, right: Node): [Node, Node][] | null {
  if (left.type === 'identifier') return [[left, right]];
  if (!TUPLE_TARGETS.has(left.type) || !TUPLE_VALUES.has(right.type)) return null;
  const names = left.namedChildren.filter((n): n is Node => n !== null);
  const values = right.namedChildren.filter((n): n is Node => n !== null);
  if (names.length !== values.length || names.some((n) => n.type !== 'identifier') || values.some((v) => v.type === 'list_splat')) return null;
  return names.map((n, i) => [n, values[i]!]);
}

const PARAMETER_CONTAINERS = new Set(['parameters', 'lambda_parameters']);

const BINDING_TYPES = [
  'assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'named_expression', 'function_definition',
  'class_definition', 'as_pattern', 'global_statement', 'nonlocal_statement', 'delete_statement', 'parameters',
  'lambda_parameters', 'case_pattern', 'capture_pattern',
];

export function collectLocalBindings(index: TreeIndex): LocalBindings {
  const boundNames = new Set<string>();
  const singleAssignments = new Map<string, Node[]>();
  const parameterNames = new Set<string>();
  const parameterScopes = new Map<string, Node[]>();
  const bindAll = (target: Node | null) => {
    if (!target) return;
    const names: string[] = [];
    patternNames(target, names);
    names.forEach((n) => boundNames.add(n));
  };

  for (const node of BINDING_TYPES.flatMap((t) => index.ofType(t))) {
    switch (node.type) {
      case 'assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const pairs = left && right && right.type !== 'assignment' ? elementwise(left, right) : null;
        if (pairs) {
          for (const [name, value] of pairs) {
            const list = singleAssignments.get(name.text) ?? [];
            list.push(value);
            singleAssignments.set(name.text, list);
          }
        } else {
          bindAll(left);
        }
        if (left?.type === 'identifier' && !right) boundNames.add(left.text); // annotation only: `x: T`
        break;
      }
      case 'augmented_assignment':
        bindAll(node.childForFieldName('left'));
        break;
      case 'for_statement':
      case 'for_in_clause':
        bindAll(node.childForFieldName('left'));
        break;
      case 'named_expression':
        bindAll(node.childForFieldName('name'));
        break;
      case 'function_definition':
      case 'class_definition':
        bindAll(node.childForFieldName('name'));
        break;
      case 'as_pattern': {
        const alias = node.childForFieldName('alias');
        if (alias) walk(alias, (n) => n.type === 'identifier' && boundNames.add(n.text));
        break;
      }
      case 'global_statement':
      case 'nonlocal_statement':
      case 'delete_statement':
        bindAll(node.namedChildren.find((c) => c !== null) ?? null);
        node.namedChildren.forEach((c) => c?.type === 'identifier' && boundNames.add(c.text));
        break;
      default:
        if (PARAMETER_CONTAINERS.has(node.type)) {
          const bindParameter = (name: string) => {
            parameterNames.add(name);
            const owner = node.parent;
            if (!owner) return;
            const owners = parameterScopes.get(name) ?? [];
            owners.push(owner);
            parameterScopes.set(name, owners);
          };
          for (const param of node.namedChildren) {
            if (!param) continue;
            if (param.type === 'identifier') bindParameter(param.text);
            else {
              const name = param.childForFieldName('name');
              if (name) bindParameter(name.text);
              else param.namedChildren.forEach((c) => c?.type === 'identifier' && bindParameter(c.text));
            }
          }
        } else if (node.type === 'case_pattern' || node.type === 'capture_pattern') {
          node.namedChildren.forEach((c) => c?.type === 'identifier' && boundNames.add(c.text));
        }
    }
  }
  // A name assigned more than once is not a stable alias.
  for (const [name, values] of singleAssignments) if (values.length > 1) boundNames.add(name);
  const boundOutsideParameters = new Set(boundNames);
  parameterNames.forEach((n) => boundNames.add(n));
  return { boundNames, singleAssignments, boundOutsideParameters, parameterScopes };
}
