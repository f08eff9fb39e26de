// The prompt contract between the benchmark's task builder and the models: what a prompt contains and how it is laid
// out. The task builder renders every sample's prompt with renderPrompt; the built-in models read it back with
// parsePrompt, from exactly the text a remote model receives. Pure: no I/O. Documented in docs/benchmark-models.md.
import type { ChatMessage } from '../models/provider.js';
import { fence, readSections } from '../prompt-sections.js';
import { GROUNDING_SECTION } from '../runs/arms.js';
import type { BenchSample } from '../runs/samples.js';
import { InputError } from '../../core/errors.js';

export const PROMPT_CONTRACT_VERSION = 1;

export type BenchTask = 'API-C' | 'API-I' | 'SR';
export type BenchLevel = 'L0' | 'L1' | 'L2' | 'L3';
export const BENCH_TASKS: readonly BenchTask[] = ['API-C', 'API-I', 'SR'];
export const BENCH_LEVELS: readonly BenchLevel[] = ['L0', 'L1', 'L2', 'L3'];
/** The tasks whose samples come from a corpus of code (the others from the matrices alone). */
export const CORPUS_TASKS: readonly BenchTask[] = ['API-C'];

/** Where the masked call stood in an API-C snippet. */
export const MASK_TOKEN = '<FILL>';
/** What the docstring pipeline puts in place of the API's own name (dotted path and components) in a description. */
export const NAME_PLACEHOLDER = '[API]';

/** API-I: module path + redacted description → the API's name. */
export interface ApiIPrompt {
  task: 'API-I';
  library: string;
  version: string;
  /** The path the API is a member of: a module, or a class for methods and properties (e.g. "numpy.linalg"). */
  module: string;
  /** Redacted description (Appendix E pipeline), the API's name replaced by NAME_PLACEHOLDER. */
  description: string;
  /** The grounded arm: anachron's answer for the question, as an agent's tool call would return it (GROUNDING). */
  grounding?: string;
}

/** SR: fully qualified name + version → signature. */
export interface SrPrompt {
  task: 'SR';
  library: string;
  version: string;
  /** Fully qualified name, e.g. "numpy.linalg.norm". */
  api: string;
  /** The grounded arm: anachron's answer for the question (GROUNDING). */
  grounding?: string;
}

/**
 * API-C: a code snippet with one library call masked → the call. Levels (cumulative, as in the paper):
 * L0 code only; L1 + redacted description; L2 + the version (a `# requires: LIB==VERSION` first line and a Version
 * header); L3 + the API's name, the model predicts the arguments.
 */
export interface ApiCPrompt {
  task: 'API-C';
  level: BenchLevel;
  library: string;
  /** Required at L2 and L3, absent at L0 and L1 (the version is exactly what those levels withhold). */
  version?: string;
  /** Required at L1 and L2, optional at L3, absent at L0. */
  description?: string;
  /** Fully qualified name of the masked API: required at L3, absent below. */
  api?: string;
  /** Code before the masked call: already truncated (Appendix F.6), imports re-attached. */
  prefix: string;
  /** Right context after the masked call (3–10 lines, scope-bounded). */
  suffix: string;
  /** The grounded arm: anachron's answer for the question (GROUNDING). */
  grounding?: string;
}

export type PromptSpec = ApiIPrompt | SrPrompt | ApiCPrompt;


const GROUNDING_SYSTEM =
  `A ${GROUNDING_SECTION} section holds the answer of anachron, a tool that knows which APIs and signatures each version of the library has, for the version the code must work with. Use it where it applies.`;

export class PromptContractError extends InputError {
  override readonly name: string = 'PromptContractError';
}

// ---- rendering ------------------------------------------------------------------------------------------------------

const SYSTEM: Record<BenchTask, string> = {
  'API-I': [
    'You are an expert on the public APIs of Python libraries and on how they changed from version to version.',
    'You are given a library, its exact version, a module (or class) path, and the description of one public API that is a direct member of that path, with the API\'s own name replaced by ' + NAME_PLACEHOLDER + '.',
    'Answer with the name of that API as it exists in that exact version: a single Python identifier, without the module path, without backticks, without explanation.',
  ].join('\n'),
  SR: [
    'You are an expert on the public APIs of Python libraries and on how they changed from version to version.',
    'You are given a library, its exact version and the fully qualified name of one of its public callables.',
    'Answer with the complete signature of that callable in that exact version, on one line, in the form name(param, param=default, *args, kw=default, **kwargs):',
    'every parameter in order, with its default value when it has one, "/" and "*" markers where they apply, no type annotations, no return annotation, no explanation.',
  ].join('\n'),
  'API-C': [
    'You are an expert Python programmer.',
    `You are given a Python code snippet in which one call to a library API has been replaced by ${MASK_TOKEN}.`,
    `Answer with the call expression that replaces ${MASK_TOKEN} (for example np.mean(values, axis=0)), using the names the code imports: one expression, no code fences, no explanation.`,
  ].join('\n'),
};

function checkLine(name: string, value: string): void {
  if (value.length === 0 || /[\r\n]/.test(value)) throw new PromptContractError(`${name} must be one non-empty line`);
}


export function requiresLine(library: string, version: string): string {
  return `# requires: ${library}==${version}`;
}

/** Checks a spec against the contract (levels, required and forbidden fields). Throws PromptContractError. */
export function validatePromptSpec(spec: PromptSpec): void {
  checkLine('library', spec.library);
  if (spec.grounding !== undefined && spec.grounding.trim() === '') throw new PromptContractError('a grounding section must not be empty');
  switch (spec.task) {
    case 'API-I':
      checkLine('version', spec.version);
      checkLine('module', spec.module);
      if (spec.description.trim().length === 0) throw new PromptContractError('API-I needs a description');
      return;
    case 'SR':
      checkLine('version', spec.version);
      checkLine('api', spec.api);
      return;
    case 'API-C': {
      const { level } = spec;
      if (!BENCH_LEVELS.includes(level)) throw new PromptContractError(`unknown level ${String(level)}`);
      const needsVersion = level === 'L2' || level === 'L3';
      if (needsVersion !== (spec.version !== undefined)) throw new PromptContractError(`API-C ${level} ${needsVersion ? 'needs' : 'must not reveal'} the version`);
      if (spec.version !== undefined) checkLine('version', spec.version);
      if ((level === 'L1' || level === 'L2') && (spec.description === undefined || spec.description.trim() === '')) throw new PromptContractError(`API-C ${level} needs a description`);
      if (level === 'L0' && spec.description !== undefined) throw new PromptContractError('API-C L0 must not have a description');
      if ((level === 'L3') !== (spec.api !== undefined)) throw new PromptContractError(`API-C ${level} ${level === 'L3' ? 'needs' : 'must not reveal'} the API name`);
      if (spec.api !== undefined) checkLine('api', spec.api);
      if (spec.prefix.includes(MASK_TOKEN) || spec.suffix.includes(MASK_TOKEN)) throw new PromptContractError(`the code must not contain ${MASK_TOKEN} itself`);
      return;
    }
    default:
      throw new PromptContractError(`unknown task ${String((spec as { task?: unknown }).task)}`);
  }
}

/** The messages sent to the model for one sample: a system message with the task's instructions, a user message with the payload. */
export function renderPrompt(spec: PromptSpec): ChatMessage[] {
  validatePromptSpec(spec);
  const header: string[] = [`Task: ${spec.task}`];
  const sections: string[] = [];
  switch (spec.task) {
    case 'API-I':
      header.push(`Library: ${spec.library}`, `Version: ${spec.version}`, `Module: ${spec.module}`);
      sections.push(`Description:\n${fence(spec.description, 'text')}`);
      break;
    case 'SR':
      header.push(`Library: ${spec.library}`, `Version: ${spec.version}`, `API: ${spec.api}`);
      break;
    case 'API-C': {
      header.push(`Level: ${spec.level}`, `Library: ${spec.library}`);
      if (spec.version !== undefined) header.push(`Version: ${spec.version}`);
      if (spec.api !== undefined) header.push(`API: ${spec.api}`);
      if (spec.description !== undefined) sections.push(`Description:\n${fence(spec.description, 'text')}`);
      const requires = spec.version !== undefined ? requiresLine(spec.library, spec.version) + '\n' : '';
      sections.push(`Code:\n${fence(requires + spec.prefix + MASK_TOKEN + spec.suffix, 'python')}`);
      break;
    }
  }
  if (spec.grounding !== undefined) sections.unshift(`${GROUNDING_SECTION}:\n${fence(spec.grounding, 'markdown')}`);
  const user = [header.join('\n'), ...sections].join('\n\n') + '\n';
  return [
    { role: 'system', content: spec.grounding !== undefined ? `${SYSTEM[spec.task]}\n${GROUNDING_SYSTEM}` : SYSTEM[spec.task] },
    { role: 'user', content: user },
  ];
}

// ---- parsing --------------------------------------------------------------------------------------------------------

const HEADER_KEYS = new Set(['Task', 'Level', 'Library', 'Version', 'Module', 'API']);

/** Reads the sections of a rendered user message: "Name:" followed by a fenced block. */
function sectionsOf(lines: string[], start: number): Map<string, string> {
  const { sections, unclosed } = readSections(lines, start);
  if (unclosed !== null) throw new PromptContractError(`section ${unclosed} has no closing fence`);
  return sections;
}

/**
 * Reads a prompt back into its spec: from the messages renderPrompt produced (or just the user message's text).
 * Throws PromptContractError when the text does not follow the contract.
 */
export function parsePrompt(prompt: readonly ChatMessage[] | string): PromptSpec {
  const text = typeof prompt === 'string' ? prompt : [...prompt].reverse().find((m) => m.role === 'user' && /^Task: /m.test(m.content))?.content;
  if (text === undefined) throw new PromptContractError('no user message with a "Task:" header');
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const first = lines.findIndex((l) => l.startsWith('Task: '));
  if (first < 0) throw new PromptContractError('no "Task:" header');
  const header = new Map<string, string>();
  let i = first;
  for (; i < lines.length && lines[i] !== ''; i++) {
    const m = /^([A-Za-z]+): (.+)$/.exec(lines[i]!);
    if (!m || !HEADER_KEYS.has(m[1]!)) throw new PromptContractError(`unexpected header line: ${lines[i]!.slice(0, 80)}`);
    header.set(m[1]!, m[2]!);
  }
  const sections = sectionsOf(lines, i);
  const need = (key: string): string => {
    const v = header.get(key);
    if (v === undefined) throw new PromptContractError(`missing header ${key}`);
    return v;
  };
  const task = need('Task');
  const library = need('Library');
  let spec: PromptSpec;
  if (task === 'API-I') {
    const description = sections.get('Description');
    if (description === undefined) throw new PromptContractError('API-I prompt without a Description');
    spec = { task, library, version: need('Version'), module: need('Module'), description };
  } else if (task === 'SR') {
    spec = { task, library, version: need('Version'), api: need('API') };
  } else if (task === 'API-C') {
    const level = need('Level') as BenchLevel;
    let code = sections.get('Code');
    if (code === undefined) throw new PromptContractError('API-C prompt without Code');
    const version = header.get('Version');
    if (version !== undefined) {
      const requires = requiresLine(library, version) + '\n';
      if (code.startsWith(requires)) code = code.slice(requires.length);
    }
    const at = code.indexOf(MASK_TOKEN);
    if (at < 0 || code.indexOf(MASK_TOKEN, at + 1) >= 0) throw new PromptContractError(`API-C code must contain ${MASK_TOKEN} exactly once`);
    const c: ApiCPrompt = { task, level, library, prefix: code.slice(0, at), suffix: code.slice(at + MASK_TOKEN.length) };
    if (version !== undefined) c.version = version;
    const description = sections.get('Description');
    if (description !== undefined) c.description = description;
    const api = header.get('API');
    if (api !== undefined) c.api = api;
    spec = c;
  } else {
    throw new PromptContractError(`unknown task ${task}`);
  }
  const grounding = sections.get(GROUNDING_SECTION);
  if (grounding !== undefined) spec.grounding = grounding;
  validatePromptSpec(spec);
  return spec;
}

/** A LibEvoBench sample: one of the three tasks (API-C at a level). */
export type LibEvoBenchSample = BenchSample<BenchTask, BenchLevel>;
