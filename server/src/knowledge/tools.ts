// The two agent tools — anachron_lookup and anachron_check — as one definition (names, descriptions, JSON input
// schemas, input validation) and one implementation, which every adapter calls: the language server for VS Code's
// language model tools and the @anachron chat participant, and the MCP server for other agents. The adapters only
// say where pins come from (the file an editor has open, a project folder). Pure, given a parser.
import type { AnalysisContext } from '../core/analyze.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { parseCommandLinePin, type Pin } from '../core/pins.js';
import type { PythonParser } from '../parser/python-parser.js';
import type { ApiKnowledge, LookupAnswer } from './api-lookup.js';
import { renderLookup, renderSnippetReport } from './render.js';
import { checkSnippet, importsOf, type SnippetReport } from './snippet.js';
import { isObject } from '../core/json-value.js';
import { InputError } from '../core/errors.js';

export const LOOKUP_TOOL = 'anachron_lookup';
export const CHECK_TOOL = 'anachron_check';

export interface LookupToolInput {
  api?: string;
  module?: string;
  description?: string;
  scope?: 'members' | 'library';
  /** Pins that override the project's, e.g. ["numpy==1.24.2"]. */
  pins?: string[];
  /** A file or folder of the project whose manifests give the pins (default: the editor's file, the server's folder). */
  path?: string;
}

export interface CheckToolInput {
  /** The code to check; without it, the lines `startLine`–`endLine` of the file `path` (or the editor's selection). */
  code?: string;
  pins?: string[];
  path?: string;
  /** 1-based, inclusive: a range of the file `path` to check instead of `code` (default: the whole file). */
  startLine?: number;
  endLine?: number;
}

const PINS_SCHEMA = {
  type: 'array',
  items: { type: 'string' },
  description: 'Pins that override the project\'s, as requirements: ["numpy==1.24.2"]. Usually omitted: the project\'s manifests (requirements*.txt, pyproject.toml, lock files) say which versions apply.',
} as const;

const PATH_SCHEMA = {
  type: 'string',
  description: 'A file or folder of the project whose pins apply (relative to the workspace or the server\'s project folder). Default: the file being edited, or the project root.',
} as const;

export const LOOKUP_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    api: { type: 'string', description: 'Fully qualified Python API, e.g. "numpy.trapezoid", "scipy.integrate.simpson" or "numpy.ndarray.mean" (the usual aliases such as np. are accepted).' },
    module: { type: 'string', description: 'With description: the module or class to search in ("numpy.linalg"), or just the library ("numpy").' },
    description: { type: 'string', description: 'What the API should do, in words, when its name is not known: the best matches at the pinned version are returned.' },
    scope: { type: 'string', enum: ['members', 'library'], description: '"members" (default): direct members of module; "library": every public function and class under it.' },
    pins: PINS_SCHEMA,
    path: PATH_SCHEMA,
  },
  additionalProperties: false,
} as const;

export const CHECK_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'Python code to check: a snippet, a function or a whole file, with its imports (import numpy as np). Omit it to check the file named by path (or a range of it), or, in the editor, the current selection.' },
    pins: PINS_SCHEMA,
    path: PATH_SCHEMA,
    startLine: { type: 'integer', minimum: 1, description: 'With path and no code: the first line (1-based) of the range of the file to check; the file\'s imports still apply.' },
    endLine: { type: 'integer', minimum: 1, description: 'With path and no code: the last line (1-based, inclusive) of the range to check.' },
  },
  additionalProperties: false,
} as const;

export const LOOKUP_DESCRIPTION =
  'Look up a Python library API (numpy, scipy, torch, … as tracked by anachron) at the exact version the project pins: whether it exists there, ' +
  'its signature and documentation summary at that version, how it changed in nearby versions, and the version-correct alternative when it is missing. ' +
  'Or give a module and a description to find the right API at the pinned version. Use it before writing or suggesting a library call you are not sure exists in the pinned version.';

export const CHECK_DESCRIPTION =
  'Check Python code against the library versions the project pins: reports calls, attributes and keyword arguments that do not exist at those versions ' +
  '(anachronistic or hallucinated APIs), each with the fix (the version-correct API, a keyword to drop, or the pin to raise), and the code with the fixes applied. ' +
  'Use it on code you wrote or are about to suggest.';

export class ToolInputError extends InputError {
  override readonly name: string = 'ToolInputError';
}

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`${key} must be a string`);
  return v.trim() === '' ? undefined : v;
}

function optionalPins(raw: Record<string, unknown>): string[] | undefined {
  const v = raw.pins;
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new ToolInputError('pins must be a list of requirements such as "numpy==1.24.2"');
  return v as string[];
}

function checkKnown(raw: Record<string, unknown>, known: readonly string[]): void {
  for (const k of Object.keys(raw)) if (!known.includes(k)) throw new ToolInputError(`unknown input "${k}" (known: ${known.join(', ')})`);
}

export function parseLookupInput(raw: unknown): LookupToolInput {
  if (!isObject(raw)) throw new ToolInputError('the input must be an object such as {"api": "numpy.trapezoid"}');
  checkKnown(raw, Object.keys(LOOKUP_INPUT_SCHEMA.properties));
  const input: LookupToolInput = {};
  for (const key of ['api', 'module', 'description', 'path'] as const) {
    const v = optionalString(raw, key);
    if (v !== undefined) input[key] = v;
  }
  const scope = optionalString(raw, 'scope');
  if (scope !== undefined) {
    if (scope !== 'members' && scope !== 'library') throw new ToolInputError('scope must be "members" or "library"');
    input.scope = scope;
  }
  const pins = optionalPins(raw);
  if (pins) input.pins = pins;
  if (!input.api && !input.description && !input.module) throw new ToolInputError('give an api (e.g. "numpy.trapezoid"), or a module and a description');
  return input;
}

function optionalLine(raw: Record<string, unknown>, key: string): number | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ToolInputError(`${key} must be a line number (1-based)`);
  return v;
}

/** Checks the input; `selectionAllowed`: an adapter that can supply the editor's selection accepts neither code nor path. */
export function parseCheckInput(raw: unknown, selectionAllowed = false): CheckToolInput {
  if (!isObject(raw)) throw new ToolInputError('the input must be an object such as {"code": "import numpy as np\\n…"}');
  checkKnown(raw, Object.keys(CHECK_INPUT_SCHEMA.properties));
  const input: CheckToolInput = {};
  if (raw.code !== undefined && raw.code !== null) {
    if (typeof raw.code !== 'string' || raw.code.trim() === '') throw new ToolInputError('code must be the Python code to check');
    input.code = raw.code;
  }
  const path = optionalString(raw, 'path');
  if (path !== undefined) input.path = path;
  const pins = optionalPins(raw);
  if (pins) input.pins = pins;
  const startLine = optionalLine(raw, 'startLine');
  const endLine = optionalLine(raw, 'endLine');
  if (startLine !== undefined) input.startLine = startLine;
  if (endLine !== undefined) input.endLine = endLine;
  if (input.code === undefined && input.path === undefined && !selectionAllowed) throw new ToolInputError('code must be the Python code to check (or give the path of a file to check)');
  if (input.code !== undefined && (startLine !== undefined || endLine !== undefined)) throw new ToolInputError('startLine and endLine select lines of the file path; they do not apply to code');
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) throw new ToolInputError('endLine comes before startLine');
  return input;
}

/** The project's pins with the tool input's overrides on top (origin "given to the tool"). */
export function withPinOverrides(pins: ReadonlyMap<string, Pin>, overrides: readonly string[] | undefined): Map<string, Pin> {
  const out = new Map(pins);
  for (const text of overrides ?? []) {
    const pin = parseCommandLinePin(text);
    if ('error' in pin) throw new ToolInputError(`pin ${text}: ${pin.error}`);
    if (pin.specifier === '') throw new ToolInputError(`pin ${text}: give a version, e.g. ${pin.distribution}==1.24.2`);
    out.set(normalizeDistributionName(pin.distribution), { ...pin, origin: { file: 'given to the tool', line: null } });
  }
  return out;
}

/** What an adapter supplies: the knowledge over its catalog, the parser, and the pins for a path. */
export interface ToolEnvironment {
  knowledge: ApiKnowledge;
  parser(): Promise<PythonParser>;
  /** The analysis context (pins, settings) for a path of the input, or the adapter's default when none is given. */
  contextFor(path: string | undefined): AnalysisContext;
  /** Reads a manifest named by a finding ("requirements.txt"), for the raise-the-pin fix. */
  readManifest?(file: string): string | undefined;
  /** Reads a file of the project by the input's path (open editors' text first): `{ text, shown }`, shown as findings name it. */
  readSource?(path: string): { text: string; shown: string } | undefined;
  /** Markdown (editors) or plain text (default Markdown). */
  markdown?: boolean;
}

export interface LookupToolResult {
  text: string;
  answer: LookupAnswer;
}

export interface CheckToolResult {
  text: string;
  report: SnippetReport;
}

export function runLookupTool(input: LookupToolInput, env: ToolEnvironment): LookupToolResult {
  const ctx = env.contextFor(input.path);
  const pins = withPinOverrides(ctx.pins, input.pins);
  const answer = env.knowledge.lookup({ ...(input.api ? { api: input.api } : {}), ...(input.module ? { module: input.module } : {}), ...(input.description ? { description: input.description } : {}), ...(input.scope ? { scope: input.scope } : {}) }, pins);
  return { text: renderLookup(answer, { markdown: env.markdown ?? true }), answer };
}

export async function runCheckTool(input: CheckToolInput, env: ToolEnvironment, options: { file?: string; firstLine?: number; preamble?: string } = {}): Promise<CheckToolResult> {
  const ctx = env.contextFor(input.path);
  const pins = withPinOverrides(ctx.pins, input.pins);
  const parser = await env.parser();
  let code = input.code;
  if (code === undefined) {
    // A file of the project, or a range of it under the file's imports.
    if (input.path === undefined) throw new ToolInputError('code must be the Python code to check (or give the path of a file to check)');
    const source = env.readSource?.(input.path);
    if (!source) throw new ToolInputError(`cannot read ${input.path}`);
    const lines = source.text.split('\n');
    const first = input.startLine ?? 1;
    const last = Math.min(input.endLine ?? lines.length, lines.length);
    if (first > lines.length) throw new ToolInputError(`${input.path} has ${lines.length} lines`);
    code = lines.slice(first - 1, last).join('\n');
    options = { ...options, file: source.shown, firstLine: first };
    if (first > 1 || last < lines.length) {
      const tree = parser.parse(source.text);
      try {
        const imports = importsOf(tree);
        if (imports) options.preamble = imports;
      } finally {
        tree.delete();
      }
    }
  }
  const report = checkSnippet(parser, code, { ...ctx, pins }, env.knowledge, {
    ...options,
    ...(env.readManifest ? { readManifest: (f: string) => env.readManifest!(f) } : {}),
  });
  return { text: renderSnippetReport(report, { markdown: env.markdown ?? true }), report };
}
