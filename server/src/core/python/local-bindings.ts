// Names a file binds by means other than import. Scopes are not modelled: a name bound anywhere in the file by
// an assignment, a definition, a parameter or a loop counts as bound everywhere, which can only hide findings,
// never invent them.
import type { Node } from 'web-tree-sitter';
import { walk } from './syntax.js';
import type { TreeIndex } from './tree-index.js';

export interface LocalBindings {
  /** Names bound in any way other than a single plain `name = value` assignment. */
  boundNames: Set<string>;
  /** name -> the value nodes of its plain `name = value` assignments. */
  singleAssignments: Map<string, Node[]>;
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

const PARAMETER_CONTAINERS = new Set(['parameters', 'lambda_parameters']);

const BINDING_TYPES = [
  'assignment', 'augmented_assignment', 'for_statement', 'for_in_clause', 'named_expression', 'function_definition',
  'class_definition', 'as_pattern', 'global_statement', 'nonlocal_statement', 'delete_statement', 'parameters',
  'lambda_parameters', 'case_pattern', 'capture_pattern',
];

export function collectLocalBindings(index: TreeIndex): LocalBindings {
  const boundNames = new Set<string>();
  const singleAssignments = new Map<string, Node[]>();
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
        if (left?.type === 'identifier' && right && right.type !== 'assignment') {
          const list = singleAssignments.get(left.text) ?? [];
          list.push(right);
          singleAssignments.set(left.text, list);
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
          for (const param of node.namedChildren) {
            if (!param) continue;
            if (param.type === 'identifier') boundNames.add(param.text);
            else {
              const name = param.childForFieldName('name');
              if (name) boundNames.add(name.text);
              else param.namedChildren.forEach((c) => c?.type === 'identifier' && boundNames.add(c.text));
            }
          }
        } else if (node.type === 'case_pattern' || node.type === 'capture_pattern') {
          node.namedChildren.forEach((c) => c?.type === 'identifier' && boundNames.add(c.text));
        }
    }
  }
  // A name assigned more than once is not a stable alias.
  for (const [name, values] of singleAssignments) if (values.length > 1) boundNames.add(name);
  return { boundNames, singleAssignments };
}
