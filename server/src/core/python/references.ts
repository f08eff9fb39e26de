// Finds every place where a Python file reaches into a library: imports, attribute chains rooted at an imported
// name, calls with their keywords, and names that a star import brings in. The output is plain data; deciding
// which libraries are tracked and what is wrong with a reference is the checker's job.
//
// Two steps, so that an edit re-reads only the chunks it changed (chunks.ts): `referenceFacts` reads one chunk's
// imports and uses as plain data, relative to the chunk; `linkReferences` resolves the uses of every chunk of a file
// against the names the whole file binds, and places them in the file.
import type { SourceRange } from '../source-range.js';
import { placeRange, type ChunkOrigin, type ChunkPositions, type Span } from './chunk-position.js';
import { GuardIndex, type Failure, type GuardFacts, type GuardRegion } from './guards.js';
import { joinBindings, type BindingFacts } from './local-bindings.js';
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

interface Binding {
  path: string;
  /** Where existence checks start (the builtins module itself is not checked, its names are). */
  checkFrom?: number;
}

/** Names bound by imports: name -> binding, or null when the name is bound to several different things. */
type BindingTable = Map<string, Binding | null>;

function bind(table: BindingTable, name: string, path: string): void {
  const existing = table.get(name);
  if (existing === undefined) table.set(name, { path });
  else if (existing !== null && existing.path !== path) table.set(name, null);
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

/** Python's builtins: after a star import, a name the module does not export still means the builtin. */
const BUILTINS = new Set(('abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex ' +
  'delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int ' +
  'isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr ' +
  'reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__ Ellipsis NotImplemented ' +
  'True False None').split(' '));

/** Resolves single-assignment aliases such as `fft = np.fft` to more bindings, to a fixed point. */
function addAliases(assignments: Map<string, { chain: string[] | null }[]>, locallyBound: { has(name: string): boolean }, table: BindingTable): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, values] of assignments) {
      if (values.length !== 1 || table.has(name) || locallyBound.has(name)) continue;
      const chain = values[0]!.chain;
      if (!chain) continue;
      const root = table.get(chain[0]!);
      if (!root) continue;
      table.set(name, { path: [root.path, ...chain.slice(1)].join('.') });
      changed = true;
    }
  }
}

/** A chunk's facts and where the chunk sits in its file. */
export interface PlacedFacts {
  references: ReferenceFacts;
  bindings: BindingFacts;
  guards: GuardFacts;
  origin: ChunkOrigin;
  /** The block holding the chunk (the module, or a class body), in file offsets. */
  parent: Span;
  /** The end of the chunk's node in file offsets (a class's with its body). */
  end: number;
}

/**
 * One chunk's references, relative to its start (positions as its facts hold them: chunk-position.ts), in the order
 * linking makes them: the file's references are every chunk's `imports`, then every chunk's `fromImports`, then
 * `attributes`, then `names`. A chunk an edit left alone and whose names mean what they meant keeps these objects
 * wherever the edit moved it (LinkMemo), so what the checker said about them is found again by identity.
 */
export interface LinkedReferences {
  imports: readonly ApiReference[];
  fromImports: readonly ApiReference[];
  attributes: readonly ApiReference[];
  names: readonly ApiReference[];
}

export interface ChunkReferences {
  origin: ChunkOrigin;
  refs: LinkedReferences;
}

/** What linking made of one chunk's facts, and the names it read the file's bindings of. */
interface ChunkLink {
  generation: number;
  names: readonly string[];
  refs: LinkedReferences;
}

/** What a chunk's links depend on beyond its own facts, for the whole file: compared with the last linking's. */
interface LinkState {
  /** Star modules, version flags, exception aliases, postponed annotations. */
  env: string;
  table: BindingTable;
  instances: Map<string, string>;
  /** Names bound other than as parameters (with parameterScopes' names, every name bound other than by a lone assignment). */
  boundNames: Set<string>;
  singles: Map<string, unknown>;
  parameterScopes: Map<string, unknown>;
  /** Names some parameter binds over a whole block (error recovery): where they reach is not the chunk's own business. */
  blockParameters: Set<string>;
}

/**
 * What linking made of each chunk's facts the last time, kept by a caller that links the same document again after
 * an edit (the language server: the facts of the chunks an edit left alone are the same objects). A chunk whose facts
 * are the same object, that no guard of another chunk reaches into, and none of whose names changed meaning gives the
 * same reference objects again, relative to its start, wherever it moved.
 */
export interface LinkMemo {
  chunks: WeakMap<ReferenceFacts, ChunkLink>;
  generation: number;
  last: LinkState | null;
  /** Chunks whose links were made again by the last linking (the rest were reused), for figures and tests. */
  linked: number;
}

export function newLinkMemo(): LinkMemo {
  return { chunks: new WeakMap(), generation: 0, last: null, linked: 0 };
}

function sameBinding(a: Binding | null | undefined, b: Binding | null | undefined): boolean {
  return a === b || (!!a && !!b && a.path === b.path && a.checkFrom === b.checkFrom);
}

/** Names whose meaning to linking differs between two linkings of a file. */
function changedNames(last: LinkState, now: LinkState): Set<string> {
  const changed = new Set<string>();
  const keys = <V>(a: Map<string, V> | Set<string>, b: Map<string, V> | Set<string>) => {
    for (const k of a.keys()) if (!b.has(k)) changed.add(k);
    for (const k of b.keys()) if (!a.has(k)) changed.add(k);
  };
  keys(last.boundNames, now.boundNames);
  keys(last.singles, now.singles);
  keys(last.parameterScopes, now.parameterScopes);
  for (const [k, v] of last.table) if (!sameBinding(v, now.table.get(k)) || !now.table.has(k)) changed.add(k);
  for (const k of now.table.keys()) if (!last.table.has(k)) changed.add(k);
  for (const [k, v] of last.instances) if (now.instances.get(k) !== v) changed.add(k);
  for (const k of now.instances.keys()) if (!last.instances.has(k)) changed.add(k);
  for (const k of last.blockParameters) changed.add(k);
  for (const k of now.blockParameters) changed.add(k);
  return changed;
}

const placePrefix = (p: PathPrefix, origin: ChunkOrigin): PathPrefix => ({ path: p.path, range: placeRange(p.range, origin) });

/** A chunk's reference placed in its file (a copy: the relative one may be reused by later linkings). */
export function placeReference(ref: ApiReference, origin: ChunkOrigin): ApiReference {
  const out: ApiReference = { ...ref, prefixes: ref.prefixes.map((p) => placePrefix(p, origin)) };
  if (ref.call) {
    const call = ref.call;
    out.call = { keywords: call.keywords.map((k) => ({ name: k.name, range: placeRange(k.range, origin) })), positionalCount: call.positionalCount, hasUnpacking: call.hasUnpacking, range: placeRange(call.range, origin) };
  }
  if (ref.receiver) out.receiver = { producer: ref.receiver.producer, members: ref.receiver.members.map((m) => ({ name: m.name, range: placeRange(m.range, origin) })) };
  return out;
}

/** The file's references in file positions, in linking's order (see LinkedReferences). */
export function placeReferences(chunks: readonly ChunkReferences[]): ApiReference[] {
  const out: ApiReference[] = [];
  for (const part of ['imports', 'fromImports', 'attributes', 'names'] as const) {
    for (const { origin, refs } of chunks) for (const ref of refs[part]) out.push(placeReference(ref, origin));
  }
  return out;
}

/** Resolves every chunk's uses against the names the whole file binds: the file's references, in file positions. */
export function linkReferences(chunks: readonly PlacedFacts[], memo?: LinkMemo): ApiReference[] {
  return placeReferences(linkReferenceChunks(chunks, memo));
}

/** Resolves every chunk's uses against the names the whole file binds: each chunk's references, relative to it. */
export function linkReferenceChunks(chunks: readonly PlacedFacts[], memo?: LinkMemo): ChunkReferences[] {
  const versionFlags = new Set(chunks.flatMap((c) => c.guards.versionFlags));
  const exceptionAliases = new Map<string, string[] | null>();
  for (const c of chunks) {
    for (const [name, names] of c.guards.exceptionAliases) exceptionAliases.set(name, exceptionAliases.has(name) ? null : names);
  }
  const aliases = new Map([...exceptionAliases].filter((e): e is [string, string[]] => e[1] !== null));
  const postponed = chunks.some((c) => c.guards.postponesAnnotations);
  const guards = new GuardIndex(versionFlags, postponed, aliases);
  // Regions reaching over other chunks (after an early exit) are known only once every chunk that may have one is read.
  const regions: (GuardRegion[] | undefined)[] = chunks.map((c) => (maySpan(c.guards) ? guards.regionsOf(c.guards, placement(c)) : undefined));
  const regionsOf = (c: number) => (regions[c] ??= guards.regionsOf(chunks[c]!.guards, placement(chunks[c]!)));
  const isGuarded = (chunk: number, span: Span, segments: readonly string[], failure: Failure) => {
    const start = span.start + chunks[chunk]!.origin.index;
    return guards.isGuarded(regionsOf(chunk), start, span.end + chunks[chunk]!.origin.index, segments, failure);
  };

  const table: BindingTable = new Map();
  const starModules: string[] = [];
  for (const statement of ['import', 'from'] as const) {
    for (const chunk of chunks) {
      for (const fact of chunk.references.imports) {
        if (fact.statement !== statement) continue;
        for (const b of fact.bindings) bind(table, b.name, b.path);
        if (fact.star !== null) starModules.push(fact.star);
      }
    }
  }

  const { boundNames, singleAssignments, boundOutsideParameters, parameterScopes } = joinBindings(chunks.map((c) => ({ facts: c.bindings, start: c.origin.index, parent: c.parent })));
  // A name both imported and bound some other way (assigned, a loop variable …) is ambiguous; a parameter of the
  // same name shadows the import only inside its function.
  for (const name of table.keys()) if (boundOutsideParameters.has(name) || singleAssignments.has(name)) table.set(name, null);
  addAliases(singleAssignments, boundNames, table);
  // A name the file never binds is Python's builtin of that name; a star import could bring any name, so with one
  // no name is taken for a builtin.
  const builtinBinding = (name: string): Binding | undefined =>
    starModules.length === 0 && !table.has(name) && !boundNames.has(name) && !singleAssignments.has(name) && !parameterScopes.has(name)
      ? { path: `builtins.${name}`, checkFrom: 1 }
      : undefined;
  // Inside a function taking the name as a parameter (by position in the text: no walk up the tree per lookup).
  /** The binding of `name` at file offsets [start, end): none inside a function that takes it as a parameter. */
  const bindingAt = (name: string, start: number, end: number): Binding | null | undefined => {
    const binding = table.get(name);
    const owners = binding ? parameterScopes.get(name) : undefined;
    if (owners?.some((o) => o.start <= start && end <= o.end)) return null;
    return binding ?? builtinBinding(name);
  };
  const producerOf = (callee: string[], at: Span, by: number): string | null => {
    const binding = bindingAt(callee[0]!, at.start + by, at.end + by);
    return binding ? [binding.path, ...callee.slice(1)].join('.') : null;
  };
  // Values with a certain producer: names assigned once, from a call into a library, and bound no other way.
  const instances = new Map<string, string>();
  for (const [name, values] of singleAssignments) {
    if (values.length !== 1 || boundNames.has(name) || table.has(name)) continue;
    const call = values[0]!.call;
    const producer = (call ? producerOf(call.callee, call.span, 0) : null) ?? values[0]!.literal;
    if (producer) instances.set(name, producer);
  }

  // What the chunks' links depend on beyond their facts, and the names whose meaning changed since the last linking.
  let reuse: ((c: number, facts: ReferenceFacts) => LinkedReferences | null) | null = null;
  if (memo) {
    const blockParameters = new Set<string>();
    for (const c of chunks) for (const p of c.bindings.parameters) if (p.scope === null) blockParameters.add(p.name);
    const env = JSON.stringify([starModules, [...versionFlags].sort(), [...aliases].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)), postponed]);
    const now: LinkState = { env, table, instances, boundNames: boundOutsideParameters, singles: singleAssignments, parameterScopes, blockParameters };
    const last = memo.last;
    const generation = ++memo.generation;
    memo.last = now;
    const changed = last && last.env === env ? changedNames(last, now) : null;
    reuse = (c, facts) => {
      const entry = memo.chunks.get(facts);
      if (!entry || guards.spansOver(chunks[c]!.origin.index, chunks[c]!.end)) return null;
      if (entry.generation !== generation) {
        if (entry.generation !== generation - 1 || !changed) return null;
        if (changed.size > 0 && entry.names.some((n) => changed.has(n))) return null;
        entry.generation = generation;
      }
      return entry.refs;
    };
    memo.linked = 0;
  }

  const linkChunk = (c: number): { refs: LinkedReferences; names: string[] } => {
    const chunk = chunks[c]!;
    const { origin } = chunk;
    const read = new Set<string>();
    const imports: ApiReference[] = [];
    const fromImports: ApiReference[] = [];
    for (const fact of chunk.references.imports) {
      for (const ref of fact.refs) {
        const guarded = isGuarded(c, fact.span, ref.segments, ref.failure);
        const out: ApiReference = { prefixes: ref.prefixes.map((p) => ({ path: p.path, range: p.range })), firstToCheck: 1, origin: 'import', call: null, guarded };
        if (!guarded && ref.moduleLength && isGuarded(c, fact.span, ref.segments, 'module-import')) out.guardedPrefixes = ref.moduleLength;
        (fact.statement === 'import' ? imports : fromImports).push(out);
      }
    }
    const attributes: ApiReference[] = [];
    for (const use of chunk.references.attributes) {
      const on = use.onCall ?? use.onLiteral;
      if (on) {
        if (use.onCall) read.add(use.onCall.callee[0]!);
        const producer = use.onCall ? producerOf(use.onCall.callee, use.onCall.span, origin.index) : use.onLiteral!.producer;
        if (!producer) continue;
        const members = on.members.map((m) => ({ name: m.text, range: m.range }));
        const names = members.map((m) => m.name);
        attributes.push({ prefixes: [], firstToCheck: 0, origin: 'instance', call: use.call, guarded: isGuarded(c, use.span, names, 'attribute'), callGuarded: isGuarded(c, use.span, names, 'call'), receiver: { producer, members } });
        continue;
      }
      const parts = use.parts!;
      const root = parts[0]!;
      read.add(root.text);
      const instanceProducer = instances.get(root.text);
      if (instanceProducer) {
        const members = parts.slice(1).map((p) => ({ name: p.text, range: { start: root.range.start, end: p.range.end } }));
        const names = members.map((m) => m.name);
        attributes.push({ prefixes: [], firstToCheck: 0, origin: 'instance', call: use.call, guarded: isGuarded(c, use.span, names, 'attribute'), callGuarded: isGuarded(c, use.span, names, 'call'), receiver: { producer: instanceProducer, members } });
        continue;
      }
      const binding = bindingAt(root.text, use.span.start + origin.index, use.span.end + origin.index);
      if (!binding) continue;
      const rootSegments = binding.path.split('.');
      const rootRange = root.range;
      const prefixes: PathPrefix[] = rootSegments.map((_, i) => ({ path: rootSegments.slice(0, i + 1).join('.'), range: rootRange }));
      for (let i = 1; i < parts.length; i++) {
        prefixes.push({ path: `${binding.path}.${parts.slice(1, i + 1).map((p) => p.text).join('.')}`, range: { start: root.range.start, end: parts[i]!.range.end } });
      }
      const segments = prefixes[prefixes.length - 1]!.path.split('.');
      const ref: ApiReference = {
        prefixes,
        firstToCheck: binding.checkFrom ?? rootSegments.length,
        origin: 'attribute',
        call: use.call,
        guarded: isGuarded(c, use.span, segments, 'attribute'),
        callGuarded: isGuarded(c, use.span, segments, 'call'),
      };
      if (binding.checkFrom !== undefined) ref.builtin = true;
      attributes.push(ref);
    }
    const names: ApiReference[] = [];
    for (const use of chunk.references.names) {
      const name = use.name.text;
      read.add(name);
      const binding = bindingAt(name, use.span.start + origin.index, use.span.end + origin.index);
      if (binding) {
        // An imported name is checked where it is imported, so only its calls matter here; a builtin is checked
        // wherever it is used (`except ExceptionGroup:`, `anext` passed along).
        const builtin = binding.checkFrom !== undefined;
        if (!use.call && !builtin) continue;
        const range = use.name.range;
        const segments = binding.path.split('.');
        const ref: ApiReference = {
          prefixes: segments.map((_, i) => ({ path: segments.slice(0, i + 1).join('.'), range })),
          firstToCheck: binding.checkFrom ?? segments.length,
          origin: 'name',
          call: use.call,
          guarded: isGuarded(c, use.span, segments, builtin ? 'name' : 'attribute'),
          callGuarded: isGuarded(c, use.span, segments, 'call'),
        };
        if (builtin) ref.builtin = true;
        names.push(ref);
      } else if (binding === undefined && starModules.length > 0 && !boundNames.has(name) && !singleAssignments.has(name) && !BUILTINS.has(name)) {
        const range = use.name.range;
        for (const module of starModules) {
          const segments = [...module.split('.'), name];
          names.push({
            prefixes: segments.map((_, i) => ({ path: segments.slice(0, i + 1).join('.'), range })),
            firstToCheck: segments.length - 1,
            origin: 'star',
            call: use.call,
            guarded: isGuarded(c, use.span, segments, 'name'),
            callGuarded: isGuarded(c, use.span, segments, 'call'),
          });
        }
      }
    }
    return { refs: { imports, fromImports, attributes, names }, names: [...read] };
  };

  const out: ChunkReferences[] = chunks.map((chunk, c) => {
    const again = reuse?.(c, chunk.references);
    if (again) return { origin: chunk.origin, refs: again };
    const linked = linkChunk(c);
    if (memo) {
      memo.linked++;
      // A chunk that a guard of another chunk reaches into is linked again every time (where that guard lies moves).
      if (!guards.spansOver(chunk.origin.index, chunk.end)) memo.chunks.set(chunk.references, { generation: memo.generation, names: linked.names, refs: linked.refs });
    }
    return { origin: chunk.origin, refs: linked.refs };
  });

  // `np.trapezoid = np.trapz` (a polyfill, usually under `if not hasattr(…)`): the file provides the name itself.
  const polyfilled = new Set<string>();
  for (const chunk of chunks) {
    for (const { parts, span } of chunk.references.polyfills) {
      const binding = bindingAt(parts[0]!, span.start + chunk.origin.index, span.end + chunk.origin.index);
      if (binding) polyfilled.add([binding.path, ...parts.slice(1)].join('.'));
    }
  }
  if (polyfilled.size === 0) return out;
  // Copies, not the references themselves: a reference may be one `memo` holds, met again in later linkings.
  const polyfill = (list: readonly ApiReference[]) => list.map((ref) => (ref.prefixes.some((p) => polyfilled.has(p.path)) ? { ...ref, guarded: true } : ref));
  return out.map(({ origin, refs }) => ({ origin, refs: { imports: polyfill(refs.imports), fromImports: polyfill(refs.fromImports), attributes: polyfill(refs.attributes), names: polyfill(refs.names) } }));
}

function placement(c: PlacedFacts): { start: number; end: number; parentEnd: number } {
  return { start: c.origin.index, end: c.end, parentEnd: c.parent.end };
}

/** May a chunk's guards reach over other chunks (after an early exit, a decorated class's body)? */
function maySpan(g: GuardFacts): boolean {
  const spans = (r: { end: number | string }) => typeof r.end !== 'number';
  return g.regions.some(spans) || g.conditionals.some((c) => c.toChunkEnd || c.probes.some(spans));
}
