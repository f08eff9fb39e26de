// What the editor shows when hovering a library API: its timeline across tracked versions, the signature at the
// pin, and what changes between the pin and the newest tracked version.
import { formatSignature, type ApiHistory, type Signature } from './api-model.js';
import { sameForCallers } from './caller-signature.js';
import type { CheckContext } from './checker.js';
import { normalizeDistributionName } from './library-names.js';
import { describeColumnSource } from './column-source.js';
import { describeOrigin } from './pins.js';
import type { ApiReference } from './python/references.js';
import type { SourcePosition, SourceRange } from './source-range.js';
import { stateAt } from './version-state.js';
import { satisfies } from './versions.js';

export interface HoverResult {
  markdown: string;
  range: SourceRange;
}

/** What a resolved `**kwargs` hands on (api-model Parameter.keywords), which its signature alone does not show. */
function forwardedKeywordsLine(signature: Signature): string | null {
  const kwargs = signature.parameters.find((p) => p.kind === 'var_keyword' && p.keywords !== undefined);
  if (!kwargs?.keywords) return null;
  return kwargs.keywords.length === 0 ? `\`**${kwargs.name}\` takes no keyword.` : `\`**${kwargs.name}\` takes: ${kwargs.keywords.map((k) => `\`${k}\``).join(', ')}.`;
}

function contains(range: SourceRange, pos: SourcePosition): boolean {
  const after = pos.line > range.start.line || (pos.line === range.start.line && pos.column >= range.start.column);
  const before = pos.line < range.end.line || (pos.line === range.end.line && pos.column <= range.end.column);
  return after && before;
}

function width(range: SourceRange): number {
  return (range.end.line - range.start.line) * 10_000 + range.end.column - range.start.column;
}

/** The API under the cursor: the narrowest reference prefix whose range holds the position. */
export function apiAt(refs: readonly ApiReference[], pos: SourcePosition): { path: string; range: SourceRange } | null {
  let best: { path: string; range: SourceRange } | null = null;
  for (const ref of refs) {
    for (const prefix of ref.prefixes.slice(Math.max(ref.firstToCheck - 1, 0))) {
      if (contains(prefix.range, pos) && (!best || width(prefix.range) < width(best.range))) best = prefix;
    }
  }
  return best;
}

/**
 * Where the findings about the API at `range` (what apiAt gave) may lie: the name itself, and the call the reference
 * makes with it (its keywords, its arguments). A hover shown only for flagged references checks these.
 */
export function spansOfApiAt(refs: readonly ApiReference[], range: SourceRange): SourceRange[] {
  const same = (a: SourceRange, b: SourceRange) => a.start.line === b.start.line && a.start.column === b.start.column && a.end.line === b.end.line && a.end.column === b.end.column;
  const out = [range];
  for (const ref of refs) {
    const last = ref.prefixes[ref.prefixes.length - 1];
    if (ref.call && last && same(last.range, range)) out.push(ref.call.range);
  }
  return out;
}

function parameterNames(sig: Signature | null): Set<string> {
  return new Set((sig?.parameters ?? []).map((p) => p.name));
}

/** One change between two consecutive tracked versions: "added", "removed", or keywords added or removed. */
export interface TimelineChange {
  /** The first version with the change. */
  version: string;
  text: string;
}

/** What changes between consecutive tracked versions from `fromIndex` on, boundary by boundary. */
export function timelineChanges(history: ApiHistory, fromIndex = 0): TimelineChange[] {
  const notes: TimelineChange[] = [];
  for (let i = Math.max(0, fromIndex); i + 1 < history.versions.length; i++) {
    const from = history.versions[i]!;
    const to = history.versions[i + 1]!;
    if (from.state === 'unknown' || to.state === 'unknown') continue;
    if (from.state !== to.state) notes.push({ version: to.version, text: `${to.state === 'present' ? 'added' : 'removed'} in ${to.version}` });
    // Two readings that say the same to a caller (a forwarding catch-all, then what it forwards to) are no change.
    if (from.signature && to.signature && !sameForCallers(from.signature, to.signature)) {
      const a = parameterNames(from.signature);
      const b = parameterNames(to.signature);
      const added = [...b].filter((n) => !a.has(n));
      const removed = [...a].filter((n) => !b.has(n));
      if (added.length) notes.push({ version: to.version, text: `${added.map((n) => `\`${n}\``).join(', ')} added in ${to.version}` });
      if (removed.length) notes.push({ version: to.version, text: `${removed.map((n) => `\`${n}\``).join(', ')} removed in ${to.version}` });
    }
  }
  return notes;
}

/** What happens after the pin, boundary by boundary: "`equal_nan` added in 1.23.0; removed in 2.4.0". */
function changesAfter(history: ApiHistory, fromIndex: number): string[] {
  return timelineChanges(history, fromIndex).map((c) => c.text);
}

export interface Band {
  first: string;
  last: string;
  count: number;
  state: string;
  signature: string;
  pinned: boolean;
}

/**
 * The timeline as bands of consecutive versions that say the same thing (state and signature): numpy tracks 75
 * versions, which no one reads as columns.
 */
export function bands(
  history: { versions: readonly { version: string; state: string; signature: Signature | null }[] },
  short: string,
  pinned: ReadonlySet<string>,
  options: { everyVersion?: boolean } = {},
): Band[] {
  const out: Band[] = [];
  for (const c of history.versions) {
    const signature = c.state === 'present' && c.signature ? formatSignature(short, c.signature) : '';
    const prev = out.at(-1);
    if (prev && !options.everyVersion && prev.state === c.state && prev.signature === signature) {
      prev.last = c.version;
      prev.count++;
      prev.pinned ||= pinned.has(c.version);
    } else out.push({ first: c.version, last: c.version, count: 1, state: c.state, signature, pinned: pinned.has(c.version) });
  }
  return out;
}

export function hoverFor(refs: readonly ApiReference[], pos: SourcePosition, ctx: CheckContext): HoverResult | null {
  const target = apiAt(refs, pos);
  if (!target) return null;
  const matrix = ctx.catalog.forImportRoot(target.path.split('.')[0]!);
  const history = matrix?.lookup(target.path);
  if (!matrix || !history) return null;
  const pin = ctx.pins.get(normalizeDistributionName(matrix.distribution));
  const pinned = new Set(pin ? (pin.exactVersion ? [pin.exactVersion] : matrix.versions.filter((v) => satisfies(v, pin.specifier))) : []);
  const short = target.path.slice(target.path.lastIndexOf('.') + 1);
  const lines: string[] = [`**${target.path}** (${history.kind})` + (pin ? ` — ${matrix.distribution}${pin.specifier} from ${describeOrigin(pin.origin)}` : ' — no pin for this library'), ''];
  lines.push('| versions | | signature |', '|---|---|---|');
  for (const band of bands(history, short, pinned)) {
    const span = band.count === 1 ? band.first : `${band.first}–${band.last} (${band.count})`;
    const mark = band.state === 'present' ? '█ present' : band.state === 'absent' ? '░ absent' : '? unknown';
    lines.push(`| ${band.pinned ? `**${span}** ◀ pin` : span} | ${mark} | ${band.signature ? `\`${band.signature.replace(/\|/g, '\\|')}\`` : ''} |`);
  }
  lines.push('');
  if (pin?.exactVersion) {
    const at = stateAt(history, pin.exactVersion, matrix.versions);
    const sig = at.cell?.signature;
    lines.push(at.state === 'present' ? `At ${pin.exactVersion}: \`${sig ? formatSignature(short, sig) : short}\`` : `At ${pin.exactVersion}: ${at.state === 'absent' ? 'not available' : 'unknown'}${at.basis === 'tracked' ? '' : ` (${at.basis} from the tracked versions)`}.`);
    const forwarded = at.state === 'present' && sig ? forwardedKeywordsLine(sig) : null;
    if (forwarded) lines.push(forwarded);
    const fromIndex = at.cell ? history.versions.indexOf(at.cell) : -1;
    const last = history.versions.length - 1;
    if (fromIndex >= 0 && fromIndex < last) {
      const notes = changesAfter(history, fromIndex);
      lines.push('', notes.length ? `After ${history.versions[fromIndex]!.version}: ${notes.join('; ')}.` : `Unchanged up to ${history.versions[last]!.version}.`);
    }
  } else {
    const newest = [...history.versions].reverse().find((c) => c.signature);
    if (newest?.signature) lines.push(`${newest.version}: \`${formatSignature(short, newest.signature)}\``);
  }
  // Columns the user's own matrices hold for the pinned versions: where they came from.
  const sources = [...pinned].map((v) => [v, ctx.catalog.userColumnSource?.(matrix.library, v)] as const).filter((x): x is readonly [string, Record<string, string>] => x[1] !== undefined);
  if (sources.length) lines.push('', `Your column${sources.length === 1 ? '' : 's'}: ${sources.map(([v, p]) => `${v} from ${describeColumnSource(p)}`).join('; ')}.`);
  const doc = [...history.versions].reverse().find((c) => c.doc)?.doc;
  if (doc) lines.push('', doc);
  return { markdown: lines.join('\n'), range: target.range };
}
