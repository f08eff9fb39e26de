// The checker: API references + pins + matrices -> verdicts (plain data), which the rules (core/rules/) turn into
// findings. Pure: everything it knows arrives as arguments.
import type { ApiHistory, LibraryMatrix, MatrixCatalog, Signature, VersionCell } from './api-model.js';
import { acceptsKeyword, countsPositionals, listsEveryKeyword, rootIsVersioned } from './api-model.js';
import type { Pin } from './pins.js';
import { placeRange } from './python/chunk-position.js';
import type { ChunkReferences } from './python/link-references.js';
import type { ApiReference, KeywordArgument } from './python/references.js';
import { findingOf, type Finding, type Verdict } from './rules/index.js';
import type { VerdictBase } from './rules/verdict.js';
import type { SourceRange } from './source-range.js';
import { cellDeciding, stateAt, type StateAtVersion } from './version-state.js';
import { satisfies } from './versions.js';
import { seriesAllowedBy, seriesNamedBy, seriesOf, seriesSatisfies } from './version-series.js';
import { normalizeDistributionName } from './library-names.js';
import { elsewhereInCatalog, rehomedName, versionCorrectAlternative, type Alternative } from './replacements.js';
import type { CheckMemo } from './check-memo.js';
import { apiReplacement, deprecationNote, deprecationOf, keywordReplacement, removedIn } from './deprecations.js';

export interface CheckContext {
  catalog: MatrixCatalog;
  /** Pins in force for the file, keyed by normalised distribution name. */
  pins: ReadonlyMap<string, Pin>;
  /**
   * Top-level module names the project itself provides (a `parser.py` or `compat/` next to the file or at the
   * project root): an import of one is the project's module, not the standard library's of the same name.
   */
  localModules?: ReadonlySet<string>;
}

// A matrix's tracked versions are one array for its lifetime: the versions a range allows are remembered per array
// (matching a PEP 440 specifier against every tracked version, for every reference, dominated range-pinned checks).
const allowedByRange = new WeakMap<readonly string[], Map<string, string[]>>();

/**
 * The versions a pin lets the project run: the exact version, or every tracked version a range allows. Where a
 * tracked version stands for a series (Python's 3.12), a pin selects the series it allows (==3.11.7 -> 3.11).
 */
export function versionsUnderPin(pin: Pin, matrix: Pick<LibraryMatrix, 'versions' | 'versionSeries'>): string[] {
  if (matrix.versionSeries) {
    if (pin.exactVersion !== null) return [seriesOf(pin.exactVersion, matrix.versions) ?? pin.exactVersion];
    if (pin.specifier === '') return [];
    const allowed = seriesAllowedBy(pin.specifier, matrix.versions);
    // A range of series none of which is tracked (==3.7.*): the series it names, which the checker extrapolates to.
    return allowed.length > 0 ? allowed : seriesNamedBy(pin.specifier).filter((s) => seriesSatisfies(s, pin.specifier)).slice(0, 1);
  }
  if (pin.exactVersion !== null) return [pin.exactVersion];
  if (pin.specifier === '') return [];
  let known = allowedByRange.get(matrix.versions);
  if (!known) allowedByRange.set(matrix.versions, (known = new Map()));
  let allowed = known.get(pin.specifier);
  if (!allowed) known.set(pin.specifier, (allowed = matrix.versions.filter((v) => satisfies(v, pin.specifier))));
  return [...allowed];
}

/** Around `missingVersion`: the tracked versions between which the API was added (after it) and removed (before it). */
function lifecycle(history: ApiHistory, missingVersion: string): { added: [string, string] | null; removed: [string, string] | null } {
  const cells = history.versions;
  const index = cells.findIndex((c) => c.version === missingVersion);
  let added: [string, string] | null = null;
  let removed: [string, string] | null = null;
  if (index >= 0) {
    const later = cells.findIndex((c, i) => i > index && c.state === 'present');
    if (later > 0 && cells[later - 1]!.state === 'absent') added = [cells[later - 1]!.version, cells[later]!.version];
    let earlier = -1;
    for (let i = index - 1; i >= 0; i--) if (cells[i]!.state === 'present') { earlier = i; break; }
    if (earlier >= 0 && cells[earlier + 1]?.state === 'absent') removed = [cells[earlier]!.version, cells[earlier + 1]!.version];
  }
  return { added, removed };
}

/** The states with, between tracked versions, the cell that decides `fact` there (version-state.ts cellDeciding). */
function decidedBy(states: StateAtVersion[], fact: (cell: VersionCell) => string | null): StateAtVersion[] {
  return states.map((s) => {
    const cell = cellDeciding(s, fact);
    return cell === s.cell ? s : { ...s, cell };
  });
}

function checkKeyword(scope: Scope, keyword: KeywordArgument, history: ApiHistory, pinned: StateAtVersion[]): void {
  const states = decidedBy(pinned, (c) => (c.signature ? String(acceptsKeyword(c.signature, keyword.name)) : null));
  const rejecting = states.filter((s) => {
    const sig = s.cell?.signature;
    return s.state === 'present' && sig && !acceptsKeyword(sig, keyword.name);
  });
  if (rejecting.length === 0) return;
  // A docstring signature often omits keywords the callable takes (numpy 1.24's dtype docstring leaves out metadata=):
  // only trust "this version lacks it" when the rejecting signature lists every keyword (introspected, stubbed, or
  // the C argument parser's), or is as partial as the accepting one.
  const rejectingSource = rejecting[0]!.cell?.signatureSource;
  const reliableReject = listsEveryKeyword(rejectingSource);
  const accepting = history.versions.filter((c) => c.state === 'present' && c.signature && acceptsKeyword(c.signature, keyword.name) && (reliableReject || c.signatureSource === rejectingSource));
  const acceptedAnywhere = history.versions.some((c) => c.state === 'present' && c.signature && acceptsKeyword(c.signature, keyword.name));
  if (accepting.length === 0 && acceptedAnywhere) return; // accepted where the evidence is better: no verdict
  if (accepting.length > 0) {
    const base = verdictBase(scope, keyword.range, history.api, accepting.map((c) => c.version));
    scope.verdicts.push({ code: 'anachronistic-parameter', ...base, parameter: keyword.name, lacking: rejecting });
    return;
  }
  // A private keyword (scipy's `_no_deco=`) is the library's own channel to a wrapper its signature does not show:
  // outside the public surface, never "unknown".
  if (keyword.name.startsWith('_')) return;
  // Only trust a signature read from the real callable or a stub to say "no version has this keyword".
  const reliable = rejecting.every((s) => listsEveryKeyword(s.cell?.signatureSource));
  if (reliable && rejecting.length === states.length) {
    scope.verdicts.push({ code: 'unknown-parameter', ...verdictBase(scope, keyword.range, history.api, []), parameter: keyword.name });
  }
}

/**
 * The history, when resolution found the API in at least one tracked version. Paths known only from the
 * documentation (listed, never resolved) are no evidence that code using them works anywhere.
 */
function resolvedSomewhere(history: ApiHistory | undefined): ApiHistory | undefined {
  return history?.versions.some((c) => c.state === 'present') ? history : undefined;
}

/** What a star import brings: names a module exports (its __all__); other attributes stay the file's own names. */
function exportedOnly(history: ApiHistory | undefined): ApiHistory | undefined {
  if (!history) return undefined;
  return { ...history, versions: history.versions.map((c) => (c.state === 'present' && c.exported === false ? { ...c, state: 'absent' as const } : c)) };
}

/** Everything a reference is checked against: one library's matrix, the pin in force, the versions it allows. */
interface Scope {
  matrix: LibraryMatrix;
  /** Every tracked library: Python's builtins a removal note points to, the names other libraries have. */
  catalog: MatrixCatalog;
  pin: Pin;
  versions: string[];
  /** What the checker decided, in the order it decided it. */
  verdicts: Verdict[];
}

function verdictBase(scope: Scope, range: SourceRange, api: string, availableIn: string[], replacement: string | null = null): VerdictBase {
  const { library, distribution, versions, versionSeries } = scope.matrix;
  const matrix = versionSeries ? { library, distribution, versions, versionSeries } : { library, distribution, versions };
  return { range, api, parameter: null, matrix, pin: scope.pin, availableIn, replacement };
}

/**
 * Reports `path` when the pinned versions lack it (or cannot be confirmed) and returns false; true when it is
 * present at every pinned version, so the caller may look deeper.
 */
function verifyPresent(scope: Scope, path: string, range: SourceRange, history: ApiHistory, guarded: boolean): boolean {
  const { matrix, versions } = scope;
  const states = versions.map((v) => stateAt(history, v, matrix.versions));
  const missing = states.filter((s) => s.state === 'absent');
  const unknown = states.filter((s) => s.state === 'unknown');
  const availableIn = history.versions.filter((c) => c.state === 'present').map((c) => c.version);
  if (missing.length > 0) {
    if (guarded) return false;
    const firstMissing = missing[0]!.cell?.version ?? missing[0]!.version;
    // A removal the library documented itself: its note, and the name it points to when that is a plain swap.
    const alternative = versionCorrectAlternative(matrix, history, versions, firstMissing, scope.catalog);
    pushAnachronism(scope, path, range, history, missing, alternative);
    return false;
  }
  // Unknown is worth a word only where something is known to be in doubt: tracked neighbours that disagree, or a
  // module that failed to import. Static extraction's blind spots (members of C classes) stay silent.
  const doubtful = unknown.filter((s) =>
    s.neighbours.length > 0 ? s.neighbours.every((c) => c.state !== 'unknown') && new Set(s.neighbours.map((c) => c.state)).size > 1 : matrix.isUnresolved(path));
  if (unknown.length > 0 && doubtful.length === 0) return false;
  if (unknown.length > 0) {
    if (guarded) return false;
    scope.verdicts.push({ code: 'unconfirmed-api', ...verdictBase(scope, range, path, availableIn), doubtful });
    return false;
  }
  return true;
}

function pushAnachronism(scope: Scope, path: string, range: SourceRange, history: ApiHistory, missing: StateAtVersion[], alternative: Alternative): void {
  const firstMissing = missing[0]!.cell?.version ?? missing[0]!.version;
  const availableIn = history.versions.filter((c) => c.state === 'present').map((c) => c.version);
  const base = verdictBase(scope, range, path, availableIn, alternative.replacement);
  scope.verdicts.push({ code: 'anachronistic-api', ...base, lacking: missing, ...lifecycle(history, firstMissing), alternative });
}

/**
 * `np.exceptions.AxisError` where the pinned versions lack the module (numpy.exceptions, 1.25) but have the name
 * under its older spelling (numpy.AxisError): the finding is the member's, with that spelling as the replacement,
 * instead of the module's with none. Only in an attribute chain (an import's module is rewritten otherwise).
 */
function rehomeAnachronism(scope: Scope, ref: ApiReference, index: number, module: ApiHistory): void {
  const last = scope.verdicts[scope.verdicts.length - 1];
  const member = ref.prefixes[index + 1];
  if (!last || last.code !== 'anachronistic-api' || last.api !== module.api || last.replacement !== null || module.kind !== 'module') return;
  if (ref.origin !== 'attribute' || !member || member.path.slice(member.path.lastIndexOf('.') + 1).startsWith('_')) return;
  const history = resolvedSomewhere(scope.matrix.lookup(member.path));
  if (!history) return;
  const older = rehomedName(scope.matrix, history, scope.versions);
  if (!older) return;
  const missing = scope.versions.map((v) => stateAt(history, v, scope.matrix.versions)).filter((s) => s.state === 'absent');
  if (missing.length === 0) return;
  scope.verdicts.pop();
  pushAnachronism(scope, member.path, member.range, history, missing, { replacement: older, basis: 'older-spelling', note: null });
}

function checkCall(scope: Scope, ref: ApiReference, history: ApiHistory, bound: boolean): void {
  if (!ref.call || ref.callGuarded) return;
  const states = scope.versions.map((v) => stateAt(history, v, scope.matrix.versions));
  for (const keyword of ref.call.keywords) {
    const before = scope.verdicts.length;
    checkKeyword(scope, keyword, history, states);
    if (scope.verdicts.length === before) checkDeprecatedKeyword(scope, keyword, history, states);
  }
  // A method reached through its class takes the instance as an explicit first argument: arity is not comparable.
  if (bound || history.kind === 'function' || history.kind === 'class') checkArity(scope, ref, history, states);
}

/**
 * The deprecation tier: `path` works at the pinned versions (verifyPresent said so), but the library deprecates it
 * (or, for a member, the module it is read from warns for every name) at some of them. Returns whether it did.
 */
function checkDeprecated(scope: Scope, path: string, range: SourceRange, history: ApiHistory): boolean {
  const { matrix, versions } = scope;
  const found = deprecationOf(matrix, path, null, versions);
  if (!found) return false;
  // An import of a submodule does not go through its package's __getattr__: only names read from the module warn.
  if (found.recordedFor !== path && history.kind === 'module') return false;
  const states = found.at.map((v) => stateAt(history, v, matrix.versions));
  const newest = found.at[found.at.length - 1]!;
  const availableIn = history.versions.filter((c) => c.state === 'present').map((c) => c.version);
  const replacement = apiReplacement(matrix, path, found.run.message, versions);
  scope.verdicts.push({
    code: 'deprecated-api', ...verdictBase(scope, range, path, availableIn, replacement), deprecated: states, since: found.run.since,
    removedIn: removedIn(history, newest, null), evidence: found.run.evidence, source: found.run.source, note: deprecationNote(found.run),
    membersOf: found.recordedFor !== path ? found.recordedFor : null,
  });
  return true;
}

function checkDeprecatedKeyword(scope: Scope, keyword: KeywordArgument, history: ApiHistory, pinned: StateAtVersion[]): void {
  const { matrix, versions } = scope;
  const found = deprecationOf(matrix, history.api, keyword.name, versions);
  if (!found) return;
  // Accepted wherever it is deprecated: a keyword some pinned version rejects is reported as that, not as this.
  const states = pinned.filter((s) => found.at.includes(s.version));
  if (states.some((s) => s.state !== 'present')) return;
  const newest = found.at[found.at.length - 1]!;
  const availableIn = history.versions.filter((c) => c.state === 'present' && c.signature && acceptsKeyword(c.signature, keyword.name)).map((c) => c.version);
  const replacement = keywordReplacement(matrix, history, keyword.name, found.run.message, versions);
  scope.verdicts.push({
    code: 'deprecated-parameter', ...verdictBase(scope, keyword.range, history.api, availableIn, replacement), parameter: keyword.name, deprecated: states,
    since: found.run.since, removedIn: removedIn(history, newest, keyword.name), evidence: found.run.evidence, source: found.run.source,
    note: deprecationNote(found.run), membersOf: null,
  });
}

function maxPositional(signature: Signature): number {
  if (signature.parameters.some((p) => p.kind === 'var_positional')) return Infinity;
  return signature.parameters.filter((p) => p.kind === 'positional_only' || p.kind === 'positional_or_keyword').length;
}

function checkArity(scope: Scope, ref: ApiReference, history: ApiHistory, pinned: StateAtVersion[]): void {
  const call = ref.call!;
  if (call.hasUnpacking || call.positionalCount === 0) return;
  const states = decidedBy(pinned, (c) => (c.signature && countsPositionals(c.signatureSource) ? String(maxPositional(c.signature) >= call.positionalCount) : null));
  const rejecting = states.filter((s) => s.state === 'present' && s.cell?.signature && maxPositional(s.cell.signature) < call.positionalCount);
  if (rejecting.length === 0) return;
  // Arity is only compared between introspected signatures: docstrings show optional positional outputs, stubs
  // merge overloads (ndarray.reshape(*shape) and reshape(shape)), so neither bounds what a call may pass.
  if (rejecting.some((s) => !countsPositionals(s.cell?.signatureSource))) return;
  const accepting = history.versions.filter((c) => c.state === 'present' && c.signature && countsPositionals(c.signatureSource) && maxPositional(c.signature) >= call.positionalCount);
  if (accepting.length > 0) {
    const base = verdictBase(scope, call.range, history.api, accepting.map((c) => c.version));
    scope.verdicts.push({ code: 'too-many-positional', ...base, lacking: rejecting, limit: maxPositional(rejecting[0]!.cell!.signature!), given: call.positionalCount });
  }
  // No tracked version takes that many: C callables such as ufuncs accept positional outputs their signatures do
  // not show, so this is left to the type checker rather than guessed.
}

/** Resolves a return annotation ("Generator", "NDArray[float64]", "np.ndarray") to a class the matrix knows. */
function classNamed(scope: Scope, producer: ApiHistory, returns: string | null, version: string): string | null {
  if (!returns) return null;
  const text = returns.replace(/^['"]|['"]$/g, '').trim();
  const bare = text.replace(/\[.*$/, '');
  if (/[|,]|\b(Optional|Union|Any|tuple|Tuple|list|List|dict|Dict|None)\b/.test(bare)) return null;
  const library = scope.matrix.library;
  const parts = bare.split('.');
  const leaf = parts[parts.length - 1] === 'NDArray' ? 'ndarray' : parts[parts.length - 1]!;
  const parent = producer.api.slice(0, producer.api.lastIndexOf('.'));
  const candidates = parts.length > 1 ? [[library, ...parts.slice(1, -1), leaf].join('.')] : [`${parent}.${leaf}`, `${library}.${leaf}`];
  // The name must be a class at that version: a module's re-export of a class can come and go (numpy.char's
  // `ndarray`) while the class itself stays; the next candidate is then the library's own.
  return candidates.find((c) => {
    const history = scope.matrix.lookup(c);
    return history?.kind === 'class' && stateAt(history, version, scope.matrix.versions).state === 'present';
  }) ?? null;
}

/** The class a value has when a library call produced it: the class itself, or the recorded return type. */
function producedClass(scope: Scope, producer: ApiHistory): string | null {
  if (producer.kind === 'class') return producer.api;
  // Every pinned version must say the same class (texts may differ: "NDArray" in a stub, "ndarray" in a docstring).
  const classes = new Set(scope.versions.map((v) => classNamed(scope, producer, cellDeciding(stateAt(producer, v, scope.matrix.versions), (c) => c.returns)?.returns ?? null, v)));
  if (classes.size !== 1) return null;
  return [...classes][0] ?? null;
}

function checkInstanceReference(scope: Scope, ref: ApiReference): void {
  const receiver = ref.receiver!;
  const producer = scope.matrix.lookup(receiver.producer);
  const member = receiver.members[0];
  if (!producer || !member || member.name.startsWith('_')) return;
  const cls = producedClass(scope, producer);
  if (!cls) return; // where the type is not certain, say nothing
  const path = `${cls}.${member.name}`;
  const history = resolvedSomewhere(scope.matrix.lookup(path));
  if (!history) return; // instance attributes set in __init__ are not in the class surface
  // Neither does a class's surface list what __init__ assigns to the instance, so a data member the pinned class
  // lacks may still be there (numpy.finfo's `resolution` before it became a property): only callables are judged.
  if (history.kind === 'property' || history.kind === 'attribute') {
    const states = scope.versions.map((v) => stateAt(history, v, scope.matrix.versions).state);
    if (states.some((s) => s !== 'present')) return;
  }
  if (!verifyPresent(scope, path, member.range, history, ref.guarded)) return;
  if (!ref.guarded) checkDeprecated(scope, path, member.range, history);
  if (receiver.members.length === 1) checkCall(scope, ref, history, true);
}

/** The matrix and pin a reference is checked against; null when its library is untracked or unpinned. */
function libraryOf(ref: ApiReference, ctx: CheckContext): { matrix: LibraryMatrix; pin: Pin } | null {
  const rootPath = ref.receiver ? ref.receiver.producer : ref.prefixes[0]?.path;
  if (!rootPath) return null;
  const root = rootPath.split('.')[0]!;
  const matrix = ctx.catalog.forImportRoot(root);
  if (!matrix) return null;
  // The root module is an API of its own (tomllib, of Python), unless the project has a module of that name.
  if (!ref.builtin && ctx.localModules?.has(root) && rootIsVersioned(matrix, root)) return null;
  const pin = ctx.pins.get(normalizeDistributionName(matrix.distribution));
  return pin ? { matrix, pin } : null;
}

function checkReference(ref: ApiReference, matrix: LibraryMatrix, pin: Pin, verdicts: Verdict[], catalog: MatrixCatalog): void {
  const versions = versionsUnderPin(pin, matrix);
  if (versions.length === 0) return;

  const scope: Scope = { matrix, catalog, pin, versions, verdicts };
  if (ref.receiver) {
    checkInstanceReference(scope, ref);
    return;
  }

  let history: ApiHistory | undefined;
  // The root module is an API of its own where the matrix versions it (tomllib, of Python).
  const root = ref.prefixes[0]?.path;
  const firstToCheck = ref.origin === 'import' && ref.firstToCheck === 1 && root !== undefined && rootIsVersioned(matrix, root) ? 0 : ref.firstToCheck;
  const guardedAt = (i: number) => ref.guarded || i < (ref.guardedPrefixes ?? 0);
  let deprecated = false;
  let parent: ApiHistory | undefined = firstToCheck > 0 ? matrix.lookup(ref.prefixes[firstToCheck - 1]!.path) : undefined;
  for (let i = 0; i < ref.prefixes.length; i++) {
    const prefix = ref.prefixes[i]!;
    const lastSegment = prefix.path.slice(prefix.path.lastIndexOf('.') + 1);
    if (i < firstToCheck) {
      history = matrix.lookup(prefix.path);
      if (!history) return; // bound to something the matrix does not know: reported (or not) where it was bound
      // Bound to what the pinned versions lack: the import is reported; its uses would only repeat it.
      if (i === firstToCheck - 1 && versions.some((v) => stateAt(history!, v, matrix.versions).state === 'absent')) return;
      continue;
    }
    if (lastSegment.startsWith('_')) return; // private and dunder names are outside the public surface
    history = resolvedSomewhere(ref.origin === 'star' ? exportedOnly(matrix.lookup(prefix.path)) : matrix.lookup(prefix.path));
    // Test packages are never part of the surface the probe walks, so their absence proves nothing, nor does a
    // version where a walk happened to reach one (numpy.core.tests through numpy 2.2.3's numpy.core shim).
    const inTests = prefix.path.split('.').some((segment) => segment === 'tests' || segment === 'test' || segment === 'conftest');
    if (history && inTests) return;
    if (!history) {
      if (ref.builtin && i === firstToCheck) return; // a name the file never binds, and no builtin: not ours to judge
      // Only a module whose names the matrix knows can lack one (not one seen only as another's attribute).
      const parentIsModule = i === 0 || (parent?.kind === 'module' && matrix.hasMembers?.(parent.api) !== false);
      if (parentIsModule && !inTests && ref.origin !== 'star' && !guardedAt(i) && !matrix.isUnresolved(prefix.path)) {
        const elsewhere = elsewhereInCatalog(scope.catalog, matrix, prefix.path);
        scope.verdicts.push({ code: 'unknown-api', ...verdictBase(scope, prefix.range, prefix.path, [], elsewhere) });
      }
      return;
    }
    const before = scope.verdicts.length;
    if (!verifyPresent(scope, prefix.path, prefix.range, history, guardedAt(i))) {
      if (scope.verdicts.length > before) rehomeAnachronism(scope, ref, i, history);
      return;
    }
    // One deprecation per reference: the first prefix that is deprecated (numpy.matlib, not each name read from it).
    if (!deprecated && !guardedAt(i)) deprecated = checkDeprecated(scope, prefix.path, prefix.range, history);
    if (i < ref.prefixes.length - 1 && history.kind !== 'module' && history.kind !== 'class') return;
    parent = history;
  }
  if (history) checkCall(scope, ref, history, false);
}

function judgeInto(refs: readonly ApiReference[], ctx: CheckContext, memo: CheckMemo | undefined, verdicts: Verdict[]): void {
  for (const ref of refs) {
    const library = libraryOf(ref, ctx);
    if (!library) continue;
    const { matrix } = library;
    // Pins that markers leave possible side by side (core/pins.ts choosePins): the code is checked under each.
    for (const pin of [library.pin, ...(library.pin.alternatives ?? [])]) {
      if (!memo) checkReference(ref, matrix, pin, verdicts, ctx.catalog);
      else {
        for (const v of memo.verdicts(ctx.catalog, pin, ref, () => {
          const own: Verdict[] = [];
          checkReference(ref, matrix, pin, own, ctx.catalog);
          return own;
        })) verdicts.push(v);
      }
    }
  }
}

/** One verdict per place and code (the same chain can be reached twice, e.g. two star imports), in source order. */
function settled(verdicts: Verdict[]): Verdict[] {
  if (verdicts.length === 0) return verdicts;
  const seen = new Set<string>();
  return verdicts
    .filter((f) => {
      const key = `${f.code}|${f.api}|${f.parameter}|${f.range.start.line}:${f.range.start.column}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column || a.code.localeCompare(b.code));
}

/** What the checker decides about each reference, as data: one verdict per place and code, in source order. */
export function judgeReferences(refs: readonly ApiReference[], ctx: CheckContext, memo?: CheckMemo): Verdict[] {
  const verdicts: Verdict[] = [];
  judgeInto(refs, ctx, memo, verdicts);
  return settled(verdicts);
}

/**
 * The findings of a file's references as linking gives them, chunk by chunk relative to each chunk's start
 * (references.ts ChunkReferences), placed in the file. Equal to checkReferences on the placed references: a verdict
 * lies where its reference is written, chunks do not overlap and come in document order, so settling each chunk's
 * verdicts (one per place and code, in source order) settles the file's. With `memo`, a chunk's unchanged references
 * are the same objects wherever it moved, and their verdicts and findings are found by identity.
 */
export function checkReferenceChunks(chunks: readonly ChunkReferences[], ctx: CheckContext, memo?: CheckMemo): Finding[] {
  const out: Finding[] = [];
  const verdicts: Verdict[] = [];
  // A chunk's references met again (the same object) under the same context have the same findings, relative to it.
  const contextKey = memo?.contextKey(ctx) ?? '';
  for (const { origin, refs } of chunks) {
    let findings = memo?.chunkFindings(refs, ctx.catalog, contextKey);
    if (!findings) {
      verdicts.length = 0;
      judgeInto(refs.imports, ctx, memo, verdicts);
      judgeInto(refs.fromImports, ctx, memo, verdicts);
      judgeInto(refs.attributes, ctx, memo, verdicts);
      judgeInto(refs.names, ctx, memo, verdicts);
      findings = verdicts.length === 0 ? [] : settled(verdicts).map((v) => (memo ? memo.finding(v, findingOf) : findingOf(v)));
      memo?.rememberChunkFindings(refs, ctx.catalog, contextKey, findings);
    }
    for (const f of findings) out.push(memo ? memo.placed(f, origin) : { ...f, range: placeRange(f.range, origin) });
  }
  return out;
}

/**
 * The findings the verdicts become (core/rules/: one module per code). With `memo`, a reference already judged under
 * the same pin and matrices is not judged again (core/check-memo.ts).
 */
export function checkReferences(refs: readonly ApiReference[], ctx: CheckContext, memo?: CheckMemo): Finding[] {
  const verdicts = judgeReferences(refs, ctx, memo);
  return memo ? verdicts.map((v) => memo.finding(v, findingOf)) : verdicts.map(findingOf);
}
