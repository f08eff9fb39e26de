// Text for models and people: the lookup answer, the snippet check and the migration report as Markdown (chat,
// Copilot's tools) or plain text (MCP clients that show text as is), short enough for a model's context (about 2,000
// characters for a lookup; long timelines and summaries are cut, never the verdict, the signature or the
// alternative). The lines have a fixed shape ("Signature at 1.24.2: `…`", numbered matches) so that a reader can
// take them back: readToolAnswer does, for the benchmark's built-in models. Pure.
import type { Band } from '../core/hover.js';
import type { AlternativeView, ApiAnswer, LookupAnswer, Match, MatchesAnswer, NotFoundAnswer, PinView } from './api-lookup.js';
import type { MigrationReport, SnippetReport } from './snippet.js';
import { shownApi } from '../core/rules/verdict.js';

export interface RenderOptions {
  /** Markdown (bold labels) or plain text; code stays in backticks either way. Default true. */
  markdown?: boolean;
  /** A soft limit on the length (default 2,000 characters for a lookup, 6,000 for a check). */
  maxChars?: number;
}

const DOC_CHARS = 240;
const MATCH_DOC_CHARS = 140;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

function label(md: boolean, text: string): string {
  return md ? `**${text}**` : text;
}

function pinText(pin: PinView | null): string {
  return pin ? `${pin.requirement} (${pin.origin})` : 'no pin';
}

function versionsText(pin: PinView | null, fallback: string): string {
  if (!pin) return fallback;
  if (pin.versions.length <= 4) return pin.versions.join(', ');
  return `${pin.versions.length} versions, ${pin.versions[0]}–${pin.versions[pin.versions.length - 1]}`;
}

function bandLine(band: Band): string {
  const span = band.count === 1 ? band.first : `${band.first}–${band.last} (${band.count})`;
  const state = band.state === 'present' ? 'present' : band.state === 'absent' ? 'absent' : 'unknown';
  return `- ${span}: ${state}${band.signature ? ` \`${band.signature}\`` : ''}${band.pinned ? ' ◀ pin' : ''}`;
}

/** At most `max` bands, those nearest the pinned ones (or the newest, without a pin), with the rest summarised. */
function nearestBands(bands: readonly Band[], max: number): string[] {
  if (bands.length <= max) return bands.map(bandLine);
  const pinned = bands.findIndex((b) => b.pinned);
  const centre = pinned >= 0 ? pinned : bands.length - 1;
  let lo = centre;
  let hi = centre;
  while (hi - lo + 1 < max) {
    if (lo > 0 && (hi === bands.length - 1 || centre - lo <= hi - centre)) lo--;
    else if (hi < bands.length - 1) hi++;
    else break;
  }
  const out: string[] = [];
  if (lo > 0) out.push(`- … ${lo} earlier band${lo === 1 ? '' : 's'} (from ${bands[0]!.first})`);
  out.push(...bands.slice(lo, hi + 1).map(bandLine));
  const after = bands.length - 1 - hi;
  if (after > 0) out.push(`- … ${after} later band${after === 1 ? '' : 's'} (to ${bands[bands.length - 1]!.last})`);
  return out;
}

function alternativeLines(md: boolean, alt: AlternativeView | null, at: string): string[] {
  if (!alt) return [];
  const lines: string[] = [];
  if (alt.api) {
    const why = alt.basis === 'documentation' ? 'it has the same documentation' : 'the library\'s removal note names it';
    lines.push(`${label(md, 'Use instead:')} \`${alt.api}\`${alt.signature ? ` — \`${alt.signature}\` at ${at}` : ''} (${why}).`);
  }
  if (alt.note) lines.push(`${label(md, 'Removal note:')} “${clip(alt.note, 300)}”`);
  return lines;
}

const isListItem = (line: string) => /^\s*(- |\d+\. )/.test(line);

/**
 * Lines as Markdown shows them one under the other: a hard break ("  ") ends a line followed by another of the same
 * paragraph, and a heading stands apart. Plain text stays as it is.
 */
function joinLines(lines: readonly string[], md: boolean): string {
  if (!md) return lines.join('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (line.startsWith('#')) out.push(line, ...(next !== undefined && next !== '' ? [''] : []));
    else if (line !== '' && !isListItem(line) && next !== undefined && next !== '' && !isListItem(next)) out.push(`${line}  `);
    else out.push(line);
  });
  return out.join('\n');
}

function limitLines(lines: string[], maxChars: number, droppable: (line: string) => boolean): string[] {
  let total = lines.reduce((s, l) => s + l.length + 1, 0);
  const out = [...lines];
  for (let i = out.length - 1; i >= 0 && total > maxChars; i--) {
    if (!droppable(out[i]!)) continue;
    total -= out[i]!.length + 1;
    out.splice(i, 1);
  }
  return out;
}

function renderApi(a: ApiAnswer, md: boolean, maxChars: number): string {
  const lines: string[] = [];
  const where = a.pin ? `${a.distribution} ${versionsText(a.pin, '')}` : `${a.distribution} ${a.tracked.last} (the newest tracked version; nothing pins ${a.distribution})`;
  lines.push(`${md ? '### ' : ''}\`${a.api}\` (${a.apiKind}) — ${a.pin ? pinText(a.pin) : `no pin for ${a.distribution}`}`);
  const first = a.at[0]!;
  const inferred = first.basis === 'tracked' ? '' : ` (${first.version} is not tracked: ${first.basis} from the tracked versions around it)`;
  if (a.verdict === 'present' && a.undocumentedSince) {
    lines.push(`${label(md, `Exists at ${where}:`)} yes${inferred}, but deprecated: its documentation lists it up to ${a.distribution} ${a.undocumentedSince.lastDocumented}, not at ${a.at[a.at.length - 1]!.version}.`);
  } else if (a.verdict === 'present') lines.push(`${label(md, `Exists at ${where}:`)} yes${inferred}.`);
  else if (a.verdict === 'absent') lines.push(`${label(md, `Exists at ${where}:`)} NO${inferred}. It is in ${a.distribution} ${a.presentIn}.`);
  else if (a.verdict === 'unknown') lines.push(`${label(md, `Exists at ${where}:`)} cannot be confirmed (the tracked versions around it disagree, or it could not be introspected). It is in ${a.distribution} ${a.presentIn}.`);
  else {
    const missing = a.at.filter((x) => x.state !== 'present').map((x) => x.version);
    lines.push(`${label(md, `Exists at ${where}:`)} only in some: missing in ${missing.join(', ')}. It is in ${a.distribution} ${a.presentIn}.`);
  }
  const signatures = new Map<string, string[]>();
  for (const x of a.at) if (x.signature) signatures.set(x.signature, [...(signatures.get(x.signature) ?? []), x.version]);
  for (const [sig, versions] of signatures) {
    const at = versions.length <= 3 ? versions.join(', ') : `${versions[0]}–${versions[versions.length - 1]}`;
    lines.push(`${label(md, `Signature at ${at}:`)} \`${sig}\``);
  }
  const doc = a.at.find((x) => x.doc)?.doc;
  if (doc) lines.push(`${label(md, 'Summary:')} ${clip(doc, DOC_CHARS)}`);
  lines.push(...alternativeLines(md, a.alternative, first.version));
  if (a.pin) {
    const last = a.pin.versions[a.pin.versions.length - 1]!;
    if (a.changesBefore.length) lines.push(`${label(md, `Up to ${a.pin.versions[0]}:`)} ${a.changesBefore.slice(-3).join('; ')}.`);
    lines.push(`${label(md, `After ${last}:`)} ${a.changesAfter.length ? a.changesAfter.slice(0, 5).join('; ') + (a.changesAfter.length > 5 ? `; … (${a.changesAfter.length - 5} more)` : '') : `unchanged up to ${a.tracked.last}`}.`);
  }
  lines.push(`${label(md, `Timeline`)} (${a.tracked.count} tracked versions, ${a.tracked.first}–${a.tracked.last}):`);
  const timeline = nearestBands(a.bands, 6);
  lines.push(...timeline);
  if (a.related.length) lines.push(`${label(md, 'Same documentation:')} ${a.related.map((r) => `\`${r}\``).join(', ')}`);
  // Over budget: the timeline and the related names go first, then the summary is shortened.
  const kept = limitLines(lines, maxChars, (l) => l.startsWith('- ') || l.includes('Same documentation'));
  return joinLines(kept, md);
}

function matchLine(m: Match, i: number): string {
  return `${i + 1}. \`${m.api}\`${m.apiKind ? ` (${m.apiKind}${m.deprecated ? ', deprecated' : ''})` : ''}${m.signature ? ` \`${m.signature}\`` : ''}${m.doc ? ` — ${clip(m.doc, MATCH_DOC_CHARS)}` : ''}`;
}

function renderMatches(a: MatchesAnswer, md: boolean, maxChars: number): string {
  const scope = a.scope === 'members' ? `members of \`${a.module}\`` : `functions and classes under \`${a.module}\``;
  const at = a.pin ? `${a.distribution} ${a.version} (${pinText(a.pin)})` : `${a.distribution} ${a.version} (newest tracked; nothing pins ${a.distribution})`;
  const lines = [`${md ? '### ' : ''}APIs matching “${clip(a.description, 160)}”: ${scope} at ${at}`];
  if (a.matches.length === 0) lines.push(`No ${a.scope === 'members' ? 'member' : 'API'} present at ${a.version} shares a word with the description.`);
  else lines.push(...a.matches.map(matchLine));
  lines.push('', `Ask again with one of these names for its signature, documentation and history.`);
  return joinLines(limitLines(lines, maxChars, (l) => /^\d+\. /.test(l) && !l.startsWith('1. ')), md);
}

function renderNotFound(a: NotFoundAnswer, md: boolean): string {
  const lines = [`${md ? '### ' : ''}${a.query ? `\`${a.query}\`` : 'Nothing to look up'}${a.pin ? ` — ${pinText(a.pin)}` : ''}`, `${label(md, 'Not found:')} ${a.reason}.`];
  if (a.suggestions.length) {
    lines.push(`${label(md, 'Similar names present at the pinned version:')}`);
    lines.push(...a.suggestions.map(matchLine));
  }
  return joinLines(lines, md);
}

/** The lookup answer as text (Markdown by default). */
export function renderLookup(answer: LookupAnswer, options: RenderOptions = {}): string {
  const md = options.markdown ?? true;
  const max = options.maxChars ?? 2000;
  switch (answer.kind) {
    case 'api':
      return renderApi(answer, md, max);
    case 'matches':
      return renderMatches(answer, md, max);
    case 'not-found':
      return renderNotFound(answer, md);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function fence(code: string, info = 'python'): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${info}\n${code.replace(/\n$/, '')}\n${ticks}`;
}

/** Each finding, with its fix and the other fixes that change something. */
function findingLines(report: SnippetReport, md: boolean): string[] {
  const lines: string[] = [];
  for (const f of report.findings) {
    const where = report.file === 'snippet' ? `line ${f.line}` : `${f.file}:${f.line}:${f.column}`;
    lines.push(`- ${where}: ${f.severity} [${f.code}] ${f.message}`);
    if (f.fix) lines.push(`  - ${label(md, 'Fix:')} ${f.fix.title}${f.fix.fixedLine !== null ? ` → \`${f.fix.fixedLine.trim()}\`` : ''}`);
    for (const other of f.otherFixes) lines.push(`  - ${label(md, 'Or:')} ${other}`);
  }
  return lines;
}

/**
 * A review of the lines a change added (`anachron check --diff`'s scope): per file, the findings on those lines with
 * their fixes. `reports` hold only those findings.
 */
export function renderReview(reports: readonly SnippetReport[], rev: string, options: RenderOptions = {}): string {
  const md = options.markdown ?? true;
  const max = options.maxChars ?? 20000;
  const total = reports.reduce((s, r) => s + r.findings.length, 0);
  const pins = [...new Set(reports.flatMap((r) => r.libraries.filter((l) => l.pin).map((l) => pinText(l.pin))))];
  const lines = [
    total === 0
      ? `${label(md, 'No anachronisms')} on the lines changed since ${rev} (${plural(reports.length, 'changed Python file')}${pins.length ? `; pins: ${pins.join(', ')}` : ''}).`
      : `${label(md, plural(total, 'finding'))} on the lines changed since ${rev}, in ${reports.filter((r) => r.findings.length).length} of ${plural(reports.length, 'changed Python file')}:`,
  ];
  for (const r of reports) {
    if (r.findings.length === 0) continue;
    lines.push('', `${md ? '#### ' : ''}${r.file}`, ...findingLines(r, md));
  }
  const text = lines.join('\n');
  return text.length > max ? `${text.slice(0, max - 40)}\n… (cut: ${total} findings in all)` : text;
}

/** The snippet check as text: the pins applied, each finding with its fix, and the fixed code when it is short. */
export function renderSnippetReport(report: SnippetReport, options: RenderOptions = {}): string {
  const md = options.markdown ?? true;
  const max = options.maxChars ?? 6000;
  const checked = report.libraries.filter((l) => l.pin);
  const unpinned = report.libraries.filter((l) => !l.pin);
  const pins = checked.length ? checked.map((l) => pinText(l.pin)).join(', ') : 'no pins';
  const lines: string[] = [];
  if (report.libraries.length === 0) lines.push('The code uses no library anachron tracks: nothing to check.');
  else if (report.findings.length === 0) {
    lines.push(checked.length ? `${label(md, 'No anachronisms:')} every API and keyword this code uses exists at ${pins}.` : `Nothing checked: no pin for ${unpinned.map((l) => l.distribution).join(', ')}.`);
  } else lines.push(`${label(md, `${plural(report.findings.length, 'finding')}`)} at ${pins}:`);
  lines.push(...findingLines(report, md));
  if (unpinned.length && report.libraries.length) lines.push(`Not checked (nothing pins them): ${unpinned.map((l) => l.distribution).join(', ')}.`);
  let text = joinLines(lines, md);
  if (report.fixedCode !== null && report.fixedCode.split('\n').length <= 60 && text.length + report.fixedCode.length < max) {
    const left = report.remainingAfterFixes ?? 0;
    text += `\n\n${label(md, 'With the fixes applied')} (${left === 0 ? 'no findings left' : `${plural(left, 'finding')} left`}):\n${fence(report.fixedCode)}`;
  }
  return text.length > max ? `${text.slice(0, max - 40)}\n… (cut: ${report.findings.length} findings in all)` : text;
}

/** What the code must change to move to another version: the drift suite's migration notes, with a heading. */
export function renderMigration(report: MigrationReport, options: RenderOptions = {}): string {
  const md = options.markdown ?? true;
  if (report.problem) return `${label(md, 'Cannot migrate:')} ${report.problem}.`;
  const head = `${md ? '### ' : ''}${report.distribution} ${report.from} → ${report.to}: ${report.lines.length === 0 ? 'nothing to change' : plural(report.lines.length, 'change')}`;
  if (report.lines.length === 0) return `${head}\nNo API or keyword this code uses differs between ${report.library} ${report.from} and ${report.to} in the matrices.`;
  return [head, ...report.lines].join('\n');
}

// ---- reading an answer back ------------------------------------------------------------------------------------------

export interface ReadAnswer {
  /** The API the answer is about (its heading), when it is about one. */
  api: string | null;
  apiKind: string | null;
  /** "NO" / "yes" from the "Exists at" line. */
  exists: boolean | null;
  /** "yes, but deprecated": the version's documentation no longer lists it. */
  deprecated: boolean;
  /** Signatures the answer states, by the versions it names. */
  signatures: string[];
  /** "Use instead": the alternative and its signature. */
  alternative: { api: string; signature: string | null } | null;
  /** Numbered matches (a description search) or similar names, in order. */
  matches: { api: string; kind: string | null; signature: string | null; deprecated: boolean }[];
  /** The changes stated up to the pin and after it ("`where` added in 1.20.0"), each as written. */
  changesBefore: string[];
  changesAfter: string[];
}

/** What a reader takes from a rendered lookup answer (Markdown or text): see the file comment. */
export function readToolAnswer(text: string): ReadAnswer {
  const out: ReadAnswer = { api: null, apiKind: null, exists: null, deprecated: false, signatures: [], alternative: null, matches: [], changesBefore: [], changesAfter: [] };
  for (const raw of text.split('\n').map((l) => l.trimEnd())) {
    // Bold markers go; `**kwargs` inside code spans stays.
    const line = raw.split('`').map((part, i) => (i % 2 === 0 ? part.replace(/\*\*/g, '') : part)).join('`').replace(/^#+\s*/, '');
    let m: RegExpExecArray | null;
    if (out.api === null && (m = /^`([A-Za-z_][\w.]*)` \(([a-z]+)\) — /.exec(line))) {
      out.api = m[1]!;
      out.apiKind = m[2]!;
    } else if ((m = /^Exists at [^:]+: (yes|NO|only in some|cannot be confirmed)(, but deprecated)?/.exec(line))) {
      out.exists = m[1] === 'yes' ? true : m[1] === 'NO' ? false : null;
      out.deprecated = m[2] !== undefined;
    }
    else if ((m = /^Signature at [^:]+: `(.+)`$/.exec(line))) out.signatures.push(m[1]!);
    else if ((m = /^Use instead: `([^`]+)`(?: — `(.+?)` at )?/.exec(line))) out.alternative = { api: m[1]!, signature: m[2] ?? null };
    else if ((m = /^(Up to|After) [^:\s]+: (.+?)\.?$/.exec(line))) (m[1] === 'After' ? out.changesAfter : out.changesBefore).push(...m[2]!.split('; ').filter((c) => !/^unchanged up to |^… \(/.test(c)));
    else if ((m = /^\d+\. `([^`]+)`(?: \(([a-z]+)(, deprecated)?\))?(?: `(.+?)`)?(?: — |$)/.exec(line))) out.matches.push({ api: m[1]!, kind: m[2] ?? null, signature: m[4] ?? null, deprecated: m[3] !== undefined });
  }
  return out;
}
