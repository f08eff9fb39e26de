// Finds every place where a Python file reaches into a library: imports, attribute chains rooted at an imported
// name, calls with their keywords, and names that a star import brings in. The output is plain data; deciding
// which libraries are tracked and what is wrong with a reference is the checker's job.
//
// Two steps, so that an edit re-reads only the chunks it changed (chunks.ts): `referenceFacts` here reads one chunk's
// imports and uses as plain data, relative to the chunk; `linkReferences` (link-references.ts) resolves the uses of
// every chunk of a file against the names the whole file binds, and places them in the file.
import type { SourceRange } from '../source-range.js';
import type { ChunkPositions, Span } from './chunk-position.js';
import type { Failure } from './guards.js';
import { chainParts, dottedParts, literalClass, splitAttributeChain } from './syntax.js';

/** The most segments of an attribute chain that are checked (real API paths have under 15). */
export const MAX_CHAIN_SEGMENTS = 64;
import type { SyntaxCopy, SyntaxNode } from './syntax-tree.js';

export interface PathPrefix {
  /** Fully qualified dotted path, e.g. "numpy.linalg". */
  path: string;
  /** Where this prefix is written (from the start of the reference to the end of its last segment). */
  range: SourceRange;
}

export interface KeywordArgument {
  name: string;
  range: SourceRange;
}

export interface CallSite {
  keywords: KeywordArgument[];
  positionalCount: number;
  /** `*args` or `**kwargs` in the call: arity and the full keyword set are not known statically. */
  hasUnpacking: boolean;
  range: SourceRange;
}

export type ReferenceOrigin = 'import' | 'attribute' | 'name' | 'star' | 'instance';

/** An attribute used on a value a library call produced: `rng = np.random.default_rng(); rng.integers(…)`. */
export interface InstanceReceiver {
  /** The callee that produced the value: a class (instantiation) or a function whose return type the matrix records. */
  producer: string;
  /** The attribute chain used on the value, e.g. [integers]. */
  members: { name: string; range: SourceRange }[];
}

export interface ApiReference {
  /** Every dotted prefix of the reference, shortest first; the last one is the whole reference. */
  prefixes: PathPrefix[];
  /** Index of the first prefix to check for existence; the ones before were checked where the name was bound. */
  firstToCheck: number;
  origin: ReferenceOrigin;
  call: CallSite | null;
  /** Inside a try/except that catches the failure, or under a hasattr() test for it: a deliberate fallback. */
  guarded: boolean;
  /**
   * The first prefixes, this many, are guarded though the whole reference is not: a from-import's module under
   * `except ModuleNotFoundError:` (a missing module raises it; a missing name in a present module raises ImportError).
   */
  guardedPrefixes?: number;
  /** The call's arguments are guarded (`except TypeError`, version branches): no parameter-level findings. */
  callGuarded?: boolean;
  /** For origin "instance": the value's producer and the members used on it (prefixes are then empty). */
  receiver?: InstanceReceiver;
  /**
   * Rooted at a name the file never binds, taken as Python's builtin of that name (`zip`, `ExceptionGroup`,
   * `str.removeprefix`): a name the matrix does not know is the file's business (a star import, a name injected at
   * run time), not a hallucinated API.
   */
  builtin?: boolean;
}

/** A part of a chain or import as written: its text and where. */
interface Segment {
  text: string;
  range: SourceRange;
}

/** One import statement of a chunk. */
export interface ImportFact {
  statement: 'import' | 'from';
  span: Span;
  /** The references it makes, in order: prefixes, and what guarding them would take. */
  refs: { prefixes: PathPrefix[]; segments: string[]; failure: Failure; moduleLength?: number }[];
  /** Names it binds, in order. */
  bindings: { name: string; path: string }[];
  /** The module of a `from … import *`. */
  star: string | null;
}

/** A maximal attribute chain: rooted at a name (`np.linalg.norm`) or at a call's result (`np.zeros(3).tostring`). */
export interface AttributeUse {
  span: Span;
  call: CallSite | null;
  /** Root name first, for a chain rooted at a name. */
  parts: Segment[] | null;
  /** For a chain rooted at a call: the callee's segments, the call's span, and the members used on its result. */
  onCall: { callee: string[]; span: Span; members: Segment[] } | null;
  /** For a chain rooted at a literal (`"a".removeprefix`): the literal's builtin class and the members used on it. */
  onLiteral?: { producer: string; members: Segment[] };
}

/** A name read as a value outside an attribute chain (`trapz(…)`, or anything a star import may bring). */
export interface NameUse {
  name: Segment;
  span: Span;
  call: CallSite | null;
}

export interface ReferenceFacts {
  imports: ImportFact[];
  attributes: AttributeUse[];
  names: NameUse[];
  /** Attribute chains assigned to (`np.trapezoid = np.trapz`): the file provides these names itself. */
  polyfills: { parts: string[]; span: Span }[];
}

function prefixesOfDotted(positions: ChunkPositions, parts: SyntaxNode[], basePath: string[] = [], baseStart?: SyntaxNode): PathPrefix[] {
  const start = baseStart ?? parts[0]!;
  return parts.map((part, i) => ({
    path: [...basePath, ...parts.slice(0, i + 1).map((p) => p.text)].join('.'),
    range: positions.rangeBetween(start, part),
  }));
}

function importFact(node: SyntaxNode, positions: ChunkPositions): ImportFact | null {
  const fact: ImportFact = { statement: node.type === 'import_statement' ? 'import' : 'from', span: positions.spanOf(node), refs: [], bindings: [], star: null };
  if (node.type === 'import_statement') {
    for (const item of node.namedChildren) {
      const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
      if (!dotted || dotted.type !== 'dotted_name') continue;
      const parts = dottedParts(dotted);
      if (parts.length === 0) continue;
      fact.refs.push({ prefixes: prefixesOfDotted(positions, parts), segments: parts.map((p) => p.text), failure: 'module-import' });
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
      if (alias) fact.bindings.push({ name: alias.text, path: parts.map((p) => p.text).join('.') });
      else fact.bindings.push({ name: parts[0]!.text, path: parts[0]!.text });
    }
    return fact;
  }
  const moduleNode = node.childForFieldName('module_name');
  if (!moduleNode || moduleNode.type !== 'dotted_name') return null; // relative imports stay inside the project
  const moduleParts = dottedParts(moduleNode);
  const modulePath = moduleParts.map((p) => p.text);
  // Each imported name is checked with its module, so a missing module is reported once (deduplicated by
  // position) and not again for every name imported from it.
  const wildcard = node.namedChildren.some((c) => c.type === 'wildcard_import');
  if (wildcard) fact.refs.push({ prefixes: prefixesOfDotted(positions, moduleParts), segments: modulePath, failure: 'module-import' });
  for (const item of node.childrenForFieldName('name')) {
    const dotted = item.type === 'aliased_import' ? item.childForFieldName('name') : item;
    if (!dotted || dotted.type !== 'dotted_name') continue;
    const parts = dottedParts(dotted);
    const prefixes = prefixesOfDotted(positions, parts, modulePath);
    fact.refs.push({ prefixes: [...prefixesOfDotted(positions, moduleParts), ...prefixes], segments: [...modulePath, ...parts.map((p) => p.text)], failure: 'import', moduleLength: moduleParts.length });
    const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
    fact.bindings.push({ name: (alias ?? parts[parts.length - 1]!).text, path: prefixes[prefixes.length - 1]!.path });
  }
  if (wildcard) fact.star = modulePath.join('.');
  return fact;
}

function callSiteOf(call: SyntaxNode, positions: ChunkPositions): CallSite {
  const args = call.childForFieldName('arguments');
  const keywords: KeywordArgument[] = [];
  let positionalCount = 0;
  let hasUnpacking = false;
  if (args && args.type === 'argument_list') {
    for (const arg of args.namedChildren) {
      if (arg.type === 'comment' || arg.type === 'line_continuation') continue;
      if (arg.type === 'keyword_argument') {
        const name = arg.childForFieldName('name');
        if (name) keywords.push({ name: name.text, range: positions.rangeOf(name) });
      } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') {
        hasUnpacking = true;
      } else {
        positionalCount++;
      }
    }
  } else if (args) {
    positionalCount = 1; // a bare generator expression argument
  }
  return { keywords, positionalCount, hasUnpacking, range: positions.rangeOf(call) };
}

/**
 * Calls still being typed: in a statement tree-sitter could not parse, an ERROR node holding `callee (` and the
 * arguments so far with no `)` (`np.unique([1, 1], equal_nan=` recovers `equal_nan` as a bare identifier before a
 * `=` token). Their keywords are read, so a keyword is judged while the call is unclosed as once it is closed; no
 * positional count is given (what the commas delimit is not known), so arity is not judged. Keyed by the callee's
 * node, as closed calls are; `names` collects the keywords' identifiers, which are no value uses.
 */
function unclosedCalls(error: SyntaxNode, positions: ChunkPositions, calls: Map<SyntaxNode, CallSite>, keywordNames: Set<SyntaxNode>): void {
  const copies = new Map<number, SyntaxNode>();
  for (const c of error.namedChildren) copies.set(c.startIndex, c);
  const kids = error.treeNode.children.filter((k): k is NonNullable<typeof k> => k !== null);
  for (let i = 0; i + 1 < kids.length; i++) {
    const callee = copies.get(kids[i]!.startIndex);
    if (!callee || (callee.type !== 'identifier' && callee.type !== 'attribute') || kids[i + 1]!.type !== '(') continue;
    const keywords: KeywordArgument[] = [];
    const names: SyntaxNode[] = [];
    let last: SyntaxNode = callee;
    let closed = false;
    for (let j = i + 2; j < kids.length; j++) {
      const kid = kids[j]!;
      if (kid.type === ')' || kid.type === '(') {
        closed = kid.type === ')';
        break; // closed (tree-sitter's trouble is elsewhere), or a call nested in it, read on its own
      }
      const copy = copies.get(kid.startIndex);
      if (!copy) continue;
      last = copy;
      if (copy.type === 'keyword_argument') {
        const name = copy.childForFieldName('name');
        if (name) keywords.push({ name: name.text, range: positions.rangeOf(name) });
      } else if (copy.type === 'identifier' && kids[j + 1]?.type === '=') {
        keywords.push({ name: copy.text, range: positions.rangeOf(copy) });
        names.push(copy);
      }
    }
    if (closed || calls.has(callee)) continue;
    calls.set(callee, { keywords, positionalCount: 0, hasUnpacking: false, range: positions.rangeBetween(callee, last) });
    for (const n of names) keywordNames.add(n);
  }
}

/** Is this identifier read as a value (not a definition, keyword name, attribute name or import name)? */
function isValueIdentifier(node: SyntaxNode): boolean {
  const parent = node.parent;
  if (!parent) return false;
  switch (parent.type) {
    case 'attribute':
      return parent.childForFieldName('object') === node;
    case 'keyword_argument':
      return parent.childForFieldName('value') === node;
    case 'dotted_name':
    case 'aliased_import':
    case 'import_statement':
    case 'import_from_statement':
    case 'parameters':
    case 'lambda_parameters':
    case 'default_parameter':
    case 'typed_parameter':
    case 'typed_default_parameter':
    case 'global_statement':
    case 'nonlocal_statement':
      return false;
    case 'function_definition':
    case 'class_definition':
      return parent.childForFieldName('name') !== node;
    default:
      return true;
  }
}

function isAssignmentTarget(node: SyntaxNode): boolean {
  let child = node;
  let parent = node.parent;
  while (parent && (parent.type === 'pattern_list' || parent.type === 'tuple_pattern' || parent.type === 'list_pattern')) {
    child = parent;
    parent = parent.parent;
  }
  if (!parent) return false;
  if (parent.type === 'assignment' || parent.type === 'augmented_assignment') {
    return parent.childForFieldName('left') === child;
  }
  return parent.type === 'delete_statement';
}

/** For `call(...).a.b`, the call and the members used on its result; null for any other shape. */
function membersOnCall(node: SyntaxNode): { call: SyntaxNode; attrs: SyntaxNode[] } | null {
  const chain = splitAttributeChain(node);
  return chain && chain.base.type === 'call' ? { call: chain.base, attrs: chain.attributes } : null;
}

function calleeOf(call: SyntaxNode): string[] | null {
  const fn = call.childForFieldName('function');
  const parts = fn ? (fn.type === 'identifier' ? [fn] : chainParts(fn)) : null;
  return parts ? parts.map((p) => p.text) : null;
}

/** One chunk's imports and uses, relative to its start. */
export function referenceFacts(copy: SyntaxCopy, positions: ChunkPositions): ReferenceFacts {
  const ofType = (type: string) => copy.byType.get(type) ?? [];
  const segment = (node: SyntaxNode): Segment => ({ text: node.text, range: positions.rangeOf(node) });
  const imports: ImportFact[] = [];
  for (const node of [...ofType('import_statement'), ...ofType('import_from_statement')]) {
    const fact = importFact(node, positions);
    if (fact) imports.push(fact);
  }

  const calls = new Map<SyntaxNode, SyntaxNode>();
  for (const node of ofType('call')) {
    const fn = node.childForFieldName('function');
    if (fn) calls.set(fn, node);
  }
  const unclosed = new Map<SyntaxNode, CallSite>();
  const keywordNames = new Set<SyntaxNode>();
  for (const node of ofType('ERROR')) unclosedCalls(node, positions, unclosed, keywordNames);
  const callAt = (node: SyntaxNode): CallSite | null => {
    const call = calls.get(node);
    return call ? callSiteOf(call, positions) : (unclosed.get(node) ?? null);
  };

  const attributes: AttributeUse[] = [];
  const polyfills: ReferenceFacts['polyfills'] = [];
  for (const node of ofType('attribute')) {
    const parent = node.parent;
    if (parent?.type === 'attribute' && parent.childForFieldName('object') === node) continue; // not maximal
    const parts = chainParts(node);
    if (isAssignmentTarget(node)) {
      // `np.trapezoid = np.trapz` (a polyfill, usually under `if not hasattr(…)`): the file provides the name itself.
      if (parts) polyfills.push({ parts: parts.map((p) => p.text), span: positions.spanOf(node) });
      continue;
    }
    if (parts) {
      // A chain longer than any API path is checked to MAX_CHAIN_SEGMENTS only (each prefix is a path of its own:
      // all of a 50,000-segment chain's would be quadratic), and its call is not matched to a signature.
      if (parts.length > MAX_CHAIN_SEGMENTS) attributes.push({ span: positions.spanOf(node), call: null, parts: parts.slice(0, MAX_CHAIN_SEGMENTS).map(segment), onCall: null });
      else attributes.push({ span: positions.spanOf(node), call: callAt(node), parts: parts.map(segment), onCall: null });
      continue;
    }
    // `np.zeros(3).tostring()`: members used directly on a library call's result.
    const members = membersOnCall(node);
    const callee = members ? calleeOf(members.call) : null;
    if (members && callee) {
      attributes.push({ span: positions.spanOf(node), call: callAt(node), parts: null, onCall: { callee, span: positions.spanOf(members.call), members: members.attrs.map(segment) } });
      continue;
    }
    // `"v1".removeprefix("v")`: members used on a literal, the methods of its builtin class.
    const chain = members ? null : splitAttributeChain(node);
    const producer = chain ? literalClass(chain.base) : null;
    if (chain && producer) attributes.push({ span: positions.spanOf(node), call: callAt(node), parts: null, onCall: null, onLiteral: { producer, members: chain.attributes.map(segment) } });
  }

  const names: NameUse[] = [];
  for (const node of ofType('identifier')) {
    if (node.parent?.type === 'attribute') continue; // the root of a chain, or a member: handled with the chain
    if (!isValueIdentifier(node) || isAssignmentTarget(node) || keywordNames.has(node)) continue;
    names.push({ name: segment(node), span: positions.spanOf(node), call: callAt(node) });
  }
  return { imports, attributes, names, polyfills };
}
