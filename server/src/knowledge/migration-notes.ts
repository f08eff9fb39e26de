// Migration notes for a repair prompt, generated from the compatibility matrices instead of written by hand: the
// APIs, keywords and call shapes a piece of code uses that do not work at the target version (the checker's findings
// with the target pinned), whether they worked at the source version, the version-correct replacement where the
// matrix knows one (spelled through the code's own import alias), and the calls whose signature changed between the
// two versions. Pure: the parser, the matrices and the code arrive as arguments.
import type { Tree } from 'web-tree-sitter';
import { analyzeTree } from '../core/analyze.js';
import { formatSignature, type LibraryMatrix, type MatrixCatalog, type Signature } from '../core/api-model.js';
import type { Finding } from '../core/findings.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { parseCommandLinePin, type Pin } from '../core/pins.js';
import { findApiReferences } from '../core/python/file-syntax.js';
import type { SourceRange } from '../core/source-range.js';
import { describeVersionRuns, stateAt } from '../core/version-state.js';
import { compareVersions } from '../core/versions.js';
import { leafName, spellLike } from '../core/api-path.js';

export { spellLike };

export type MigrationItemKind = 'api' | 'parameter' | 'arity' | 'signature';

export interface MigrationItem {
  kind: MigrationItemKind;
  /** 1-based line of the code. */
  line: number;
  /** The fully qualified API. */
  api: string;
  /** The API as the code writes it (`np.trapz`), when it can be read from the code. */
  written: string | null;
  /** The keyword, for parameter items. */
  parameter: string | null;
  /** A version-correct API present at the target version (fully qualified), when the matrix knows one. */
  replacement: string | null;
  /**
   * How the replacement was found: "documentation" (an API with the same documentation, core/replacements.ts) or
   * "same-name" (the same name in another module at the target version: a hint, not a verified equivalent).
   */
  replacementBasis: 'documentation' | 'same-name' | null;
  /** The replacement spelled through the code's own import of the library (`np.trapezoid`); null when it cannot be. */
  replacementWritten: string | null;
  /** The item also fails at the source version (not a difference between the two versions). */
  alsoAtSource: boolean;
  /** Where the API or keyword exists (tracked versions). */
  availableIn: string[];
  /** availableIn as runs of the library's tracked versions: "1.0.0–1.13.1". */
  availableText: string;
  /** The signature at the target version (parameter, arity and signature items). */
  targetSignature: string | null;
  /** The signature at the source version (signature items). */
  sourceSignature: string | null;
  /** Keywords the target version accepts that the source version does not (parameter items). */
  newKeywords: string[];
}

export interface MigrationNotes {
  library: string;
  from: string;
  to: string;
  items: MigrationItem[];
  /** The notes as plain text for a repair prompt. */
  text: string;
}

export interface MigrationInput {
  /** The parsed code (the caller owns the tree). */
  tree: Tree;
  /** The code's text (for spelling what it writes). */
  code: string;
  catalog: MatrixCatalog;
  /** Import name, e.g. "numpy". */
  library: string;
  /** The version the code was written for, and the one it must run on. */
  from: string;
  to: string;
  /** Lists a matrix's API paths: lets a removed name be found where it moved (same leaf name, present at `to`). */
  listing?: (matrix: LibraryMatrix) => readonly string[];
}

const FAILING_CODES = new Set(['anachronistic-api', 'anachronistic-parameter', 'too-many-positional']);

function pinAt(matrix: LibraryMatrix, version: string): Map<string, Pin> {
  const pin = parseCommandLinePin(`${matrix.distribution}==${version}`);
  if ('error' in pin) throw new Error(`cannot pin ${matrix.distribution}==${version}: ${pin.error}`);
  return new Map([[normalizeDistributionName(matrix.distribution), pin]]);
}

function textAt(code: string, range: SourceRange): string | null {
  const lines = code.split('\n');
  if (range.start.line !== range.end.line) return null;
  const line = lines[range.start.line];
  if (line === undefined) return null;
  const text = line.slice(range.start.column, range.end.column).trim();
  return text === '' ? null : text;
}

function signatureAt(matrix: LibraryMatrix, api: string, version: string): Signature | null {
  const history = matrix.lookup(api);
  if (!history) return null;
  const state = stateAt(history, version, matrix.versions);
  return state.state === 'present' ? state.cell?.signature ?? null : null;
}

function keywordNames(signature: Signature): Set<string> {
  return new Set(signature.parameters.filter((p) => p.kind === 'positional_or_keyword' || p.kind === 'keyword_only').map((p) => p.name));
}

/** Where a name that is missing at `to` lives at `to`: the same leaf name elsewhere in the library, of the same kind
 *  (a function is not where a method of that name went: qiskit.execute is not GenericPass.execute), shortest path. */
function movedTo(matrix: LibraryMatrix, api: string, to: string, listing: MigrationInput['listing']): string | null {
  if (!listing) return null;
  const name = leafName(api);
  const kind = matrix.lookup(api)?.kind;
  const candidates = listing(matrix).filter((p) => p !== api && leafName(p) === name && !p.split('.').some((s) => s.startsWith('_')));
  const present = candidates.filter((p) => {
    const h = matrix.lookup(p);
    return h !== undefined && (kind === undefined || h.kind === kind) && stateAt(h, to, matrix.versions).state === 'present';
  });
  present.sort((a, b) => a.split('.').length - b.split('.').length || a.length - b.length || (a < b ? -1 : 1));
  return present[0] ?? null;
}

function itemKey(f: Pick<Finding, 'code' | 'api' | 'parameter'>, line: number): string {
  return `${f.code}\u0000${f.api}\u0000${f.parameter ?? ''}\u0000${line}`;
}

/** The migration notes for `code` going from `from` to `to` (see the file comment). */
export function migrationNotes(input: MigrationInput): MigrationNotes {
  const { tree, code, catalog, library, from, to } = input;
  const matrix = catalog.forImportRoot(library);
  if (!matrix) {
    return { library, from, to, items: [], text: `No compatibility matrix for ${library}: no migration notes.` };
  }
  const findingsAt = (version: string) => analyzeTree(tree, { catalog, pins: pinAt(matrix, version) }).filter((f) => f.library === library && FAILING_CODES.has(f.code));
  const atTarget = findingsAt(to);
  const atSource = new Set(findingsAt(from).map((f) => itemKey(f, f.range.start.line)));
  const items: MigrationItem[] = [];
  const seen = new Set<string>();
  for (const f of atTarget) {
    const line = f.range.start.line + 1;
    const key = itemKey(f, f.range.start.line);
    if (seen.has(key)) continue;
    seen.add(key);
    const written = f.code === 'anachronistic-api' ? textAt(code, f.range) : null;
    const kind: MigrationItemKind = f.code === 'anachronistic-api' ? 'api' : f.code === 'anachronistic-parameter' ? 'parameter' : 'arity';
    const moved = kind === 'api' && !f.replacement ? movedTo(matrix, f.api, to, input.listing) : null;
    const replacement = kind === 'api' ? f.replacement ?? moved : null;
    const targetSig = kind === 'api' ? null : signatureAt(matrix, f.api, to);
    const sourceSig = kind === 'parameter' ? signatureAt(matrix, f.api, from) : null;
    const newKeywords = targetSig && sourceSig ? [...keywordNames(targetSig)].filter((k) => !keywordNames(sourceSig).has(k)) : [];
    items.push({
      kind,
      line,
      api: f.api,
      written,
      parameter: f.parameter,
      replacement,
      replacementBasis: replacement === null ? null : moved ? 'same-name' : 'documentation',
      replacementWritten: replacement && written ? spellLike(written, f.api, replacement) : null,
      alsoAtSource: atSource.has(key),
      availableIn: f.availableIn,
      availableText: describeVersionRuns(matrix.versions, (i) => f.availableIn.includes(matrix.versions[i]!)),
      targetSignature: targetSig ? formatSignature(leafName(f.api), targetSig) : null,
      sourceSignature: sourceSig ? formatSignature(leafName(f.api), sourceSig) : null,
      newKeywords,
    });
  }
  // A member that only follows its class to the class's replacement (qiskit.quantum_info.OneQubitEulerDecomposer
  // .angles_and_phase → qiskit.synthesis.OneQubitEulerDecomposer.angles_and_phase) is fixed by the class's note; a note
  // of its own would ask to import a method from a class.
  const implied = (item: MigrationItem) => item.kind === 'api' && item.replacement !== null && items.some((owner) => owner !== item && owner.kind === 'api' && owner.replacement !== null && item.api.startsWith(`${owner.api}.`) && item.replacement === owner.replacement + item.api.slice(owner.api.length));
  const flagged = new Set(items.map((i) => i.api));
  for (let i = items.length - 1; i >= 0; i--) if (implied(items[i]!)) items.splice(i, 1);
  // Calls that work at both versions but whose signature changed between them (a default, a parameter added or
  // removed): the code may behave differently, which the execution shows and the notes can explain.
  for (const ref of findApiReferences(tree)) {
    if (!ref.call || ref.prefixes.length === 0) continue;
    const api = ref.prefixes[ref.prefixes.length - 1]!.path;
    if (api.split('.')[0] !== library || flagged.has(api)) continue;
    const before = signatureAt(matrix, api, from);
    const after = signatureAt(matrix, api, to);
    if (!before || !after || JSON.stringify(before) === JSON.stringify(after)) continue;
    flagged.add(api);
    const range = ref.prefixes[ref.prefixes.length - 1]!.range;
    items.push({
      kind: 'signature',
      line: range.start.line + 1,
      api,
      written: textAt(code, range),
      parameter: null,
      replacement: null,
      replacementBasis: null,
      replacementWritten: null,
      alsoAtSource: false,
      availableIn: [],
      availableText: '',
      targetSignature: formatSignature(leafName(api), after),
      sourceSignature: formatSignature(leafName(api), before),
      newKeywords: [...keywordNames(after)].filter((k) => !keywordNames(before).has(k)),
    });
  }
  items.sort((a, b) => a.line - b.line || (a.api < b.api ? -1 : a.api > b.api ? 1 : 0) || (a.parameter ?? '').localeCompare(b.parameter ?? ''));
  return { library, from, to, items, text: formatMigrationNotes(matrix.library, from, to, items) };
}

function direction(from: string, to: string): string {
  const c = compareVersions(from, to);
  return c < 0 ? 'upgrade' : c > 0 ? 'downgrade' : 'same version';
}

/** One line per item, in a fixed phrasing (the version-oblivious reference model reads it back: reference-models.ts). */
export function formatMigrationItem(library: string, from: string, to: string, item: MigrationItem): string {
  const shown = item.written ?? item.api;
  const qualified = item.written && item.written !== item.api ? ` (${item.api})` : '';
  const source = item.alsoAtSource ? ` It is not in ${library} ${from} either.` : '';
  switch (item.kind) {
    case 'api': {
      const where = item.availableText ? ` It exists in ${library} ${item.availableText}.` : '';
      let use = ' No replacement is known in the matrices.';
      if (item.replacement && item.replacementBasis === 'same-name') {
        use = ` No documented replacement; the same name exists as \`${item.replacement}\` in ${library} ${to} (another module: check that it fits).`;
      } else if (item.replacement) {
        use = item.replacementWritten
          ? ` Use \`${item.replacementWritten}\` instead.`
          : ` Use \`${item.replacement}\` instead (import it from \`${item.replacement.slice(0, item.replacement.lastIndexOf('.'))}\`).`;
      }
      return `- line ${item.line}: \`${shown}\`${qualified} is not in ${library} ${to}.${where}${source}${use}`;
    }
    case 'parameter': {
      const sig = item.targetSignature ? ` Signature in ${library} ${to}: \`${item.targetSignature}\`.` : '';
      const added = item.newKeywords.length ? ` Keywords new in ${to}: ${item.newKeywords.map((k) => `\`${k}\``).join(', ')}.` : '';
      return `- line ${item.line}: \`${item.api}\` takes no keyword \`${item.parameter}\` in ${library} ${to}.${source}${sig}${added}`;
    }
    case 'arity':
      return `- line ${item.line}: \`${item.api}\` takes fewer positional arguments in ${library} ${to}.${source}${item.targetSignature ? ` Signature in ${library} ${to}: \`${item.targetSignature}\`.` : ''}`;
    case 'signature':
      return `- line ${item.line}: \`${item.api}\` changed its signature between ${library} ${from} and ${to}: \`${item.sourceSignature}\` → \`${item.targetSignature}\`.`;
  }
}

export function formatMigrationNotes(library: string, from: string, to: string, items: readonly MigrationItem[]): string {
  const head = `Migration notes for this code, ${library} ${from} → ${to} (${direction(from, to)}), from anachron's compatibility matrices:`;
  if (items.length === 0) return `${head}\n- No API or keyword this code uses differs between ${library} ${from} and ${to} in the matrices.`;
  return [head, ...items.map((i) => formatMigrationItem(library, from, to, i))].join('\n');
}
