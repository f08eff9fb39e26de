// Code that expects an API to be missing and handles it is not an anachronism: imports inside
// `try: … except ImportError:` (and the handler), uses under `if hasattr(mod, "name"):` (and the other branch),
// branches selected by the library's or Python's version (`sys.version_info >= (3, 11)`, and tests a skip decorator
// runs only on some versions), and blocks that expect an exception (`with pytest.raises(…)`). Code that never runs is
// not either: `if TYPE_CHECKING:` blocks, and annotations under `from __future__ import annotations`.
// Each chunk's guarded regions are read once into plain data (`guardFacts`); whether a condition reads a version can
// depend on a flag assigned elsewhere in the file, so the regions are settled when the file's chunks are linked
// (`GuardIndex`), and a reference is then guarded when a region holds it.
import type { SyntaxCopy, SyntaxNode } from './syntax-tree.js';
import { walk } from './syntax.js';
import type { Span } from './chunk-position.js';

/**
 * Expressions that read a library's version: a condition using one selects code per version. The last form is a
 * project's own helper, imported from elsewhere, called with a version (`_version_predates(np, "1.22")`).
 */
const READS_VERSION = /__version__|\bsys\.(?:version_info|version|hexversion|implementation)\b|\bpython_implementation\s*\(|\bIS_PYPY\b|\bversion_info\s*(?:[<>=!]|\[)|\bpython_version(?:_tuple)?\s*\(|NumpyVersion|parse_version|LooseVersion|StrictVersion|version\.parse|packaging\.version|\bVersion\(|importlib\.metadata|pkg_resources|get_distribution|\bversion\.(?:version|full_version|short_version)\b|\bversion\(\s*['"]|\b\w*[vV]ersion\w*\s*\([^()]*['"]v?\d+(?:\.\d+)+['"]/;

/** How a reference fails when what it names is missing: the exception a handler must catch to guard it. */
export type Failure = 'module-import' | 'import' | 'attribute' | 'name' | 'call';

const ALL_FAILURES: Failure[] = ['module-import', 'import', 'attribute', 'name', 'call'];

/**
 * The builtin exceptions a handler can name to catch the failure of a missing API, and what each catches, by Python's
 * hierarchy: ModuleNotFoundError ⊂ ImportError ⊂ Exception ⊂ BaseException. A subclass catches less than its base:
 * `except ModuleNotFoundError` catches a missing module (`import numpy.exceptions`), not a missing name
 * (`from numpy import trapezoid`, a plain ImportError); `except TypeError` catches a keyword a call does not take.
 */
const CATCHES: ReadonlyMap<string, readonly Failure[]> = new Map<string, readonly Failure[]>([
  ['BaseException', ALL_FAILURES],
  ['Exception', ALL_FAILURES],
  ['ImportError', ['module-import', 'import']],
  ['ModuleNotFoundError', ['module-import']],
  ['AttributeError', ['attribute']],
  ['NameError', ['name']],
  ['TypeError', ['call']],
]);

/** What a bare `except:` names: everything. */
const EVERYTHING = '*';

/**
 * The exception names an except clause (or `contextlib.suppress(…)`) catches, as written: `except (ImportError, E) as
 * e:` gives ImportError and E; `builtins.ImportError` is ImportError; any other dotted name is the project's or another
 * library's class and catches none of the failures. A bare `except:` gives EVERYTHING. The names are settled against
 * the file's exception aliases (`_ERRORS = (ImportError, AttributeError)`) when the file is linked.
 */
function namesIn(text: string): string[] {
  const out: string[] = [];
  for (const name of text.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? []) {
    out.push(name.startsWith('builtins.') ? name.slice('builtins.'.length) : name);
  }
  return out;
}

function handlerNames(clause: SyntaxNode): string[] {
  // Header is everything before the clause's block, comments dropped (`except:  # noqa: E722`).
  const block = clause.namedChildren.find((c) => c.type === 'block');
  const header = block ? clause.text.slice(0, block.startIndex - clause.startIndex) : clause.text;
  const caught = header.replace(/#[^\n]*/g, '').replace(/^except\*?/, '').replace(/:\s*$/, '').replace(/\bas\s+[A-Za-z_][A-Za-z0-9_]*\s*$/, '').trim();
  return caught === '' ? [EVERYTHING] : namesIn(caught);
}

/** Resolves exception names to the failures they catch, through the file's aliases of exception names. */
export function failuresCaught(names: readonly string[], aliases: ReadonlyMap<string, readonly string[]>): Set<Failure> {
  const out = new Set<Failure>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    if (name === EVERYTHING) ALL_FAILURES.forEach((f) => out.add(f));
    const builtin = CATCHES.get(name);
    if (builtin) builtin.forEach((f) => out.add(f));
    else aliases.get(name)?.forEach(visit);
  };
  names.forEach(visit);
  return out;
}

/** `_ERRORS = (ImportError, AttributeError)`, `IE = ImportError`: a name bound to exception names. */
function exceptionAliasOf(right: SyntaxNode): string[] | null {
  let value = right;
  while (value.type === 'parenthesized_expression' && value.namedChildren.length === 1) value = value.namedChildren[0]!;
  const items = value.type === 'tuple' ? value.namedChildren : [value];
  if (items.length === 0 || !items.every((i) => i.type === 'identifier' || i.type === 'attribute')) return null;
  const names = namesIn(items.map((i) => i.text).join(' '));
  return names.some((n) => CATCHES.has(n) || /(?:Error|Exception)$/.test(n)) ? names : null;
}

/** `with pytest.raises(…)`, `with assert_raises(…)`, `with self.assertRaises(…)`: the block is meant to fail. */
const EXPECTS_FAILURE = /(^|\.)(raises|assert_raises|assertRaises|assert_raises_regex|assertRaisesRegex|raises_regex)\s*\(/;

/** Decorators that run a test only where their condition allows (pytest, unittest). */
const SKIPS = /\b(?:skipif|skipIf|skipUnless|skip|xfail|requires)\s*\(/;

/** `if TYPE_CHECKING:` / `if typing.TYPE_CHECKING:`: a block that never runs. */
const TYPE_CHECKING = /^\(?\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)?TYPE_CHECKING\s*\)?$/;

/** A guarded region of a chunk, offsets relative to the chunk's start. */
export interface RegionFact {
  start: number;
  /**
   * 'parent-end': to the end of the block that holds the chunk (the rest of it, after an early exit); 'chunk-end': to
   * the end of the chunk's node, a class whose body statements are chunks of their own (a decorated test class).
   */
  end: number | 'parent-end' | 'chunk-end';
  /** Only references using one of these names are guarded; null guards every reference in the region. */
  names: string[] | null;
  /** Only these failures are guarded (a try body guards what its handlers catch); null guards every failure. */
  failures: Failure[] | null;
  /**
   * The exception names of the handlers (a try body, `contextlib.suppress(…)`): the failures they catch are settled
   * against the file's exception aliases when it is linked; the region guards nothing when they catch none.
   */
  catches?: string[];
}

/** An `if`/`elif` or conditional expression: it selects code per version, or else probes attributes. */
export interface ConditionalFact {
  span: Span;
  /** The condition reads a version itself. */
  readsVersion: boolean;
  /** The condition's words: it reads a version when one of them is a version flag of the file. */
  words: string[];
  /** The regions when the condition reads no version (its hasattr()/getattr() probes). */
  probes: RegionFact[];
  /** The span reaches to the end of the chunk's node (a decorated class, whose body is chunks of its own). */
  toChunkEnd?: true;
}

export interface GuardFacts {
  regions: RegionFact[];
  conditionals: ConditionalFact[];
  /**
   * Names assigned from an expression that reads a library version (`NP2 = np.__version__ >= "2"`), and functions that
   * return one (`def _version_predates(lib, v): return Version(lib.__version__) < Version(v)`).
   */
  versionFlags: string[];
  /** Names bound to exception names (`_ERRORS = (ImportError, AttributeError)`), for the handlers that name them. */
  exceptionAliases: [string, string[]][];
  /** `from __future__ import annotations`: the file's annotations are never evaluated. */
  postponesAnnotations: boolean;
  /** The chunk's annotations (`type` nodes), guarded when some chunk of the file postpones annotations. */
  annotations: Span[];
}

/** String literals passed to hasattr()/getattr() in a condition. */
function probedAttributeNames(condition: SyntaxNode): string[] {
  const names = new Set<string>();
  walk(condition, (n) => {
    if (n.type !== 'call') return;
    const fn = n.childForFieldName('function');
    if (!fn || (fn.text !== 'hasattr' && fn.text !== 'getattr')) return;
    const nameArg = n.childForFieldName('arguments')?.namedChildren[1];
    if (nameArg?.type === 'string') names.add(nameArg.text.replace(/^[rbuRBU]*['"]+|['"]+$/g, ''));
  });
  return [...names];
}

/** `not hasattr(…)` / `not getattr(…)`: the probe is negated, so the branches swap roles. */
function isNegated(condition: SyntaxNode): boolean {
  return condition.type === 'not_operator' || /^\(*\s*not\b/.test(condition.text);
}

const EXITS = new Set(['return_statement', 'raise_statement', 'continue_statement', 'break_statement']);

/** Whether a block always leaves the enclosing code (its last statement returns, raises, continues or breaks). */
function exits(block: SyntaxNode | null): boolean {
  const last = block?.namedChildren.filter((c) => c.type !== 'comment').pop();
  return !!last && EXITS.has(last.type);
}

function conditionWords(condition: SyntaxNode): string[] {
  return [...new Set(condition.text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])];
}

/** Facts of a chunk in offsets relative to its start. */
class ChunkOffsets {
  constructor(private readonly chunkStart: number) {}
  span(node: SyntaxNode): Span {
    return { start: node.startIndex - this.chunkStart, end: node.endIndex - this.chunkStart };
  }
  region(node: SyntaxNode, names: string[] | null, failures: Failure[] | null = null): RegionFact {
    return { ...this.span(node), names, failures };
  }
  conditional(node: SyntaxNode, condition: SyntaxNode, probes: RegionFact[]): ConditionalFact {
    return { span: this.span(node), readsVersion: READS_VERSION.test(condition.text), words: conditionWords(condition), probes };
  }
  /** A position of the file, relative to the chunk (or "parent-end": the end of the block above the chunk, known at linking). */
  offset(index: number): number {
    return index - this.chunkStart;
  }
}

type NodesOfType = (type: string) => readonly SyntaxNode[];

/** `try` bodies and their handlers, each handler the fallback for the versions where the body failed (when it catches that failure at all). */
function tryRegions(ofType: NodesOfType, at: ChunkOffsets): RegionFact[] {
  const regions: RegionFact[] = [];
  for (const t of ofType('try_statement')) {
    const handlers = t.namedChildren.filter((c) => c.type === 'except_clause' || c.type === 'except_group_clause');
    if (handlers.length === 0) continue;
    const names = handlers.map(handlerNames);
    const body = t.childForFieldName('body');
    if (body) regions.push({ ...at.region(body, null, []), catches: [...new Set(names.flat())] });
    handlers.forEach((h, i) => regions.push({ ...at.region(h, null), catches: names[i]! }));
  }
  return regions;
}

/** `with pytest.raises(…):` bodies expect a failure; `with contextlib.suppress(ImportError):` catches what it names, like a handler with an empty body. */
function withRegions(ofType: NodesOfType, at: ChunkOffsets): RegionFact[] {
  const regions: RegionFact[] = [];
  for (const w of ofType('with_statement')) {
    const clause = w.namedChildren.find((c) => c.type === 'with_clause');
    const body = w.childForFieldName('body');
    if (!clause || !body) continue;
    if (EXPECTS_FAILURE.test(clause.text)) regions.push(at.region(body, null));
    for (const item of clause.namedChildren) {
      const call = item.type === 'with_item' ? item.namedChildren[0] : null;
      const fn = call?.type === 'call' ? call.childForFieldName('function') : null;
      if (!fn || !/^(?:contextlib\.)?suppress$/.test(fn.text)) continue;
      const args = call!.childForFieldName('arguments');
      regions.push({ ...at.region(body, null, []), catches: namesIn(args ? args.text : '') });
    }
  }
  return regions;
}

/** The regions a `hasattr`/`getattr` probe of an `if`/`elif` sets up: the branch that uses the probed names, the fallback, and after an early exit the rest of the block. */
function ifProbes(s: SyntaxNode, condition: SyntaxNode, at: ChunkOffsets): RegionFact[] {
  const probes: RegionFact[] = [];
  const probed = probedAttributeNames(condition);
  if (probed.length === 0) return probes;
  const negated = isNegated(condition);
  const consequence = s.childForFieldName('consequence');
  const alternatives = s.childrenForFieldName('alternative');
  // The branch taken when the probe succeeds uses the probed names; the other branch is the fallback.
  if (consequence) probes.push(at.region(consequence, negated ? null : probed));
  for (const alt of alternatives) probes.push(at.region(alt, negated ? probed : null));
  // `if not hasattr(np, "x"): return fallback()` — the rest of the block runs only where the probe succeeded.
  const parent = s.parent;
  if (negated && s.type === 'if_statement' && alternatives.length === 0 && exits(consequence) && parent) {
    // Above the chunk's root stands the block that holds it, whose end is known only when the file is linked.
    const end = parent.parent === null ? 'parent-end' : at.offset(parent.endIndex);
    probes.push({ start: at.offset(s.endIndex), end, names: probed, failures: null });
  }
  return probes;
}

/** `if`/`elif`: code for type checkers only, or branches written for specific versions (every branch, when the condition reads one). */
function ifFacts(ofType: NodesOfType, at: ChunkOffsets): { regions: RegionFact[]; conditionals: ConditionalFact[] } {
  const regions: RegionFact[] = [];
  const conditionals: ConditionalFact[] = [];
  for (const s of [...ofType('if_statement'), ...ofType('elif_clause')]) {
    const condition = s.childForFieldName('condition');
    if (!condition) continue;
    if (TYPE_CHECKING.test(condition.text)) {
      const consequence = s.childForFieldName('consequence');
      if (consequence) regions.push(at.region(consequence, null)); // read by type checkers only
      continue;
    }
    conditionals.push(at.conditional(s, condition, ifProbes(s, condition, at)));
  }
  return { regions, conditionals };
}

/** `a if hasattr(…) else b`, and any conditional expression whose condition may read a version. */
function conditionalExpressionFacts(ofType: NodesOfType, at: ChunkOffsets): ConditionalFact[] {
  const conditionals: ConditionalFact[] = [];
  for (const e of ofType('conditional_expression')) {
    const [whenTrue, condition, whenFalse] = e.namedChildren;
    if (!condition) continue;
    const probes: RegionFact[] = [];
    const probed = probedAttributeNames(condition);
    if (probed.length > 0) {
      const negated = isNegated(condition);
      if (whenTrue) probes.push(at.region(whenTrue, negated ? null : probed));
      if (whenFalse) probes.push(at.region(whenFalse, negated ? probed : null));
    }
    conditionals.push(at.conditional(e, condition, probes));
  }
  return conditionals;
}

/**
 * `getattr(np, "trapezoid", None) or np.trapz`: the right operand is the fallback. `IS_PYPY and sys.pypy_version_info`,
 * `sys.version_info >= (3, 11) and tomllib.loads(…)`: the right operand runs only where the left one says so.
 */
function booleanOperandFacts(ofType: NodesOfType, at: ChunkOffsets): { regions: RegionFact[]; conditionals: ConditionalFact[] } {
  const regions: RegionFact[] = [];
  const conditionals: ConditionalFact[] = [];
  for (const b of ofType('boolean_operator')) {
    const left = b.childForFieldName('left');
    const right = b.childForFieldName('right');
    if (!left || !right) continue;
    if (probedAttributeNames(left).length > 0) regions.push(at.region(right, null));
    else conditionals.push({ span: at.span(right), readsVersion: READS_VERSION.test(left.text), words: conditionWords(left), probes: [] });
  }
  return { regions, conditionals };
}

/**
 * `@pytest.mark.skipif(sys.version_info < (3, 12), …)`, `@unittest.skipUnless(…)`: the test runs only on the
 * versions its decorator lets through. A decorated class's body statements are chunks of their own: its region
 * reaches to the end of the class, settled when the file is linked.
 */
function skipDecoratorFacts(copy: SyntaxCopy, ofType: NodesOfType, at: ChunkOffsets): ConditionalFact[] {
  const conditionals: ConditionalFact[] = [];
  for (const d of ofType('decorated_definition')) {
    const skips = d.namedChildren.filter((c) => c.type === 'decorator' && SKIPS.test(c.text));
    if (skips.length === 0) continue;
    const text = skips.map((c) => c.text).join('\n');
    const fact: ConditionalFact = { span: at.span(d), readsVersion: READS_VERSION.test(text), words: [...new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])], probes: [] };
    if (d === copy.root && d.childForFieldName('definition')?.type === 'class_definition') fact.toChunkEnd = true;
    conditionals.push(fact);
  }
  return conditionals;
}

/**
 * Names that hold a version test: assigned from one (`NP2 = np.__version__ >= "2"`), or a project's own function
 * that returns one (`def _version_predates(lib, v): return Version(lib.__version__) < Version(v)`); a condition
 * reading one selects code per version like a version comparison does.
 */
function versionFlagsOf(ofType: NodesOfType): string[] {
  const flags: string[] = [];
  for (const n of ofType('assignment')) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type === 'identifier' && right && READS_VERSION.test(right.text)) flags.push(left.text);
  }
  for (const f of ofType('function_definition')) {
    const name = f.childForFieldName('name');
    const body = f.childForFieldName('body');
    if (!name || !body) continue;
    let returnsVersion = false;
    walk(body, (n) => {
      if (!returnsVersion && n.type === 'return_statement' && READS_VERSION.test(n.text)) returnsVersion = true;
    });
    if (returnsVersion) flags.push(name.text);
  }
  return flags;
}

/** Names bound to exception classes: `Missing = (ImportError, AttributeError)`, `from builtins import ImportError as IE`. */
function exceptionAliasesOf(ofType: NodesOfType): [string, string[]][] {
  const aliases: [string, string[]][] = [];
  for (const n of ofType('assignment')) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    const alias = exceptionAliasOf(right);
    if (alias) aliases.push([left.text, alias]);
  }
  for (const n of ofType('import_from_statement')) {
    if (n.childForFieldName('module_name')?.text !== 'builtins') continue;
    for (const item of n.childrenForFieldName('name')) {
      const alias = item.type === 'aliased_import' ? item.childForFieldName('alias') : null;
      const name = item.type === 'aliased_import' ? item.childForFieldName('name') : null;
      if (alias && name) aliases.push([alias.text, [name.text]]);
    }
  }
  return aliases;
}

export function guardFacts(copy: SyntaxCopy, chunkStart: number): GuardFacts {
  const ofType: NodesOfType = (type) => copy.byType.get(type) ?? [];
  const at = new ChunkOffsets(chunkStart);
  const ifs = ifFacts(ofType, at);
  const booleans = booleanOperandFacts(ofType, at);
  const regions = [...tryRegions(ofType, at), ...withRegions(ofType, at), ...ifs.regions, ...booleans.regions];
  const conditionals = [...ifs.conditionals, ...conditionalExpressionFacts(ofType, at), ...booleans.conditionals, ...skipDecoratorFacts(copy, ofType, at)];
  const postponesAnnotations = ofType('future_import_statement').some((n) =>
    n.namedChildren.some((c) => (c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text) === 'annotations'));
  return { regions, conditionals, versionFlags: versionFlagsOf(ofType), exceptionAliases: exceptionAliasesOf(ofType), postponesAnnotations, annotations: ofType('type').map((n) => at.span(n)) };
}

/** A region in file offsets. */
interface Region {
  start: number;
  end: number;
  names: ReadonlySet<string> | null;
  failures: ReadonlySet<Failure> | null;
}

/** Where a chunk sits in its file, as far as guards care: its first offset, its end and the end of the block holding it. */
export interface GuardPlacement {
  start: number;
  end: number;
  parentEnd: number;
}

/**
 * The guarded regions of a linked file. A chunk's regions hold only its own nodes; a region after an early exit
 * reaches over the chunks that follow in the same block, so those are kept apart and asked for every reference.
 */
export class GuardIndex {
  private readonly spanning: Region[] = [];

  /**
   * `postponedAnnotations`: the file has `from __future__ import annotations`; `exceptionAliases`: the file's names
   * bound to exception names (a name bound twice is left out: it catches nothing certain).
   */
  constructor(
    private readonly versionFlags: ReadonlySet<string>,
    private readonly postponedAnnotations = false,
    private readonly exceptionAliases: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {}

  /** The regions of one chunk, settled against the file's version flags; the spanning ones are kept for all chunks. */
  regionsOf(facts: GuardFacts, at: GuardPlacement): Region[] {
    const own: Region[] = [];
    const add = (r: RegionFact) => {
      let failures: ReadonlySet<Failure> | null = r.failures && new Set(r.failures);
      if (r.catches) {
        const caught = failuresCaught(r.catches, this.exceptionAliases);
        if (caught.size === 0) return; // `except ValueError:` guards nothing a missing API raises
        // A try body (failures given) guards what is caught; a handler (failures null) is the fallback for it.
        if (failures !== null) failures = caught;
      }
      const region: Region = {
        start: r.start + at.start,
        end: r.end === 'parent-end' ? at.parentEnd : r.end === 'chunk-end' ? at.end : r.end + at.start,
        names: r.names && new Set(r.names),
        failures,
      };
      (typeof r.end === 'number' ? own : this.spanning).push(region);
    };
    facts.regions.forEach(add);
    for (const c of facts.conditionals) {
      if (c.readsVersion || (this.versionFlags.size > 0 && c.words.some((w) => this.versionFlags.has(w)))) {
        add({ start: c.span.start, end: c.toChunkEnd ? 'chunk-end' : c.span.end, names: null, failures: null });
      } else {
        c.probes.forEach(add);
      }
    }
    if (this.postponedAnnotations) for (const a of facts.annotations) add({ start: a.start, end: a.end, names: null, failures: null });
    return own;
  }

  /** Does a region of some chunk that reaches over others (regionsOf) meet the file offsets [start, end]? */
  spansOver(start: number, end: number): boolean {
    for (const r of this.spanning) if (r.start <= end && start <= r.end) return true;
    return false;
  }

  isGuarded(own: readonly Region[], start: number, end: number, segments: readonly string[], failure: Failure): boolean {
    return holds(own, start, end, segments, failure) || (this.spanning.length > 0 && holds(this.spanning, start, end, segments, failure));
  }
}

function holds(regions: readonly Region[], start: number, end: number, segments: readonly string[], failure: Failure): boolean {
  for (const r of regions) {
    if (r.start > start || end > r.end) continue;
    if (r.failures !== null && !r.failures.has(failure)) continue;
    if (r.names === null) return true;
    for (const s of segments) if (r.names.has(s)) return true;
  }
  return false;
}

export type { Region as GuardRegion };
