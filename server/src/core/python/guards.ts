// Code that expects an API to be missing and handles it is not an anachronism: imports inside
// `try: … except ImportError:` (and the handler), uses under `if hasattr(mod, "name"):` (and the other branch),
// branches selected by the library's version, and blocks that expect an exception (`with pytest.raises(…)`).
// The guarded regions are computed once per tree; a reference is then guarded when a region holds it.
import type { Node } from 'web-tree-sitter';
import { walk } from './syntax.js';
import type { TreeIndex } from './tree-index.js';

/** Expressions that read a library's version: a condition using one selects code per version. */
const READS_VERSION = /__version__|NumpyVersion|parse_version|LooseVersion|StrictVersion|version\.parse|packaging\.version|\bVersion\(|importlib\.metadata|pkg_resources|get_distribution/;

const CATCHES_MISSING_API = /\b(ImportError|ModuleNotFoundError|AttributeError|NameError|Exception|BaseException)\b/;

/** `with pytest.raises(…)`, `with assert_raises(…)`, `with self.assertRaises(…)`: the block is meant to fail. */
const EXPECTS_FAILURE = /(^|\.)(raises|assert_raises|assertRaises|assert_raises_regex|assertRaisesRegex|raises_regex)\s*\(/;

interface Region {
  start: number;
  end: number;
  /** Only references using one of these names are guarded; null guards every reference in the region. */
  names: Set<string> | null;
}

export interface GuardIndex {
  isGuarded(node: Node, segments: readonly string[]): boolean;
}

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
    const nameArg = n.childForFieldName('arguments')?.namedChildren[1];
    if (nameArg?.type === 'string') names.add(nameArg.text.replace(/^[rbuRBU]*['"]+|['"]+$/g, ''));
  });
  return names;
}

/** Names assigned from an expression that reads a library version (`NP2 = np.__version__ >= "2"`). */
function versionFlags(index: TreeIndex): Set<string> {
  const flags = new Set<string>();
  for (const n of index.ofType('assignment')) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type === 'identifier' && right && READS_VERSION.test(right.text)) flags.add(left.text);
  }
  return flags;
}

function readsVersion(condition: Node, flags: Set<string>): boolean {
  if (READS_VERSION.test(condition.text)) return true;
  if (flags.size === 0) return false;
  const words = condition.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return words.some((w) => flags.has(w));
}

const region = (node: Node, names: Set<string> | null): Region => ({ start: node.startIndex, end: node.endIndex, names });

export function buildGuardIndex(index: TreeIndex): GuardIndex {
  const regions: Region[] = [];
  const flags = versionFlags(index);

  for (const t of index.ofType('try_statement')) {
    const handlers = t.namedChildren.filter((c): c is Node => c?.type === 'except_clause' && exceptCatchesMissingApi(c));
    if (handlers.length === 0) continue;
    const body = t.childForFieldName('body');
    if (body) regions.push(region(body, null));
    for (const h of handlers) regions.push(region(h, null));
  }
  for (const w of index.ofType('with_statement')) {
    const clause = w.namedChildren.find((c) => c?.type === 'with_clause');
    const body = w.childForFieldName('body');
    if (clause && body && EXPECTS_FAILURE.test(clause.text)) regions.push(region(body, null));
  }
  const conditionals = [...index.ofType('if_statement'), ...index.ofType('elif_clause')];
  for (const s of conditionals) {
    const condition = s.childForFieldName('condition');
    if (!condition) continue;
    if (readsVersion(condition, flags)) {
      regions.push(region(s, null)); // every branch is written for specific versions
      continue;
    }
    const probed = probedAttributeNames(condition);
    if (probed.size === 0) continue;
    const consequence = s.childForFieldName('consequence');
    if (consequence) regions.push(region(consequence, probed));
    // The branch taken when the probe fails is the fallback for the other versions.
    for (const alt of s.childrenForFieldName('alternative')) if (alt) regions.push(region(alt, null));
  }
  for (const e of index.ofType('conditional_expression')) {
    const [whenTrue, condition, whenFalse] = e.namedChildren;
    if (!condition) continue;
    if (readsVersion(condition, flags)) {
      regions.push(region(e, null));
      continue;
    }
    const probed = probedAttributeNames(condition);
    if (probed.size === 0) continue;
    if (whenTrue) regions.push(region(whenTrue, probed));
    if (whenFalse) regions.push(region(whenFalse, null));
  }

  return {
    isGuarded(node, segments) {
      const start = node.startIndex;
      const end = node.endIndex;
      return regions.some((r) => r.start <= start && end <= r.end && (r.names === null || segments.some((s) => r.names!.has(s))));
    },
  };
}
