// Links the chunks' facts (references.ts) into a file's references: each chunk's uses resolved against the names the
// whole file binds (imports, aliases, builtins, values of a known producer) and judged against the file's guards. A
// caller that links the same document again after an edit keeps a LinkMemo, and the chunks whose names still mean
// what they meant give the same reference objects again.
import { placeRange, type ChunkOrigin, type Span } from './chunk-position.js';
import { GuardIndex, type Failure, type GuardFacts, type GuardRegion } from './guards.js';
import { joinBindings, type BindingFacts, type LocalBindings } from './local-bindings.js';
import type { SourcePosition, SourceRange } from '../source-range.js';
import type { ApiReference, AttributeUse, NameUse, PathPrefix, ReferenceFacts } from './references.js';

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

/**
 * The chunk that holds `pos`, if any: chunks are in document order and do not overlap, and a reference lies within
 * its chunk, so it is the last to start at or before `pos`.
 */
export function chunkAt(chunks: readonly ChunkReferences[], pos: SourcePosition): ChunkReferences | undefined {
  const startsBy = (o: ChunkOrigin) => o.line < pos.line || (o.line === pos.line && o.column <= pos.column);
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (startsBy(chunks[mid]!.origin)) lo = mid + 1;
    else hi = mid;
  }
  return chunks[lo - 1];
}

/** The references of the chunk that holds `pos`, placed in the file: a hover's, not the file's every one (77,779 in 100,000 lines). */
export function placeReferencesAt(chunks: readonly ChunkReferences[], pos: SourcePosition): ApiReference[] {
  const chunk = chunkAt(chunks, pos);
  return chunk ? placeReferences([chunk]) : [];
}

/** Resolves every chunk's uses against the names the whole file binds: the file's references, in file positions. */
export function linkReferences(chunks: readonly PlacedFacts[], memo?: LinkMemo): ApiReference[] {
  return placeReferences(linkReferenceChunks(chunks, memo));
}

/** The file's guards, read once over all its chunks: whether a use in a chunk is guarded against a failure. */
interface FileGuards {
  index: GuardIndex;
  /** What the guards depend on beyond each chunk's own facts (part of LinkState.env). */
  env: unknown[];
  isGuarded(chunk: number, span: Span, segments: readonly string[], failure: Failure): boolean;
}

function fileGuards(chunks: readonly PlacedFacts[]): FileGuards {
  const versionFlags = new Set(chunks.flatMap((c) => c.guards.versionFlags));
  // An exception alias bound twice in the file guards nothing.
  const exceptionAliases = new Map<string, string[] | null>();
  for (const c of chunks) {
    for (const [name, names] of c.guards.exceptionAliases) exceptionAliases.set(name, exceptionAliases.has(name) ? null : names);
  }
  const aliases = new Map([...exceptionAliases].filter((e): e is [string, string[]] => e[1] !== null));
  const postponed = chunks.some((c) => c.guards.postponesAnnotations);
  const index = new GuardIndex(versionFlags, postponed, aliases);
  // Regions reaching over other chunks (after an early exit) are known only once every chunk that may have one is read.
  const regions: (GuardRegion[] | undefined)[] = chunks.map((c) => (maySpan(c.guards) ? index.regionsOf(c.guards, placement(c)) : undefined));
  const regionsOf = (c: number) => (regions[c] ??= index.regionsOf(chunks[c]!.guards, placement(chunks[c]!)));
  return {
    index,
    env: [[...versionFlags].sort(), [...aliases].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)), postponed],
    isGuarded: (chunk, span, segments, failure) => {
      const start = span.start + chunks[chunk]!.origin.index;
      return index.isGuarded(regionsOf(chunk), start, span.end + chunks[chunk]!.origin.index, segments, failure);
    },
  };
}

/** What the file's names are bound to, and the lookups linking makes through them. */
interface FileBindings extends Pick<LocalBindings, 'boundNames' | 'singleAssignments' | 'boundOutsideParameters' | 'parameterScopes'> {
  table: BindingTable;
  starModules: string[];
  /** Values with a certain producer: names assigned once, from a call into a library (or a literal), and bound no other way. */
  instances: Map<string, string>;
  /** The binding of `name` at file offsets [start, end): none inside a function that takes it as a parameter. */
  bindingAt(name: string, start: number, end: number): Binding | null | undefined;
  /** The dotted path a call's callee names, its span relative to a chunk starting at `by`. */
  producerOf(callee: string[], at: Span, by: number): string | null;
}

/** The names the file's imports bind (plain imports first, so that a from-import of the same name wins the tie), and its star imports. */
function importTable(chunks: readonly PlacedFacts[]): { table: BindingTable; starModules: string[] } {
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
  return { table, starModules };
}

function fileBindings(chunks: readonly PlacedFacts[]): FileBindings {
  const { table, starModules } = importTable(chunks);
  const local = joinBindings(chunks.map((c) => ({ facts: c.bindings, start: c.origin.index, parent: c.parent })));
  const { boundNames, singleAssignments, boundOutsideParameters, parameterScopes } = local;
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
  const instances = new Map<string, string>();
  for (const [name, values] of singleAssignments) {
    if (values.length !== 1 || boundNames.has(name) || table.has(name)) continue;
    const call = values[0]!.call;
    const producer = (call ? producerOf(call.callee, call.span, 0) : null) ?? values[0]!.literal;
    if (producer) instances.set(name, producer);
  }
  return { table, starModules, boundNames, singleAssignments, boundOutsideParameters, parameterScopes, instances, bindingAt, producerOf };
}

/**
 * Records this linking's state in the memo and answers, per chunk, the links of the last linking where they still
 * hold: the same facts object, no guard of another chunk reaching into it, and none of the names it read changed.
 */
function memoReuse(memo: LinkMemo, chunks: readonly PlacedFacts[], guards: FileGuards, bindings: FileBindings): (c: number, facts: ReferenceFacts) => LinkedReferences | null {
  const blockParameters = new Set<string>();
  for (const c of chunks) for (const p of c.bindings.parameters) if (p.scope === null) blockParameters.add(p.name);
  const env = JSON.stringify([bindings.starModules, ...guards.env]);
  const { table, instances, boundOutsideParameters, singleAssignments, parameterScopes } = bindings;
  const now: LinkState = { env, table, instances, boundNames: boundOutsideParameters, singles: singleAssignments, parameterScopes, blockParameters };
  const last = memo.last;
  const generation = ++memo.generation;
  memo.last = now;
  memo.linked = 0;
  const changed = last && last.env === env ? changedNames(last, now) : null;
  return (c, facts) => {
    const entry = memo.chunks.get(facts);
    if (!entry || guards.index.spansOver(chunks[c]!.origin.index, chunks[c]!.end)) return null;
    if (entry.generation !== generation) {
      if (entry.generation !== generation - 1 || !changed) return null;
      if (changed.size > 0 && entry.names.some((n) => changed.has(n))) return null;
      entry.generation = generation;
    }
    return entry.refs;
  };
}

/** The file as linking sees it: its chunks, their guards and the names they bind. */
interface FileLinking {
  chunks: readonly PlacedFacts[];
  guards: FileGuards;
  bindings: FileBindings;
}

/** A chunk's imports, plain and from-imports apart (the file lists every chunk's plain imports first). */
function linkImports({ chunks, guards }: FileLinking, c: number): Pick<LinkedReferences, 'imports' | 'fromImports'> {
  const imports: ApiReference[] = [];
  const fromImports: ApiReference[] = [];
  for (const fact of chunks[c]!.references.imports) {
    for (const ref of fact.refs) {
      const guarded = guards.isGuarded(c, fact.span, ref.segments, ref.failure);
      const out: ApiReference = { prefixes: ref.prefixes.map((p) => ({ path: p.path, range: p.range })), firstToCheck: 1, origin: 'import', call: null, guarded };
      if (!guarded && ref.moduleLength && guards.isGuarded(c, fact.span, ref.segments, 'module-import')) out.guardedPrefixes = ref.moduleLength;
      (fact.statement === 'import' ? imports : fromImports).push(out);
    }
  }
  return { imports, fromImports };
}

/** A member chain on a value whose producer is known: an instance's attributes, checked against the producer's result. */
function instanceReference({ guards }: FileLinking, c: number, use: AttributeUse, producer: string, members: { name: string; range: SourceRange }[]): ApiReference {
  const names = members.map((m) => m.name);
  return { prefixes: [], firstToCheck: 0, origin: 'instance', call: use.call, guarded: guards.isGuarded(c, use.span, names, 'attribute'), callGuarded: guards.isGuarded(c, use.span, names, 'call'), receiver: { producer, members } };
}

/** A chunk's attribute chains: on a call's or a literal's result, on an instance, or rooted at a bound name. Adds the names it reads to `read`. */
function linkAttributes(file: FileLinking, c: number, read: Set<string>): ApiReference[] {
  const { chunks, guards, bindings } = file;
  const { origin } = chunks[c]!;
  const attributes: ApiReference[] = [];
  for (const use of chunks[c]!.references.attributes) {
    const on = use.onCall ?? use.onLiteral;
    if (on) {
      if (use.onCall) read.add(use.onCall.callee[0]!);
      const producer = use.onCall ? bindings.producerOf(use.onCall.callee, use.onCall.span, origin.index) : use.onLiteral!.producer;
      if (producer) attributes.push(instanceReference(file, c, use, producer, on.members.map((m) => ({ name: m.text, range: m.range }))));
      continue;
    }
    const parts = use.parts!;
    const root = parts[0]!;
    read.add(root.text);
    const instanceProducer = bindings.instances.get(root.text);
    if (instanceProducer) {
      attributes.push(instanceReference(file, c, use, instanceProducer, parts.slice(1).map((p) => ({ name: p.text, range: { start: root.range.start, end: p.range.end } }))));
      continue;
    }
    const binding = bindings.bindingAt(root.text, use.span.start + origin.index, use.span.end + origin.index);
    if (!binding) continue;
    const rootSegments = binding.path.split('.');
    const prefixes: PathPrefix[] = rootSegments.map((_, i) => ({ path: rootSegments.slice(0, i + 1).join('.'), range: root.range }));
    for (let i = 1; i < parts.length; i++) {
      prefixes.push({ path: `${binding.path}.${parts.slice(1, i + 1).map((p) => p.text).join('.')}`, range: { start: root.range.start, end: parts[i]!.range.end } });
    }
    const segments = prefixes[prefixes.length - 1]!.path.split('.');
    const ref: ApiReference = {
      prefixes,
      firstToCheck: binding.checkFrom ?? rootSegments.length,
      origin: 'attribute',
      call: use.call,
      guarded: guards.isGuarded(c, use.span, segments, 'attribute'),
      callGuarded: guards.isGuarded(c, use.span, segments, 'call'),
    };
    if (binding.checkFrom !== undefined) ref.builtin = true;
    attributes.push(ref);
  }
  return attributes;
}

/** A reference to a dotted path, every prefix at the same range (a bare name stands for the whole path). */
function nameReference({ guards }: FileLinking, c: number, use: NameUse, segments: string[], firstToCheck: number, origin: 'name' | 'star', failure: Failure): ApiReference {
  const range = use.name.range;
  return {
    prefixes: segments.map((_, i) => ({ path: segments.slice(0, i + 1).join('.'), range })),
    firstToCheck,
    origin,
    call: use.call,
    guarded: guards.isGuarded(c, use.span, segments, failure),
    callGuarded: guards.isGuarded(c, use.span, segments, 'call'),
  };
}

/** A chunk's bare names: calls of imported names, builtins wherever used, and names a star import may bring. Adds the names it reads to `read`. */
function linkNames(file: FileLinking, c: number, read: Set<string>): ApiReference[] {
  const { chunks, bindings } = file;
  const { origin } = chunks[c]!;
  const names: ApiReference[] = [];
  for (const use of chunks[c]!.references.names) {
    const name = use.name.text;
    read.add(name);
    const binding = bindings.bindingAt(name, use.span.start + origin.index, use.span.end + origin.index);
    if (binding) {
      // An imported name is checked where it is imported, so only its calls matter here; a builtin is checked
      // wherever it is used (`except ExceptionGroup:`, `anext` passed along).
      const builtin = binding.checkFrom !== undefined;
      if (!use.call && !builtin) continue;
      const segments = binding.path.split('.');
      const ref = nameReference(file, c, use, segments, binding.checkFrom ?? segments.length, 'name', builtin ? 'name' : 'attribute');
      if (builtin) ref.builtin = true;
      names.push(ref);
    } else if (binding === undefined && bindings.starModules.length > 0 && !bindings.boundNames.has(name) && !bindings.singleAssignments.has(name) && !BUILTINS.has(name)) {
      for (const module of bindings.starModules) {
        const segments = [...module.split('.'), name];
        names.push(nameReference(file, c, use, segments, segments.length - 1, 'star', 'name'));
      }
    }
  }
  return names;
}

/** One chunk's references, relative to it, and the names whose bindings they rest on. */
function linkChunk(file: FileLinking, c: number): { refs: LinkedReferences; names: string[] } {
  const read = new Set<string>();
  const { imports, fromImports } = linkImports(file, c);
  const attributes = linkAttributes(file, c, read);
  const names = linkNames(file, c, read);
  return { refs: { imports, fromImports, attributes, names }, names: [...read] };
}

/** `np.trapezoid = np.trapz` (a polyfill, usually under `if not hasattr(…)`): the file provides the name itself, so its uses are guarded. */
function withPolyfills(chunks: readonly PlacedFacts[], bindings: FileBindings, out: ChunkReferences[]): ChunkReferences[] {
  const polyfilled = new Set<string>();
  for (const chunk of chunks) {
    for (const { parts, span } of chunk.references.polyfills) {
      const binding = bindings.bindingAt(parts[0]!, span.start + chunk.origin.index, span.end + chunk.origin.index);
      if (binding) polyfilled.add([binding.path, ...parts.slice(1)].join('.'));
    }
  }
  if (polyfilled.size === 0) return out;
  // Copies, not the references themselves: a reference may be one `memo` holds, met again in later linkings.
  const polyfill = (list: readonly ApiReference[]) => list.map((ref) => (ref.prefixes.some((p) => polyfilled.has(p.path)) ? { ...ref, guarded: true } : ref));
  return out.map(({ origin, refs }) => ({ origin, refs: { imports: polyfill(refs.imports), fromImports: polyfill(refs.fromImports), attributes: polyfill(refs.attributes), names: polyfill(refs.names) } }));
}

/** Resolves every chunk's uses against the names the whole file binds: each chunk's references, relative to it. */
export function linkReferenceChunks(chunks: readonly PlacedFacts[], memo?: LinkMemo): ChunkReferences[] {
  const file: FileLinking = { chunks, guards: fileGuards(chunks), bindings: fileBindings(chunks) };
  const reuse = memo ? memoReuse(memo, chunks, file.guards, file.bindings) : null;
  const out = chunks.map((chunk, c): ChunkReferences => {
    const again = reuse?.(c, chunk.references);
    if (again) return { origin: chunk.origin, refs: again };
    const linked = linkChunk(file, c);
    if (memo) {
      memo.linked++;
      // A chunk that a guard of another chunk reaches into is linked again every time (where that guard lies moves).
      if (!file.guards.index.spansOver(chunk.origin.index, chunk.end)) memo.chunks.set(chunk.references, { generation: memo.generation, names: linked.names, refs: linked.refs });
    }
    return { origin: chunk.origin, refs: linked.refs };
  });
  return withPolyfills(chunks, file.bindings, out);
}

function placement(c: PlacedFacts): { start: number; end: number; parentEnd: number } {
  return { start: c.origin.index, end: c.end, parentEnd: c.parent.end };
}

/** May a chunk's guards reach over other chunks (after an early exit, a decorated class's body)? */
function maySpan(g: GuardFacts): boolean {
  const spans = (r: { end: number | string }) => typeof r.end !== 'number';
  return g.regions.some(spans) || g.conditionals.some((c) => c.toChunkEnd || c.probes.some(spans));
}
