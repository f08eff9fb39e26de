// Code that expects an API to be missing and handles it is not an anachronism: imports inside
// `try: … except ImportError:` (and the handler), uses under `if hasattr(mod, "name"):` (and the other branch),
// branches selected by the library's version, and blocks that expect an exception (`with pytest.raises(…)`).
// The guarded regions are computed once per tree; a reference is then guarded when a region holds it.
import type { Node } from 'web-tree-sitter';
import { walk } from './syntax.js';
import type { TreeIndex } from './tree-index.js';

/** Expressions that read a library's version: a condition using one selects code per version. */
const READS_VERSION = /__version__|NumpyVersion|parse_version|LooseVersion|StrictVersion|version\.parse|packaging\.version|\bVersion\(|importlib\.metadata|pkg_resources|get_distribution|\bversion\.(?:version|full_version|short_version)\b|\bversion\(\s*['"]/;

/** How a reference fails when what it names is missing: the exception a handler must catch to guard it. */
export type Failure = 'module-import' | 'import' | 'attribute' | 'name' | 'call';

/** Exceptions and the failures they catch (ModuleNotFoundError only covers a missing module, not a missing name). */
const CAUGHT: [RegExp, Failure[]][] = [
  [/\b(Exception|BaseException)\b/, ['module-import', 'import', 'attribute', 'name', 'call']],
  [/\bImportError\b/, ['module-import', 'import']],
  [/\bModuleNotFoundError\b/, ['module-import']],
  [/\bAttributeError\b/, ['attribute']],
  [/\bNameError\b/, ['name']],
  [/\bTypeError\b/, ['call']],
];


/** `with pytest.raises(…)`, `with assert_raises(…)`, `with self.assertRaises(…)`: the block is meant to fail. */
const EXPECTS_FAILURE = /(^|\.)(raises|assert_raises|assertRaises|assert_raises_regex|assertRaisesRegex|raises_regex)\s*\(/;

interface Region {
  start: number;
  end: number;
  /** Only references using one of these names are guarded; null guards every reference in the region. */
  names: Set<string> | null;
  /** Only these failures are guarded (a try body guards what its handlers catch); null guards every failure. */
  failures: Set<Failure> | null;
}

export interface GuardIndex {
  isGuarded(node: Node, segments: readonly string[], failure: Failure): boolean;
}

/** The failures an except clause catches: `except (ImportError, X) as e:`; a bare `except:` catches them all. */
function caughtBy(clause: Node): Set<Failure> {
  // Header is everything before the clause's block, comments dropped (`except:  # noqa: E722`).
  const block = clause.namedChildren.find((c) => c?.type === 'block');
  const header = block ? clause.text.slice(0, block.startIndex - clause.startIndex) : clause.text;
  const caught = header.replace(/#[^\n]*/g, '').replace(/^except\*?/, '').replace(/:\s*$/, '').trim();
  if (caught === '') return new Set(['module-import', 'import', 'attribute', 'name', 'call']);
  const out = new Set<Failure>();
  for (const [pattern, failures] of CAUGHT) if (pattern.test(caught)) failures.forEach((f) => out.add(f));
  return out;
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

const region = (node: Node, names: Set<string> | null, failures: Set<Failure> | null = null): Region => ({ start: node.startIndex, end: node.endIndex, names, failures });

/** `not hasattr(…)` / `not getattr(…)`: the probe is negated, so the branches swap roles. */
function isNegated(condition: Node): boolean {
  return condition.type === 'not_operator' || /^\(*\s*not\b/.test(condition.text);
}

const EXITS = new Set(['return_statement', 'raise_statement', 'continue_statement', 'break_statement']);

/** Whether a block always leaves the enclosing code (its last statement returns, raises, continues or breaks). */
function exits(block: Node | null): boolean {
  const last = block?.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment').pop();
  return !!last && EXITS.has(last.type);
}

export function buildGuardIndex(index: TreeIndex): GuardIndex {
  const regions: Region[] = [];
  const flags = versionFlags(index);

  for (const t of index.ofType('try_statement')) {
    const handlers = t.namedChildren.filter((c): c is Node => c?.type === 'except_clause');
    const caught = new Set<Failure>();
    for (const h of handlers) caughtBy(h).forEach((f) => caught.add(f));
    if (caught.size === 0) continue;
    const body = t.childForFieldName('body');
    if (body) regions.push(region(body, null, caught));
    // A handler is the fallback for the versions where the body failed.
    for (const h of handlers) if (caughtBy(h).size > 0) regions.push(region(h, null));
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
    const negated = isNegated(condition);
    const consequence = s.childForFieldName('consequence');
    const alternatives = s.childrenForFieldName('alternative').filter((a): a is Node => a !== null);
    // The branch taken when the probe succeeds uses the probed names; the other branch is the fallback.
    if (consequence) regions.push(region(consequence, negated ? null : probed));
    for (const alt of alternatives) regions.push(region(alt, negated ? probed : null));
    // `if not hasattr(np, "x"): return fallback()` — the rest of the block runs only where the probe succeeded.
    if (negated && s.type === 'if_statement' && alternatives.length === 0 && exits(consequence) && s.parent) {
      regions.push({ start: s.endIndex, end: s.parent.endIndex, names: probed, failures: null });
    }
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
    const negated = isNegated(condition);
    if (whenTrue) regions.push(region(whenTrue, negated ? null : probed));
    if (whenFalse) regions.push(region(whenFalse, negated ? probed : null));
  }
  // `getattr(np, "trapezoid", None) or np.trapz`: the right operand is the fallback.
  for (const b of index.ofType('boolean_operator')) {
    const left = b.childForFieldName('left');
    const right = b.childForFieldName('right');
    if (left && right && probedAttributeNames(left).size > 0) regions.push(region(right, null));
  }

  return {
    isGuarded(node, segments, failure) {
      const start = node.startIndex;
      const end = node.endIndex;
      return regions.some((r) => r.start <= start && end <= r.end && (r.failures === null || r.failures.has(failure)) && (r.names === null || segments.some((s) => r.names!.has(s))));
    },
  };
}
