// The docstring pipeline of LibEvoBench Appendix E: from a raw documentation text to the redacted description that
// API-I and API-C (L1–L3) show a model, or the reason it is not shown. Each step is its own exported function, applied
// by prepareDescription in the paper's order. Collision de-duplication needs every API of a version and lives in
// descriptions.ts. Pure; documented in docs/benchmark-datasets.md.
import { NAME_PLACEHOLDER } from '../prompt-contract.js';
import { escapeRegExp, leafName } from '../../../core/api-path.js';

/** Length cap of a description, broken at a word boundary (Table 10). */
export const DESCRIPTION_MAX_CHARS = 600;
/** Descriptions of at most this many characters are not accepted (the Short tier is 5 < chars < 50). */
export const DESCRIPTION_MIN_CHARS = 5;
/** The non-discriminative filter only looks at descriptions shorter than this. */
export const SHORT_DESCRIPTION_CHARS = 50;

/** Table 11: Short (5 < chars < 50), Medium (50–99), Good (100–299), Rich (≥ 300). */
export type QualityTier = 'short' | 'medium' | 'good' | 'rich';

export type DescriptionRejection = 'empty' | 'too-short' | 'auto-generated' | 'non-discriminative' | 'collision';

export type DescriptionResult =
  | { ok: true; text: string; tier: QualityTier }
  | { ok: false; reason: DescriptionRejection; text: string };

// ---- 1. signature stripping ----------------------------------------------------------------------------------------

/** Index just after the parenthesis that closes the one at `open`, or -1. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

const SIGNATURE_START = /^~?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*\(/;
const RETURN_ANNOTATION = String.raw`->\s*[\w.]+(?:\[[^\]\n]*\])?`;

/**
 * Removes leading lines that reproduce a callable's signature, as C extensions and NumPy-style docstrings start:
 * `add(x1, x2, /, out=None, *, where=True) -> ndarray` on a line of its own (any name, the call may span lines).
 * In text already joined into one line the signature is removed only when it names the API itself and prose starting
 * with a capital letter follows: `trapz(y, x=None) Integrate along …`.
 */
export function stripSignature(text: string, api: string): string {
  const leaf = leafName(api);
  let rest = text.replace(/^\s+/, '');
  for (let guard = 0; guard < 8; guard++) {
    const m = SIGNATURE_START.exec(rest);
    if (!m) break;
    const close = closingParen(rest, m[0].length - 1);
    if (close < 0) break;
    const eol = rest.indexOf('\n', close);
    const lineRest = rest.slice(close, eol < 0 ? undefined : eol);
    const name = m[1]!;
    if (new RegExp(String.raw`^\s*(?:${RETURN_ANNOTATION})?\s*$`).test(lineRest)) {
      rest = eol < 0 ? '' : rest.slice(eol + 1).replace(/^\s+/, '');
      continue;
    }
    const joined = new RegExp(String.raw`^\s*(?:${RETURN_ANNOTATION})?\s+(?=[A-Z])`).exec(lineRest);
    if (joined && leafName(name) === leaf) {
      rest = rest.slice(close + joined[0].length);
      continue;
    }
    break;
  }
  return rest;
}

// ---- 2. section truncation -----------------------------------------------------------------------------------------

const NUMPYDOC_SECTIONS = ['Parameters', 'Other Parameters', 'Returns', 'Yields', 'Receives', 'Raises', 'Warns', 'Warnings', 'Attributes', 'Methods', 'See Also', 'Notes', 'References', 'Examples', 'Example'];
const GOOGLE_SECTIONS = ['Args', 'Arguments', 'Parameters', 'Params', 'Keyword Args', 'Keyword Arguments', 'Other Parameters', 'Returns', 'Return', 'Yields', 'Yield', 'Raises', 'Warns', 'Warnings', 'Attributes', 'Methods', 'Examples', 'Example', 'Note', 'Notes', 'Todo', 'See Also', 'References'];
const SPHINX_FIELDS = ['param', 'parameter', 'arg', 'argument', 'key', 'keyword', 'type', 'returns', 'return', 'rtype', 'raises', 'raise', 'except', 'exception', 'var', 'ivar', 'cvar', 'vartype', 'yields', 'yield', 'ytype', 'meta'];

const SECTION_PATTERNS: readonly RegExp[] = [
  // numpydoc: a section name underlined with dashes (on the next line, or on the same line once lines are joined)
  new RegExp(String.raw`(?<=^|\s)(?:${NUMPYDOC_SECTIONS.join('|')})[ \t]*\n?[ \t]*-{3,}(?=\s|$)`),
  // Google style: "Args:" alone on its line, or after a sentence once lines are joined
  new RegExp(String.raw`(?:^|\n)[ \t]*(?:${GOOGLE_SECTIONS.join('|')}):[ \t]*(?=\n|$)`),
  new RegExp(String.raw`(?:^|(?<=[.!?])\s+)(?:${GOOGLE_SECTIONS.join('|')}):\s`),
  // Sphinx field lists
  new RegExp(String.raw`(?<=^|\s):(?:${SPHINX_FIELDS.join('|')})\b[^:\n]*:`),
  // doctest examples
  /(?<=^|\s)>>>(?=\s|$)/,
];

/** Keeps the opening prose: cuts at the first numpydoc or Google section header, Sphinx field or doctest prompt. */
export function truncateAtSection(text: string): string {
  let cut = text.length;
  for (const pattern of SECTION_PATTERNS) {
    const m = pattern.exec(text);
    if (m && m.index < cut) cut = m.index;
  }
  return text.slice(0, cut).trim();
}

// ---- 3. directive truncation ---------------------------------------------------------------------------------------

const DIRECTIVE = /(?<=^|\s)\.\.\s+(?:\|[^|\n]+\|\s+)?[A-Za-z][\w:-]*::/;
const ADORNMENT = /(?<=^|\s)([=\-~^*#+])\1{2,}(?=\s|$)/g;

/**
 * Cuts at the first reStructuredText directive (`.. note::`, `.. versionadded:: 1.20`, `.. math::` …), and drops
 * the over- and underlines of a reST title (a module docstring's `=====` lines), keeping the title's words.
 */
export function truncateAtDirective(text: string): string {
  const m = DIRECTIVE.exec(text);
  const kept = m ? text.slice(0, m.index) : text;
  return kept.replace(ADORNMENT, ' ').trim();
}

/** Joins the lines of the kept paragraph: runs of whitespace become one space. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// ---- 4. length capping ---------------------------------------------------------------------------------------------

/** At most `max` characters, cut at the last space at or before the limit (a single longer word is cut hard). */
export function capLength(text: string, max = DESCRIPTION_MAX_CHARS): string {
  if (text.length <= max) return text;
  let i = max;
  while (i > 0 && text[i] !== ' ') i--;
  return text.slice(0, i > 0 ? i : max).trimEnd();
}

// ---- 5. name redaction ---------------------------------------------------------------------------------------------

/**
 * Replaces the API's dotted path and its individual components (Appendix E, Table 10: "all occurrences of the API's
 * dotted path and its individual components"), whole words and case-insensitively, with NAME_PLACEHOLDER: the name
 * and every qualified form of it (`norm`, `linalg.norm`, `np.linalg.norm`, `~numpy.linalg.norm`), then each other
 * component of the path (`numpy`, `linalg`; `random` and `Generator` for `numpy.random.Generator.integers`). A dotted
 * run of placeholders left by the components (`numpy.random` → `[API].[API]`) becomes one placeholder.
 */
export function redactName(text: string, api: string): string {
  const leaf = leafName(api);
  let out = text;
  if (leaf !== '' && out.toLowerCase().includes(leaf.toLowerCase())) {
    out = out.replace(new RegExp(String.raw`(?<![\w.])~?(?:[A-Za-z_]\w*\.)*${escapeRegExp(leaf)}(?!\w)`, 'gi'), NAME_PLACEHOLDER);
  }
  const components = new Set(api.split('.').filter((c) => c !== '' && c.toLowerCase() !== leaf.toLowerCase()));
  let masked = false;
  for (const c of components) {
    if (!out.toLowerCase().includes(c.toLowerCase())) continue;
    const next = out.replace(new RegExp(String.raw`(?<![\w[])~?${escapeRegExp(c)}(?![\w\]])`, 'gi'), NAME_PLACEHOLDER);
    masked ||= next !== out;
    out = next;
  }
  if (!masked) return out;
  const p = escapeRegExp(NAME_PLACEHOLDER);
  return out.replace(new RegExp(`${p}(?:\\.${p})+`, 'g'), NAME_PLACEHOLDER);
}

// ---- 6. version scrubbing ------------------------------------------------------------------------------------------

const VERSION = String.raw`v?\d+(?:\.(?:\d+|x))+(?:(?:a|b|rc|\.dev|\.post)\d*)?`;

export interface ScrubPattern {
  name: string;
  pattern: RegExp;
  /** Replacement text ("$1" keeps the verb of "deprecated since 1.20"). */
  replacement: string;
}

/** The seven version-revealing patterns, applied in this order (case-insensitive). `lib` is the library's names. */
export function versionPatterns(libraryNames: readonly string[]): ScrubPattern[] {
  const lib = `(?:${libraryNames.map(escapeRegExp).join('|')})`;
  const release = String.raw`(?:(?:version|release)\s+)?(?:${lib}\s+)?`;
  return [
    { name: 'sphinx-directive', pattern: /\.\.\s+(?:versionadded|versionchanged|versionremoved|deprecated)::\s*\S*/gi, replacement: '' },
    { name: 'new-in', pattern: new RegExp(String.raw`\(\s*new in ${release}${VERSION}\s*\)|\bnew in ${release}${VERSION}\.?`, 'gi'), replacement: '' },
    { name: 'changed-in', pattern: new RegExp(String.raw`\b(deprecated|removed|added|introduced|changed|renamed|expired)\s+(?:since|in|as of|from)\s+${release}${VERSION}`, 'gi'), replacement: '$1' },
    { name: 'since', pattern: new RegExp(String.raw`,?\s*\b(?:since|as of|starting (?:with|from|in)|prior to|before|after|until)\s+${release}${VERSION}`, 'gi'), replacement: '' },
    { name: 'library-version', pattern: new RegExp(String.raw`(?:\b(?:in|with|of|for|from)\s+)?\b${lib}\s+${VERSION}`, 'gi'), replacement: '' },
    { name: 'version-word', pattern: new RegExp(String.raw`(?:\b(?:in|with|of|for|from)\s+)?\bversions?\s+${VERSION}`, 'gi'), replacement: '' },
    { name: 'bare-literal', pattern: /\bv?\d+\.\d+\.\d+(?:(?:a|b|rc|\.dev|\.post)\d*)?\b/gi, replacement: '' },
  ];
}

const patternCache = new Map<string, ScrubPattern[]>();
/** Marks where a phrase was removed while the text is tidied. */
const REMOVED = '\u0001';

/**
 * Removes version-revealing phrases ("New in version 1.20.0.", "deprecated since 1.20" → "deprecated",
 * "In NumPy 1.9 the …" → "The …", bare x.y.z literals), then tidies the spaces and punctuation left behind and
 * capitalises a sentence that now starts where a phrase was removed.
 */
export function scrubVersions(text: string, libraryNames: readonly string[]): string {
  if (!/\d/.test(text)) return text;
  const cacheKey = libraryNames.join('\0');
  let patterns = patternCache.get(cacheKey);
  if (!patterns) {
    patterns = versionPatterns(libraryNames);
    patternCache.set(cacheKey, patterns);
  }
  let out = text;
  for (const { pattern, replacement } of patterns) {
    out = out.replace(pattern, (...args: unknown[]) => (replacement === '$1' ? String(args[1] ?? '') : replacement) + REMOVED);
  }
  if (out === text) return text;
  out = out
    .replace(/\s+/g, ' ')
    .replace(new RegExp(`(^|[.!?]) ?[${REMOVED} ]*${REMOVED} ?([a-z])`, 'g'), (_m, end: string, c: string) => `${end}${end ? ' ' : ''}${c.toUpperCase()}`)
    .replace(new RegExp(REMOVED, 'g'), '')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?)])/g, '$1')
    .replace(/\(\s+/g, '(')
    .replace(/[,;:]+([.!?])/g, '$1')
    .replace(/([.!?])[.,;:]+/g, '$1')
    .replace(/^[\s.,;:!?]+/, '')
    .trim();
  return out.charAt(0).toUpperCase() + out.slice(1);
}

// ---- 7. filters ----------------------------------------------------------------------------------------------------

/** Text written by documentation tooling or inherited from builtins, recognised before redaction. */
export const AUTO_GENERATED_PATTERNS: readonly RegExp[] = [
  /^Initialize self\b/i,
  /See help\(type\(self\)\) for accurate signature/,
  /^Return self\s*(?:==|!=|<=|>=|<|>|\+|-|\*\*|\*|\/\/|\/|%|&|\||\^|<<|>>)\s*value\b/i,
  /^Return (?:repr|str|hash|bool|len|abs|iter|int|float|format|index)\(self\)/i,
  /^Implement (?:delattr|setattr|getattr|iter|next|len|getitem|setitem|delitem|contains)\(self\b/i,
  /^x\.__\w+__\(/,
  /^__\w+__\b/,
  /^Create and return a new object\b/i,
  /^Built-?in (?:function|method|module)\b/i,
  /^Method generated by attrs\b/i,
  /^(?:Automatically|Auto-?)\s?generated\b/i,
  /^[A-Z]\.\w+\(/, // "D.get(k[,d]) -> …", "S.find(sub[, start[, end]]) -> int": docs of builtin methods
  /^(?:int|str|bytes|float|complex|bool|object|type|tuple|list|dict|set|frozenset|bytearray|range|memoryview)\([^)]*\)\s*->/,
  /^Helper for pickle\b/i,
  /^Return state information for pickling\b/i,
  /^Default object formatter\b/i,
  /^Size of object in memory\b/i,
  /^Alias for field number \d+/i,
  /^Abstract classes can override this\b/i,
  /^This method is called when a class is subclassed\b/i,
  /^An enumeration\.?$/i,
  /^Create a collection of name\/value pairs\b/i,
];

export function isAutoGenerated(text: string): boolean {
  return AUTO_GENERATED_PATTERNS.some((p) => p.test(text));
}

const P = escapeRegExp(NAME_PLACEHOLDER);

/** Boilerplate that says nothing about what the API does; checked on the final text, only below 50 characters. */
export const NON_DISCRIMINATIVE_PATTERNS: readonly RegExp[] = [
  // getter/setter templates
  /^(?:Getter|Setter|Deleter|Accessor)\b/i,
  /^(?:Get|Gets|Set|Sets|Return|Returns) or (?:get|gets|set|sets|return|returns)\b/i,
  new RegExp(String.raw`^(?:Get|Gets|Set|Sets|Return|Returns)\s+(?:the\s+)?(?:current\s+)?(?:value\s+of\s+(?:the\s+)?)?(?:${P}|value|attribute|property|field)(?:\s+(?:attribute|property|value|field))?\.?$`, 'i'),
  new RegExp(String.raw`^(?:The\s+)?${P}\s+(?:attribute|property|value|field)\.?$`, 'i'),
  // forward references to other symbols
  /^(?:See|Refer to|Please see|For (?:details|more|documentation|more information)\b.*\bsee|Alias (?:for|of)|An alias (?:for|of)|Same as|Equivalent to|Identical to|Shortcut for|Shorthand for|Synonym for|Wrapper (?:for|around|of)|Thin wrapper|(?:Deprecated|Compatibility|Backwards?[- ]compatible) alias|Documented in|Defined in|Forwards? to|Delegates? to)\b/i,
  // vacuous meta-commentary
  new RegExp(String.raw`^(?:TODO|FIXME|XXX|TBD|To be documented|Not (?:yet )?documented|Undocumented|No (?:docstring|description|documentation)(?: available)?|Missing docstring|Placeholder|Internal(?: use)?(?: only)?|For internal use(?: only)?|Private|Does nothing|Not implemented(?: yet)?|No-?op|Deprecated|${P}|(?:The )?${P} (?:function|method|class|object|module))\.?!?$`, 'i'),
  /^(?:An?|The) (?:function|method|class|object|module|property|attribute)\.?$/i,
  /^(?:Docstring|Documentation|Docs) (?:for|of)\b/i,
];

export function isNonDiscriminative(text: string): boolean {
  return text.length < SHORT_DESCRIPTION_CHARS && NON_DISCRIMINATIVE_PATTERNS.some((p) => p.test(text));
}

/** The accepted tier for a description of this length, or null when it is too short to be accepted. */
export function qualityTier(text: string): QualityTier | null {
  const n = text.length;
  if (n <= DESCRIPTION_MIN_CHARS) return null;
  if (n < 50) return 'short';
  if (n < 100) return 'medium';
  if (n < 300) return 'good';
  return 'rich';
}

// ---- the pipeline --------------------------------------------------------------------------------------------------

/**
 * Runs Table 10's steps in order on one raw documentation text of `api`: signature stripping, section truncation,
 * directive truncation (then the kept lines are joined), length capping, name redaction, version scrubbing, the
 * auto-generated filter (on the text before redaction: tooling output is recognised by its raw form) and the
 * non-discriminative filter (on the final text), then the tier. Collision de-duplication is applied across APIs by
 * the description index.
 */
export function prepareDescription(raw: string, api: string, libraryNames: readonly string[]): DescriptionResult {
  const normalised = raw.replace(/\r\n?/g, '\n');
  const truncated = collapseWhitespace(truncateAtDirective(truncateAtSection(stripSignature(normalised, api))));
  const capped = capLength(truncated);
  // The library's name may have been redacted as a component of the path: the scrubber reads the placeholder as it.
  const text = scrubVersions(redactName(capped, api), [...libraryNames, NAME_PLACEHOLDER]);
  if (text === '') return { ok: false, reason: 'empty', text };
  if (isAutoGenerated(capped)) return { ok: false, reason: 'auto-generated', text };
  if (isNonDiscriminative(text)) return { ok: false, reason: 'non-discriminative', text };
  const tier = qualityTier(text);
  if (tier === null) return { ok: false, reason: 'too-short', text };
  return { ok: true, text, tier };
}
