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

/** Expressions that read a library's version: a condition using one selects code per version. */
const READS_VERSION = /__version__|\bsys\.(?:version_info|version|hexversion|implementation)\b|\bpython_implementation\s*\(|\bIS_PYPY\b|\bversion_info\s*(?:[<>=!]|\[)|\bpython_version(?:_tuple)?\s*\(|NumpyVersion|parse_version|LooseVersion|StrictVersion|version\.parse|packaging\.version|\bVersion\(|importlib\.metadata|pkg_resources|get_distribution|\bversion\.(?:version|full_version|short_version)\b|\bversion\(\s*['"]/;

/** How a reference fails when what it names is missing: the exception a handler must catch to guard it. */
export type Failure = 'module-import' | 'import' | 'attribute' | 'name' | 'call';

const ALL_FAILURES: Failure[] = ['module-import', 'import', 'attribute', 'name', 'call'];

/** Exceptions and the failures they catch (ModuleNotFoundError only covers a missing module, not a missing name). */
const CAUGHT: [RegExp, Failure[]][] = [
  [/\b(Exception|BaseException)\b/, ALL_FAILURES],
  [/\bImportError\b/, ['module-import', 'import']],
  [/\bModuleNotFoundError\b/, ['module-import']],
  [/\bAttributeError\b/, ['attribute']],
  [/\bNameError\b/, ['name']],
  [/\bTypeError\b/, ['call']],
];

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
  /** Names assigned from an expression that reads a library version (`NP2 = np.__version__ >= "2"`). */
  versionFlags: string[];
  /** `from __future__ import annotations`: the file's annotations are never evaluated. */
  postponesAnnotations: boolean;
  /** The chunk's annotations (`type` nodes), guarded when some chunk of the file postpones annotations. */
  annotations: Span[];
}

/** The failures an except clause catches: `except (ImportError, X) as e:`; a bare `except:` catches them all. */
function caughtBy(clause: SyntaxNode): Set<Failure> {
  // Header is everything before the clause's block, comments dropped (`except:  # noqa: E722`).
  const block = clause.namedChildren.find((c) => c.type === 'block');
  const header = block ? clause.text.slice(0, block.startIndex - clause.startIndex) : clause.text;
  const caught = header.replace(/#[^\n]*/g, '').replace(/^except\*?/, '').replace(/:\s*$/, '').trim();
  if (caught === '') return new Set(ALL_FAILURES);
  const out = new Set<Failure>();
  for (const [pattern, failures] of CAUGHT) if (pattern.test(caught)) failures.forEach((f) => out.add(f));
  return out;
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

export function guardFacts(copy: SyntaxCopy, chunkStart: number): GuardFacts {
  const ofType = (type: string) => copy.byType.get(type) ?? [];
  const regions: RegionFact[] = [];
  const conditionals: ConditionalFact[] = [];
  const region = (node: SyntaxNode, names: string[] | null, failures: Failure[] | null = null): RegionFact => ({
    start: node.startIndex - chunkStart, end: node.endIndex - chunkStart, names, failures,
  });
  const conditional = (node: SyntaxNode, condition: SyntaxNode, probes: RegionFact[]): ConditionalFact => ({
    span: { start: node.startIndex - chunkStart, end: node.endIndex - chunkStart },
    readsVersion: READS_VERSION.test(condition.text),
    words: conditionWords(condition),
    probes,
  });
  const span = (node: SyntaxNode): Span => ({ start: node.startIndex - chunkStart, end: node.endIndex - chunkStart });

  for (const t of ofType('try_statement')) {
    const handlers = t.namedChildren.filter((c) => c.type === 'except_clause');
    const caught = new Set<Failure>();
    for (const h of handlers) caughtBy(h).forEach((f) => caught.add(f));
    if (caught.size === 0) continue;
    const body = t.childForFieldName('body');
    if (body) regions.push(region(body, null, [...caught]));
    // A handler is the fallback for the versions where the body failed.
    for (const h of handlers) if (caughtBy(h).size > 0) regions.push(region(h, null));
  }
  for (const w of ofType('with_statement')) {
    const clause = w.namedChildren.find((c) => c.type === 'with_clause');
    const body = w.childForFieldName('body');
    if (clause && body && EXPECTS_FAILURE.test(clause.text)) regions.push(region(body, null));
  }
  for (const s of [...ofType('if_statement'), ...ofType('elif_clause')]) {
    const condition = s.childForFieldName('condition');
    if (!condition) continue;
    if (TYPE_CHECKING.test(condition.text)) {
      const consequence = s.childForFieldName('consequence');
      if (consequence) regions.push(region(consequence, null)); // read by type checkers only
      continue;
    }
    const probes: RegionFact[] = [];
    const probed = probedAttributeNames(condition);
    if (probed.length > 0) {
      const negated = isNegated(condition);
      const consequence = s.childForFieldName('consequence');
      const alternatives = s.childrenForFieldName('alternative');
      // The branch taken when the probe succeeds uses the probed names; the other branch is the fallback.
      if (consequence) probes.push(region(consequence, negated ? null : probed));
      for (const alt of alternatives) probes.push(region(alt, negated ? probed : null));
      // `if not hasattr(np, "x"): return fallback()` — the rest of the block runs only where the probe succeeded.
      const parent = s.parent;
      if (negated && s.type === 'if_statement' && alternatives.length === 0 && exits(consequence) && parent) {
        // Above the chunk's root stands the block that holds it, whose end is known only when the file is linked.
        const end = parent.parent === null ? 'parent-end' : parent.endIndex - chunkStart;
        probes.push({ start: s.endIndex - chunkStart, end, names: probed, failures: null });
      }
    }
    // Every branch is written for specific versions when the condition reads one.
    conditionals.push(conditional(s, condition, probes));
  }
  for (const e of ofType('conditional_expression')) {
    const [whenTrue, condition, whenFalse] = e.namedChildren;
    if (!condition) continue;
    const probes: RegionFact[] = [];
    const probed = probedAttributeNames(condition);
    if (probed.length > 0) {
      const negated = isNegated(condition);
      if (whenTrue) probes.push(region(whenTrue, negated ? null : probed));
      if (whenFalse) probes.push(region(whenFalse, negated ? probed : null));
    }
    conditionals.push(conditional(e, condition, probes));
  }
  // `getattr(np, "trapezoid", None) or np.trapz`: the right operand is the fallback. `IS_PYPY and sys.pypy_version_info`,
  // `sys.version_info >= (3, 11) and tomllib.loads(…)`: the right operand runs only where the left one says so.
  for (const b of ofType('boolean_operator')) {
    const left = b.childForFieldName('left');
    const right = b.childForFieldName('right');
    if (!left || !right) continue;
    if (probedAttributeNames(left).length > 0) regions.push(region(right, null));
    else conditionals.push({ span: span(right), readsVersion: READS_VERSION.test(left.text), words: conditionWords(left), probes: [] });
  }
  // `@pytest.mark.skipif(sys.version_info < (3, 12), …)`, `@unittest.skipUnless(…)`: the test runs only on the
  // versions its decorator lets through. A decorated class's body statements are chunks of their own: its region
  // reaches to the end of the class, settled when the file is linked.
  for (const d of ofType('decorated_definition')) {
    const skips = d.namedChildren.filter((c) => c.type === 'decorator' && SKIPS.test(c.text));
    if (skips.length === 0) continue;
    const text = skips.map((c) => c.text).join('\n');
    const fact: ConditionalFact = { span: span(d), readsVersion: READS_VERSION.test(text), words: [...new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [])], probes: [] };
    if (d === copy.root && d.childForFieldName('definition')?.type === 'class_definition') fact.toChunkEnd = true;
    conditionals.push(fact);
  }

  const versionFlags: string[] = [];
  for (const n of ofType('assignment')) {
    const left = n.childForFieldName('left');
    const right = n.childForFieldName('right');
    if (left?.type === 'identifier' && right && READS_VERSION.test(right.text)) versionFlags.push(left.text);
  }
  const postponesAnnotations = ofType('future_import_statement').some((n) =>
    n.namedChildren.some((c) => (c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text) === 'annotations'));
  return { regions, conditionals, versionFlags, postponesAnnotations, annotations: ofType('type').map(span) };
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

  /** `postponedAnnotations`: the file has `from __future__ import annotations`. */
  constructor(
    private readonly versionFlags: ReadonlySet<string>,
    private readonly postponedAnnotations = false,
  ) {}

  /** The regions of one chunk, settled against the file's version flags; the spanning ones are kept for all chunks. */
  regionsOf(facts: GuardFacts, at: GuardPlacement): Region[] {
    const own: Region[] = [];
    const add = (r: RegionFact) => {
      const region: Region = {
        start: r.start + at.start,
        end: r.end === 'parent-end' ? at.parentEnd : r.end === 'chunk-end' ? at.end : r.end + at.start,
        names: r.names && new Set(r.names),
        failures: r.failures && new Set(r.failures),
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
