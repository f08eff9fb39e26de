// The built-in reference models: honest documentation-retrieval algorithms over the compatibility matrices, answering
// from the same prompt text a remote model receives. `pinned` answers from the column of the version the prompt states
// (a version-aware model); `newest` always answers from the newest tracked version (a version-oblivious model). They
// give the metrics a floor and a known mechanism: they tie where the API is stable and differ where it evolved.
// Pure: the matrices arrive as a MatrixCatalog plus a listing of each library's API paths. Heuristics are documented
// in docs/benchmark-models.md.
import { formatSignature, type ApiHistory, type LibraryMatrix, type MatrixCatalog, type Signature, type VersionCell } from '../../core/api-model.js';
import { placeVersion } from '../../core/versions.js';
import { NAME_PLACEHOLDER, parsePrompt, PromptContractError, type ApiCPrompt, type ApiIPrompt, type PromptSpec, type SrPrompt } from './prompt-contract.js';
import { TfIdfIndex, tokenize } from '../../core/tfidf.js';
import { readToolAnswer, type ReadAnswer } from '../../knowledge/render.js';
import type { ApiListing } from '../../store/api-listing.js';
import { calleeExpression, importBindings, type ImportBinding } from '../python-text/imports.js';
import { extractSignature } from '../python-text/signature.js';
import { cellAt, isPrivatePath, leafName, parentPath } from '../../core/api-path.js';

export type ReferenceMode = 'pinned' | 'newest';

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield self cls print len range str int float list dict set tuple'.split(' '),
);

interface LibraryIndex {
  matrix: LibraryMatrix;
  children: Map<string, string[]>;
  paths: readonly string[];
}

export class ReferenceModel {
  private readonly libraries = new Map<string, LibraryIndex>();
  private readonly memberIndexes = new Map<string, TfIdfIndex<string>>();
  private readonly callableIndexes = new Map<string, TfIdfIndex<string>>();

  constructor(
    private readonly catalog: MatrixCatalog,
    private readonly listing: ApiListing,
    readonly mode: ReferenceMode,
  ) {}

  /** The answer text for a rendered prompt; '' when the prompt does not follow the contract or nothing matches. */
  answerPrompt(prompt: Parameters<typeof parsePrompt>[0]): string {
    let spec: PromptSpec;
    try {
      spec = parsePrompt(prompt);
    } catch (e) {
      if (e instanceof PromptContractError) return '';
      throw e;
    }
    return this.answer(spec);
  }

  answer(spec: PromptSpec): string {
    const lib = this.library(spec.library);
    if (!lib) return '';
    // The grounded arm: documentation in the prompt (anachron's answer) is read and preferred where it says
    // something about the question; the model's own recollection fills in where it does not.
    const doc = spec.grounding !== undefined ? readToolAnswer(spec.grounding) : null;
    switch (spec.task) {
      case 'API-I':
        return (doc && identifyFromDocumentation(doc, spec)) ?? this.identify(lib, spec);
      case 'SR':
        return (doc && signatureFromDocumentation(doc, spec)) ?? this.recallSignature(lib, spec);
      case 'API-C':
        return this.completeCall(lib, spec, doc);
    }
  }

  /**
   * The version column the model answers from: the stated version (or the nearest tracked one at or below it, else
   * the oldest) in pinned mode; the newest tracked version in newest mode, and whenever the prompt states none.
   */
  chooseVersion(matrix: LibraryMatrix, stated: string | undefined): string {
    const newest = matrix.versions[matrix.versions.length - 1]!;
    if (this.mode === 'newest' || stated === undefined) return newest;
    const place = placeVersion(stated, matrix.versions);
    if (place.kind === 'exact') return matrix.versions[place.index]!;
    return matrix.versions[place.below ?? 0]!;
  }

  // ---- API-I ------------------------------------------------------------------------------------------------------

  private identify(lib: LibraryIndex, spec: ApiIPrompt): string {
    const version = this.chooseVersion(lib.matrix, spec.version);
    const index = this.memberIndex(lib, spec.module, version);
    const query = tokenize(spec.description.split(NAME_PLACEHOLDER).join(' '));
    const best = pickBest(index.search(query));
    if (best) return leafName(best);
    // Nothing shares a word with the description: the first member present at that version, if any.
    const members = (lib.children.get(spec.module) ?? []).filter((p) => isPresent(cellAt(lib.matrix.lookup(p), version)));
    return members.length > 0 ? leafName(members[0]!) : '';
  }

  private memberIndex(lib: LibraryIndex, parent: string, version: string): TfIdfIndex<string> {
    const key = `${lib.matrix.library}\0${version}\0${parent}`;
    let index = this.memberIndexes.get(key);
    if (!index) {
      index = new TfIdfIndex<string>();
      for (const path of lib.children.get(parent) ?? []) {
        const cell = cellAt(lib.matrix.lookup(path), version);
        if (isPresent(cell) && cell!.doc) index.add(path, tokenize(cell!.doc));
      }
      this.memberIndexes.set(key, index);
    }
    return index;
  }

  // ---- SR -----------------------------------------------------------------------------------------------------------

  private recallSignature(lib: LibraryIndex, spec: SrPrompt): string {
    const history = lib.matrix.lookup(spec.api);
    if (!history) return '';
    const version = this.chooseVersion(lib.matrix, spec.version);
    const signature = signatureNear(history, version);
    return signature ? formatSignature(leafName(spec.api), stripReceiver(signature, history, version)) : '';
  }

  // ---- API-C --------------------------------------------------------------------------------------------------------

  private completeCall(lib: LibraryIndex, spec: ApiCPrompt, doc: ReadAnswer | null = null): string {
    const version = this.chooseVersion(lib.matrix, spec.version);
    const bindings = importBindings(spec.prefix + '\n' + spec.suffix, lib.matrix.library);
    let target = spec.api;
    // Documentation in the prompt: the API it answers about (the named one), or its best match for the description,
    // with the signature it gives.
    const importable = (path: string) => bindings.length === 0 || bindings.some((b) => path === b.target || path.startsWith(b.target + '.') || (b.star && parentPath(path) === b.target));
    const documented = doc ? documentedCallable(doc, target, importable) : null;
    if (documented) {
      target = documented.api;
      if (documented.signature) return `${calleeExpression(target, bindings)}(${chooseArguments(documented.signature, spec).join(', ')})`;
    }
    if (target === undefined) {
      const reachable = (path: string) => bindings.length === 0 || bindings.some((b) => path === b.target || path.startsWith(b.target + '.') || (b.star && parentPath(path) === b.target));
      const query = spec.description !== undefined ? tokenize(spec.description.split(NAME_PLACEHOLDER).join(' ')) : contextTokens(spec, bindings);
      target = pickBest(this.callableIndex(lib, version).search(query, reachable));
      if (target === undefined) return '';
    }
    const history = lib.matrix.lookup(target);
    const signature = history ? signatureNear(history, version) : null;
    const callee = calleeExpression(target, bindings);
    const args = signature && history ? chooseArguments(stripReceiver(signature, history, version), spec) : [];
    return `${callee}(${args.join(', ')})`;
  }

  /** Functions and classes present at the version, each a document of its name's words (twice) and its summary. */
  private callableIndex(lib: LibraryIndex, version: string): TfIdfIndex<string> {
    const key = `${lib.matrix.library}\0${version}`;
    let index = this.callableIndexes.get(key);
    if (!index) {
      index = new TfIdfIndex<string>();
      for (const path of lib.paths) {
        if (isPrivatePath(path)) continue;
        const cell = cellAt(lib.matrix.lookup(path), version);
        if (!isPresent(cell) || (cell!.kind !== 'function' && cell!.kind !== 'class')) continue;
        const name = tokenize(leafName(path));
        index.add(path, [...name, ...name, ...tokenize(cell!.doc ?? '')]);
      }
      this.callableIndexes.set(key, index);
    }
    return index;
  }

  private library(name: string): LibraryIndex | undefined {
    let lib = this.libraries.get(name);
    if (lib) return lib;
    const matrix = this.catalog.forImportRoot(name) ?? this.catalog.libraries().find((m) => m.distribution === name);
    if (!matrix) return undefined;
    const paths = [...this.listing(matrix)].sort();
    const children = new Map<string, string[]>();
    for (const path of paths) {
      const parent = parentPath(path);
      if (parent === '') continue;
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(path);
    }
    lib = { matrix, children, paths };
    this.libraries.set(name, lib);
    return lib;
  }
}

// ---- reading documentation in the prompt (the grounded arm) ------------------------------------------------------------

/** A signature as documentation writes it ("trapz(y, x=None, dx=1.0, axis=-1)"), read back; null when it does not parse. */
function parseSignatureText(text: string): Signature | null {
  const x = extractSignature(text);
  if (!x.ok) return null;
  return { parameters: x.value.parameters.map((p) => ({ name: p.name, kind: p.kind, default: p.default })) };
}

/** Methods are called without their receiver. */
function callerSignature(signature: Signature, kind: string | null): Signature {
  const first = signature.parameters[0];
  return kind === 'method' && first && (first.name === 'self' || first.name === 'cls') ? { parameters: signature.parameters.slice(1) } : signature;
}

/** API-I: the documentation's best match among the module's members. */
function identifyFromDocumentation(doc: ReadAnswer, spec: ApiIPrompt): string | null {
  const match = doc.matches.find((m) => parentPath(m.api) === spec.module);
  return match ? leafName(match.api) : null;
}

/** SR: the signature the documentation states for the API at the version, when it is about that API. */
function signatureFromDocumentation(doc: ReadAnswer, spec: SrPrompt): string | null {
  if (doc.api !== spec.api || doc.exists === false || doc.signatures.length === 0) return null;
  const signature = parseSignatureText(doc.signatures[0]!);
  return signature ? formatSignature(leafName(spec.api), callerSignature(signature, doc.apiKind)) : null;
}

/** API-C: the callable the documentation points to for the call (the named API, or its best match) and its signature. */
function documentedCallable(doc: ReadAnswer, named: string | undefined, importable: (path: string) => boolean): { api: string; signature: Signature | null } | null {
  if (named !== undefined) {
    if (doc.api !== named || doc.exists === false || doc.signatures.length === 0) return null;
    const signature = parseSignatureText(doc.signatures[0]!);
    return { api: named, signature: signature ? callerSignature(signature, doc.apiKind) : null };
  }
  // The best match the snippet's imports reach (np.linalg.norm through `import numpy as np`), else the best.
  const match = doc.matches.find((m) => importable(m.api)) ?? doc.matches[0];
  if (!match) return null;
  const signature = match.signature ? parseSignatureText(match.signature) : null;
  return { api: match.api, signature: signature ? callerSignature(signature, match.kind) : null };
}

// ---- helpers (exported for tests) ------------------------------------------------------------------------------------

function isPresent(cell: VersionCell | undefined): boolean {
  return cell?.state === 'present';
}

/**
 * Best-scoring key; ties go to the public path with the fewest components (numpy.mean over numpy.core.fromnumeric.mean),
 * then the shorter, then the alphabetically first. Zero scores do not count.
 */
function pickBest(scored: { key: string; score: number }[]): string | undefined {
  let best: { key: string; score: number } | undefined;
  const depth = (p: string) => p.split('.').length;
  for (const s of scored) {
    if (!(s.score > 1e-12)) continue;
    if (!best) {
      best = s;
      continue;
    }
    const d = s.score - best.score;
    if (d > 1e-9) best = s;
    else if (d > -1e-9) {
      const byDepth = depth(s.key) - depth(best.key);
      if (byDepth < 0 || (byDepth === 0 && (s.key.length < best.key.length || (s.key.length === best.key.length && s.key < best.key)))) best = s;
    }
  }
  return best?.key;
}

/** The signature at the version; where the API has none there, the one of the nearest version that has one. */
function signatureNear(history: ApiHistory, version: string): Signature | null {
  const at = history.versions.findIndex((c) => c.version === version);
  const cells = history.versions;
  if (at >= 0 && cells[at]!.signature && cells[at]!.state === 'present') return cells[at]!.signature;
  for (let d = 1; d < cells.length; d++) {
    for (const i of [at - d, at + d]) {
      const c = cells[i];
      if (c && c.signature && c.state === 'present') return c.signature;
    }
  }
  return null;
}

/** Methods are shown without their receiver (self/cls), as a caller writes them. */
function stripReceiver(signature: Signature, history: ApiHistory, version: string): Signature {
  const kind = cellAt(history, version)?.kind ?? history.kind;
  const first = signature.parameters[0];
  if (kind === 'method' && first && (first.name === 'self' || first.name === 'cls')) return { parameters: signature.parameters.slice(1) };
  return signature;
}


/** Words of the code around the mask (the lines just before it, its own line, the line after), minus keywords and import names. */
function contextTokens(spec: ApiCPrompt, bindings: readonly ImportBinding[]): string[] {
  const before = spec.prefix.split('\n');
  const after = spec.suffix.split('\n');
  const window = [...before.slice(-4), ...after.slice(0, 2)].filter((l) => !/^\s*(import|from)\s/.test(l)).join('\n');
  const locals = new Set(bindings.map((b) => b.local.toLowerCase()));
  return tokenize(window).filter((t) => !PY_KEYWORDS.has(t) && !locals.has(t));
}

/**
 * Arguments for the call: each required positional parameter gets the same-named variable of the snippet, else the
 * most recently assigned variable not used yet, else its own name; an optional parameter is passed by keyword when the
 * snippet has a variable of that name (`axis=axis`) or passes that keyword elsewhere (`axis=0`).
 */
function chooseArguments(signature: Signature, spec: ApiCPrompt): string[] {
  const code = spec.prefix + '\n' + spec.suffix;
  const identifiers = new Set(code.match(/\b[A-Za-z_]\w*\b/g) ?? []);
  const assigned: string[] = [];
  // Complete lines only: the line of the mask assigns the call's own result.
  const complete = spec.prefix.slice(0, Math.max(0, spec.prefix.lastIndexOf('\n')));
  for (const m of complete.matchAll(/^\s*([A-Za-z_]\w*)\s*=(?!=)/gm)) assigned.push(m[1]!);
  const used = new Set<string>();
  const args: string[] = [];
  for (const p of signature.parameters) {
    if (p.kind === 'var_positional' || p.kind === 'var_keyword') continue;
    const required = p.default === null && (p.kind === 'positional_only' || p.kind === 'positional_or_keyword');
    if (required) {
      let value = identifiers.has(p.name) && !PY_KEYWORDS.has(p.name) ? p.name : undefined;
      if (value === undefined) {
        for (let i = assigned.length - 1; i >= 0; i--) {
          if (!used.has(assigned[i]!)) {
            value = assigned[i]!;
            break;
          }
        }
      }
      value ??= p.name;
      used.add(value);
      args.push(value);
      continue;
    }
    if (p.kind === 'positional_only') continue;
    if (assigned.includes(p.name)) {
      args.push(`${p.name}=${p.name}`);
      continue;
    }
    // The keyword passed in another call of the snippet: `f(x, axis=0)`.
    const seen = new RegExp(`[(,]\\s*${p.name}\\s*=(?!=)\\s*([^,()\\n]+)`).exec(code);
    if (seen) args.push(`${p.name}=${seen[1]!.trim()}`);
  }
  return args;
}
