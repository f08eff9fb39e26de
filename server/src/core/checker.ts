// The checker: API references + pins + matrices -> findings. Pure: everything it knows arrives as arguments.
import type { ApiHistory, LibraryMatrix, MatrixCatalog, VersionCell } from './api-model.js';
import { acceptsKeyword, hasVarKeyword } from './api-model.js';
import type { Finding, FindingCode, Severity } from './findings.js';
import { describeOrigin, type Pin } from './pins.js';
import type { ApiReference, KeywordArgument } from './python/references.js';
import type { SourceRange } from './source-range.js';
import { describeVersionRuns, stateAt, type StateAtVersion } from './version-state.js';
import { satisfies } from './versions.js';
import { normalizeDistributionName } from './library-names.js';
import { suggestReplacement } from './replacements.js';

export interface CheckContext {
  catalog: MatrixCatalog;
  /** Pins in force for the file, keyed by normalised distribution name. */
  pins: ReadonlyMap<string, Pin>;
}

/** The versions a pin lets the project run: the exact version, or every tracked version a range allows. */
function versionsUnderPin(pin: Pin, matrix: LibraryMatrix): string[] {
  if (pin.exactVersion !== null) return [pin.exactVersion];
  if (pin.specifier === '') return [];
  return matrix.versions.filter((v) => satisfies(v, pin.specifier));
}

function pinText(pin: Pin, matrix: LibraryMatrix): string {
  return `${matrix.distribution}${pin.specifier}`;
}

function pinClause(pin: Pin, matrix: LibraryMatrix, states: StateAtVersion[]): string {
  const where = pin.origin.line === null ? `which --pin ${pinText(pin, matrix)} selects` : `${describeOrigin(pin.origin)} pins ${pinText(pin, matrix)}`;
  const first = states[0];
  if (pin.exactVersion === null || !first) return `which ${pinText(pin, matrix)} allows (${describeOrigin(pin.origin)})`;
  if (first.basis === 'extrapolated' && first.cell) {
    const side = first.cell.version === matrix.versions[0] ? 'older' : 'newer';
    return `${where}; ${first.version} is ${side} than every tracked version, so ${first.cell.version} stands in for it`;
  }
  return where;
}

function versionList(states: StateAtVersion[], matrix: LibraryMatrix): string {
  const cells: VersionCell[] = matrix.versions.map((v) => ({ version: v, state: 'absent', kind: null, signature: null, signatureSource: null, doc: null }));
  const chosen = new Set(states.map((s) => s.version));
  const tracked = states.every((s) => s.basis === 'tracked');
  if (tracked) return `${matrix.library} ${describeVersionRuns(cells, (c) => chosen.has(c.version))}`;
  return `${matrix.library} ${states.map((s) => s.version).join(', ')}`;
}

/** "added between 1.24.2 and 2.2.4" / "removed between 2.2.4 and 2.4.6", relative to the first missing version. */
function lifecycle(history: ApiHistory, missingVersion: string): string {
  const cells = history.versions;
  const index = cells.findIndex((c) => c.version === missingVersion);
  const notes: string[] = [];
  if (index >= 0) {
    const later = cells.findIndex((c, i) => i > index && c.state === 'present');
    if (later > 0 && cells[later - 1]!.state === 'absent') notes.push(`added between ${cells[later - 1]!.version} and ${cells[later]!.version}`);
    let earlier = -1;
    for (let i = index - 1; i >= 0; i--) if (cells[i]!.state === 'present') { earlier = i; break; }
    if (earlier >= 0 && cells[earlier + 1]?.state === 'absent') notes.push(`removed between ${cells[earlier]!.version} and ${cells[earlier + 1]!.version}`);
  }
  return notes.length ? ` (${notes.join('; ')})` : '';
}

function trackedSpan(matrix: LibraryMatrix): string {
  const v = matrix.versions;
  return v.length === 1 ? v[0]! : `${v[0]}–${v[v.length - 1]}, ${v.length} versions`;
}

interface Emit {
  (code: FindingCode, severity: Severity, message: string, range: SourceRange, api: string, parameter: string | null, availableIn: string[], replacement?: string | null): void;
}

function checkKeyword(
  keyword: KeywordArgument,
  history: ApiHistory,
  states: StateAtVersion[],
  pin: Pin,
  matrix: LibraryMatrix,
  emit: Emit,
): void {
  const rejecting = states.filter((s) => {
    const sig = s.cell?.signature;
    return s.state === 'present' && sig && !hasVarKeyword(sig) && !acceptsKeyword(sig, keyword.name);
  });
  if (rejecting.length === 0) return;
  const accepting = history.versions.filter((c) => c.state === 'present' && c.signature && acceptsKeyword(c.signature, keyword.name));
  const api = history.api;
  if (accepting.length > 0) {
    const list = describeVersionRuns(history.versions, (c) => accepting.includes(c));
    emit(
      'anachronistic-parameter',
      rejecting.every((s) => s.basis === 'tracked') ? 'error' : 'warning',
      `\`${api}\` takes no keyword \`${keyword.name}\` in ${versionList(rejecting, matrix)}, ${pinClause(pin, matrix, rejecting)}; ` +
        `${matrix.library} ${list} accept${accepting.length === 1 ? 's' : ''} it.`,
      keyword.range,
      api,
      keyword.name,
      accepting.map((c) => c.version),
    );
    return;
  }
  // Only trust a signature read from the real callable or a stub to say "no version has this keyword".
  const reliable = rejecting.every((s) => s.cell?.signatureSource === 'inspect' || s.cell?.signatureSource === 'stub');
  if (reliable && rejecting.length === states.length) {
    emit(
      'unknown-parameter',
      'warning',
      `\`${api}\` takes no keyword \`${keyword.name}\` in any tracked version of ${matrix.library} (${trackedSpan(matrix)}).`,
      keyword.range,
      api,
      keyword.name,
      [],
    );
  }
}

function checkReference(ref: ApiReference, ctx: CheckContext, findings: Finding[]): void {
  const rootName = ref.prefixes[0]?.path;
  if (!rootName) return;
  const matrix = ctx.catalog.forImportRoot(rootName);
  if (!matrix) return;
  const pin = ctx.pins.get(normalizeDistributionName(matrix.distribution));
  if (!pin) return;
  const versions = versionsUnderPin(pin, matrix);
  if (versions.length === 0) return;

  const emit: Emit = (code, severity, message, range, api, parameter, availableIn, replacement = null) => {
    findings.push({ code, severity, message, range, library: matrix.library, api, parameter, pin: pin.exactVersion ?? pin.specifier, requirement: pinText(pin, matrix), pinOrigin: pin.origin, availableIn, replacement });
  };

  let history: ApiHistory | undefined;
  let parent: ApiHistory | undefined = ref.firstToCheck > 0 ? matrix.lookup(ref.prefixes[ref.firstToCheck - 1]!.path) : undefined;
  for (let i = 0; i < ref.prefixes.length; i++) {
    const prefix = ref.prefixes[i]!;
    const lastSegment = prefix.path.slice(prefix.path.lastIndexOf('.') + 1);
    if (i < ref.firstToCheck) {
      history = matrix.lookup(prefix.path);
      if (!history) return; // bound to something the matrix does not know: reported (or not) where it was bound
      continue;
    }
    if (lastSegment.startsWith('_')) return; // private and dunder names are outside the public surface
    history = matrix.lookup(prefix.path);
    if (!history) {
      const parentIsModule = i === 0 || parent?.kind === 'module';
      if (parentIsModule && ref.origin !== 'star' && !ref.guarded && !matrix.isUnresolved(prefix.path)) {
        emit('unknown-api', 'warning',
          `\`${prefix.path}\` is in no tracked version of ${matrix.library} (${trackedSpan(matrix)}): possibly a hallucinated API.`,
          prefix.range, prefix.path, null, []);
      }
      return;
    }
    const states = versions.map((v) => stateAt(history!, v, matrix.versions));
    const missing = states.filter((s) => s.state === 'absent');
    const unknown = states.filter((s) => s.state === 'unknown');
    const availableIn = history.versions.filter((c) => c.state === 'present').map((c) => c.version);
    if (missing.length > 0) {
      if (ref.guarded) return;
      const where = describeVersionRuns(history.versions, (c) => c.state === 'present');
        const replacement = suggestReplacement(matrix, history, versions);
      emit('anachronistic-api',
        missing.every((s) => s.basis === 'tracked') ? 'error' : 'warning',
        `\`${prefix.path}\` is not in ${versionList(missing, matrix)}, ${pinClause(pin, matrix, missing)}; ` +
          `it is in ${matrix.library} ${where}${lifecycle(history, missing[0]!.cell?.version ?? missing[0]!.version)}.` +
          (replacement ? ` Use \`${replacement}\`, which has the same documentation.` : ''),
        prefix.range, prefix.path, null, availableIn, replacement);
      return;
    }
    if (unknown.length > 0) {
      if (ref.guarded) return;
      const first = unknown[0]!;
      const why = first.neighbours.length > 0
        ? `the tracked versions around it disagree (${first.neighbours.map((c) => `${c.state} in ${c.version}`).join(', ')})`
        : 'its module could not be introspected in that version';
      emit('unconfirmed-api', 'information',
        `Cannot confirm \`${prefix.path}\` at ${versionList(unknown, matrix)} (${describeOrigin(pin.origin)}): ${why}.`,
        prefix.range, prefix.path, null, availableIn);
      return;
    }
    if (i < ref.prefixes.length - 1 && history.kind !== 'module' && history.kind !== 'class') return;
    parent = history;
  }
  if (!history || !ref.call) return;
  const states = versions.map((v) => stateAt(history!, v, matrix.versions));
  for (const keyword of ref.call.keywords) checkKeyword(keyword, history, states, pin, matrix, emit);
}

export function checkReferences(refs: readonly ApiReference[], ctx: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const ref of refs) checkReference(ref, ctx, findings);
  // One finding per place and code: the same chain can be reached twice (e.g. two star imports).
  const seen = new Set<string>();
  return findings
    .filter((f) => {
      const key = `${f.code}|${f.api}|${f.parameter}|${f.range.start.line}:${f.range.start.column}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column || a.code.localeCompare(b.code));
}
