// Verdicts per reference, remembered across analyses. What the checker says about a reference depends on what it
// names (paths, keywords, arity, guards), the pin of its library and the matrices, never on where it is written: an
// unchanged use met again after an edit, or in another file with the same pins, is not checked again. The memo holds
// plain data keyed by plain data; the language server keeps one for its lifetime, the CLI one per run.
import type { MatrixCatalog } from './api-model.js';
import type { Pin } from './pins.js';
import { placeRange, type ChunkOrigin } from './python/chunk-position.js';
import type { LinkedReferences } from './python/link-references.js';
import type { ApiReference } from './python/references.js';
import type { Finding } from './findings.js';
import type { Verdict } from './rules/index.js';
import type { SourceRange } from './source-range.js';

/** A verdict, and which of its reference's ranges it has (see rangesOf): its own range is replaced on reuse. */
interface Remembered {
  verdict: Verdict;
  slot: number;
  /** The finding of `verdict`, made the first time one of its placings is asked for (its range replaced per placing). */
  finding?: Finding;
}

/** The ranges a verdict can take from its reference, in a fixed order: prefixes, keywords, the call, members. */
function rangesOf(ref: ApiReference): SourceRange[] {
  const out: SourceRange[] = ref.prefixes.map((p) => p.range);
  if (ref.call) {
    for (const k of ref.call.keywords) out.push(k.range);
    out.push(ref.call.range);
  }
  if (ref.receiver) for (const m of ref.receiver.members) out.push(m.range);
  return out;
}

/**
 * Everything about a reference the checker reads, but its positions. Its prefixes are the dotted prefixes of its
 * whole path, so the whole path stands for them.
 */
function referenceKey(ref: ApiReference): string {
  let key = `${ref.origin}${ref.builtin ? '*' : ''}|${ref.firstToCheck}|${ref.guarded ? 1 : 0}${ref.callGuarded ? 1 : 0}${ref.guardedPrefixes ?? ''}|${ref.prefixes.length}:${ref.prefixes[ref.prefixes.length - 1]?.path ?? ''}`;
  if (ref.call) {
    key += `|${ref.call.positionalCount}${ref.call.hasUnpacking ? '*' : ''}(`;
    for (const k of ref.call.keywords) key += `${k.name},`;
  }
  if (ref.receiver) {
    key += `|${ref.receiver.producer}:`;
    for (const m of ref.receiver.members) key += `${m.name},`;
  }
  return key;
}

/** The verdicts last given for one reference object (met again when linking reused it: references.ts LinkMemo). */
interface Given {
  catalog: MatrixCatalog;
  pinKey: string;
  verdicts: Verdict[];
}

export class CheckMemo {
  /** catalog -> the pin (as JSON) -> the reference (referenceKey) -> its verdicts. */
  private readonly byCatalog = new WeakMap<MatrixCatalog, Map<string, Map<string, Remembered[]>>>();
  private readonly pinKeys = new WeakMap<Pin, string>();
  /** By set of the project's modules (never changed once made): its part of a context key, made once per set. */
  private readonly moduleKeys = new WeakMap<ReadonlySet<string>, string>();
  /** By reference object: the same object met again with the same pin gets the same verdict objects, unplaced again. */
  private readonly given = new WeakMap<ApiReference, Given>();
  /** By verdict object: its finding (message and all), made once. */
  private readonly findings = new WeakMap<Verdict, Finding>();
  /** A remembered verdict placed at another reference's range: what it was placed from. */
  private readonly placedFrom = new WeakMap<Verdict, Remembered>();
  /** By a chunk's references (the same object while linking reuses them): their findings, relative to the chunk. */
  private readonly ofChunks = new WeakMap<LinkedReferences, { catalog: MatrixCatalog; contextKey: string; findings: readonly Finding[] }>();
  /** By a chunk's finding: where it was last placed, and the placed finding. */
  private readonly placings = new WeakMap<Finding, { line: number; column: number; placed: Finding }>();
  private size = 0;

  /** At most this many references are remembered; past it the memo starts again. */
  constructor(private readonly capacity = 200_000) {}

  /** The verdicts on `ref` with its library pinned by `pin`, computed by `check` unless remembered. */
  verdicts(catalog: MatrixCatalog, pin: Pin, ref: ApiReference, check: () => Verdict[]): Verdict[] {
    let byPin = this.byCatalog.get(catalog);
    if (!byPin) this.byCatalog.set(catalog, (byPin = new Map()));
    let pinKey = this.pinKeys.get(pin);
    if (pinKey === undefined) this.pinKeys.set(pin, (pinKey = JSON.stringify(pin)));
    const given = this.given.get(ref);
    if (given && given.catalog === catalog && given.pinKey === pinKey) return given.verdicts;
    const verdicts = this.lookUp(byPin, pinKey, ref, check);
    this.given.set(ref, { catalog, pinKey, verdicts });
    return verdicts;
  }

  /** The finding of a verdict this memo gave (made by `make` the first time). */
  finding(verdict: Verdict, make: (v: Verdict) => Finding): Finding {
    let f = this.findings.get(verdict);
    if (f) return f;
    // A finding's message and severity never read its range: a placed verdict's finding is its origin's, moved.
    const from = this.placedFrom.get(verdict);
    if (from) {
      from.finding ??= make(from.verdict);
      f = { ...from.finding, range: verdict.range };
    } else f = make(verdict);
    this.findings.set(verdict, f);
    return f;
  }

  /**
   * What a file's context says to the checker besides the catalog: the pins of every library and the project's own
   * modules (checker.ts libraryOf). A chunk's findings are remembered under it (chunkFindings).
   */
  contextKey(ctx: { pins: ReadonlyMap<string, Pin>; localModules?: ReadonlySet<string> }): string {
    let key = '';
    for (const [name, pin] of ctx.pins) {
      let pinKey = this.pinKeys.get(pin);
      if (pinKey === undefined) this.pinKeys.set(pin, (pinKey = JSON.stringify(pin)));
      key += `${name}=${pinKey};`;
    }
    if (ctx.localModules) {
      let modules = this.moduleKeys.get(ctx.localModules);
      if (modules === undefined) this.moduleKeys.set(ctx.localModules, (modules = [...ctx.localModules].map((m) => `|${m}`).join('')));
      key += modules;
    }
    return key;
  }

  /** The findings (relative to their chunk) last made of a chunk's references under this catalog and context key. */
  chunkFindings(refs: LinkedReferences, catalog: MatrixCatalog, contextKey: string): readonly Finding[] | undefined {
    const last = this.ofChunks.get(refs);
    return last && last.catalog === catalog && last.contextKey === contextKey ? last.findings : undefined;
  }

  rememberChunkFindings(refs: LinkedReferences, catalog: MatrixCatalog, contextKey: string, findings: readonly Finding[]): void {
    this.ofChunks.set(refs, { catalog, contextKey, findings });
  }

  /** A chunk's finding (relative to the chunk) placed at `origin`: the same object while the chunk's line and column stay. */
  placed(finding: Finding, origin: ChunkOrigin): Finding {
    const last = this.placings.get(finding);
    if (last && last.line === origin.line && last.column === origin.column) return last.placed;
    const placed = { ...finding, range: placeRange(finding.range, origin) };
    this.placings.set(finding, { line: origin.line, column: origin.column, placed });
    return placed;
  }

  private lookUp(byPin: Map<string, Map<string, Remembered[]>>, pinKey: string, ref: ApiReference, check: () => Verdict[]): Verdict[] {
    let remembered = byPin.get(pinKey);
    if (!remembered) byPin.set(pinKey, (remembered = new Map()));
    const key = referenceKey(ref);
    const ranges = rangesOf(ref);
    const known = remembered.get(key);
    if (known) {
      return known.map((r) => {
        const placed = { ...r.verdict, range: ranges[r.slot]! };
        this.placedFrom.set(placed, r);
        return placed;
      });
    }
    const found = check();
    // The checker hands a verdict one of the reference's own ranges; a verdict placed anywhere else is not remembered.
    const slots = found.map((v) => ranges.indexOf(v.range));
    if (slots.every((s) => s >= 0)) {
      if (this.size >= this.capacity) {
        byPin.clear();
        byPin.set(pinKey, (remembered = new Map()));
        this.size = 0;
      }
      remembered.set(key, found.map((verdict, i) => ({ verdict, slot: slots[i]! })));
      this.size++;
    }
    return found;
  }
}
