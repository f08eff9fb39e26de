// Code that expects an API to be missing and handles it is not an anachronism: imports inside
// `try: … except ImportError:` and attribute uses under `if hasattr(mod, "name"):`.
import type { Node } from 'web-tree-sitter';
import { walk } from './syntax.js';

/** Expressions that read a library's version: a condition using one selects code per version. */
const READS_VERSION = /__version__|NumpyVersion|parse_version|LooseVersion|StrictVersion|version\.parse|packaging\.version|\bVersion\(|importlib\.metadata|pkg_resources|get_distribution/;

/** Names assigned from an expression that reads a library version (`NP2 = np.__version__ >= "2"`). */
export function findVersionFlags(root: Node): Set<string> {
  const flags = new Set<string>();
  walk(root, (n) => {
    if (n.type !== 'assignment') return;
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type === 'identifier' && right && READS_VERSION.test(right.text)) flags.add(left.text);
  });
  return flags;
}

function readsVersion(condition: Node, flags: Set<string>): boolean {
  if (READS_VERSION.test(condition.text)) return true;
  let found = false;
  if (flags.size > 0) walk(condition, (n) => { if (n.type === 'identifier' && flags.has(n.text)) found = true; });
  return found;
}

const CATCHES_MISSING_API = /\b(ImportError|ModuleNotFoundError|AttributeError|NameError|Exception|BaseException)\b/;

function exceptCatchesMissingApi(clause: Node): boolean {
  // Header is everything before the clause's block: `except (ImportError, X) as e:` or a bare `except:`.
  const block = clause.namedChildren.find((c) => c?.type === 'block');
  const header = block ? clause.text.slice(0, block.startIndex - clause.startIndex) : clause.text;
  const caught = header.replace(/^except\*?/, '').replace(/:\s*$/, '').trim();
  return caught === '' || CATCHES_MISSING_API.test(caught);
}

/** String literals passed to hasattr()/getattr() in a condition. */
function probedAttributeNames(condition: Node): Set<string> {
  const names = new Set<string>();
  walk(condition, (n) => {
    if (n.type !== 'call') return;
    const fn = n.childForFieldName('function');
    if (!fn || (fn.text !== 'hasattr' && fn.text !== 'getattr')) return;
    const args = n.childForFieldName('arguments')?.namedChildren ?? [];
    const nameArg = args[1];
    if (nameArg?.type === 'string') names.add(nameArg.text.replace(/^[rbuRBU]*['"]+|['"]+$/g, ''));
  });
  return names;
}

/** `with pytest.raises(…)`, `with assert_raises(…)`, `with self.assertRaises(…)`: the block is meant to fail. */
const EXPECTS_FAILURE = /(^|\.)(raises|assert_raises|assertRaises|assert_raises_regex|assertRaisesRegex|raises_regex)\s*\(/;

function expectsFailure(withStatement: Node): boolean {
  const clause = withStatement.namedChildren.find((c) => c?.type === 'with_clause');
  return !!clause && EXPECTS_FAILURE.test(clause.text);
}

/** Whether `node`, which refers to the dotted `segments`, sits in code that anticipates their absence. */
export function isGuarded(node: Node, segments: string[], versionFlags: Set<string> = new Set()): boolean {
  let child: Node = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'with_statement' && parent.childForFieldName('body')?.id === child.id && expectsFailure(parent)) return true;
    if (parent.type === 'try_statement') {
      // The body expects the failure; a handler that catches it is the fallback for the other versions.
      const inBody = parent.childForFieldName('body')?.id === child.id;
      const inHandler = child.type === 'except_clause' && exceptCatchesMissingApi(child);
      if (inHandler || (inBody && parent.namedChildren.some((c) => c?.type === 'except_clause' && exceptCatchesMissingApi(c)))) return true;
    }
    if (parent.type === 'if_statement' || parent.type === 'elif_clause' || parent.type === 'conditional_expression') {
      const condition = parent.type === 'conditional_expression' ? parent.namedChildren[1] : parent.childForFieldName('condition');
      if (condition && condition.id !== child.id) {
        if (readsVersion(condition, versionFlags)) return true; // both branches are written for specific versions
        const probed = probedAttributeNames(condition);
        // The branch taken when the probe succeeds uses the probed name; the other branch is the fallback.
        const inFallback = child.type === 'else_clause' || child.type === 'elif_clause' || (parent.type === 'conditional_expression' && parent.namedChildren[2]?.id === child.id);
        if (probed.size > 0 && (inFallback || segments.some((s) => probed.has(s)))) return true;
      }
    }
  }
  return false;
}
