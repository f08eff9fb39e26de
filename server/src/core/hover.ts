// What the editor shows when hovering a library API: its timeline across tracked versions, the signature at the
// pin, and what changes between the pin and the newest tracked version.
import { formatSignature, type ApiHistory, type Signature } from './api-model.js';
import type { CheckContext } from './checker.js';
import { normalizeDistributionName } from './library-names.js';
import { describeOrigin } from './pins.js';
import type { ApiReference } from './python/references.js';
import type { SourcePosition, SourceRange } from './source-range.js';
import { stateAt } from './version-state.js';
import { satisfies } from './versions.js';

export interface HoverResult {
  markdown: string;
  range: SourceRange;
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

function parameterNames(sig: Signature | null): Set<string> {
  return new Set((sig?.parameters ?? []).map((p) => p.name));
}

function changesBetween(history: ApiHistory, fromIndex: number, toIndex: number): string[] {
  const from = history.versions[fromIndex]!;
  const to = history.versions[toIndex]!;
  const notes: string[] = [];
  if (from.state !== to.state) notes.push(`${from.state === 'present' ? 'removed' : 'added'} between ${from.version} and ${to.version}`);
  if (from.signature && to.signature) {
    const a = parameterNames(from.signature);
    const b = parameterNames(to.signature);
    const added = [...b].filter((n) => !a.has(n));
    const removed = [...a].filter((n) => !b.has(n));
    if (added.length) notes.push(`parameters added by ${to.version}: ${added.map((n) => `\`${n}\``).join(', ')}`);
    if (removed.length) notes.push(`parameters gone by ${to.version}: ${removed.map((n) => `\`${n}\``).join(', ')}`);
  }
  return notes;
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
  const header = history.versions.map((c) => (pinned.has(c.version) ? `**${c.version}**` : c.version));
  const marks = history.versions.map((c) => (c.state === 'present' ? '█ present' : c.state === 'absent' ? '░ absent' : '? unknown'));
  lines.push(`| ${header.join(' | ')} |`, `|${history.versions.map(() => ':-:').join('|')}|`, `| ${marks.join(' | ')} |`, '');
  if (pin?.exactVersion) {
    const at = stateAt(history, pin.exactVersion, matrix.versions);
    const sig = at.cell?.signature;
    lines.push(at.state === 'present' ? `At ${pin.exactVersion}: \`${sig ? formatSignature(short, sig) : short}\`` : `At ${pin.exactVersion}: ${at.state === 'absent' ? 'not available' : 'unknown'}${at.basis === 'tracked' ? '' : ` (${at.basis} from the tracked versions)`}.`);
    const fromIndex = at.cell ? history.versions.indexOf(at.cell) : -1;
    const last = history.versions.length - 1;
    if (fromIndex >= 0 && fromIndex < last) {
      const notes = changesBetween(history, fromIndex, last);
      lines.push('', notes.length ? `Between ${history.versions[fromIndex]!.version} and ${history.versions[last]!.version}: ${notes.join('; ')}.` : `Unchanged up to ${history.versions[last]!.version}.`);
    }
  } else {
    const newest = [...history.versions].reverse().find((c) => c.signature);
    if (newest?.signature) lines.push(`${newest.version}: \`${formatSignature(short, newest.signature)}\``);
  }
  const doc = [...history.versions].reverse().find((c) => c.doc)?.doc;
  if (doc) lines.push('', doc);
  return { markdown: lines.join('\n'), range: target.range };
}
