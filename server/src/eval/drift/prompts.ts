// The drift suite's prompt contract: the generation prompt (the paper's version anchor, "Using LIB vX, …", rendered
// from a task's template), the repair prompt (failing code, error trace, task and migration notes; later rounds show
// the newest attempt and its error), reading a repair prompt back (the built-in models answer from the prompt text
// alone), and extracting the Python code from a response. Pure.
import { fence as sectionFence, readSections } from '../prompt-sections.js';
import { GROUNDING_SECTION } from '../runs/arms.js';
import type { ChatMessage } from '../models/provider.js';

/** Changes when the wording or the layout of the prompts changes: part of a drift run's identity. */
export const DRIFT_PROMPT_VERSION = 1;

/** What the prompts need of a task (the task files' format, tasks.ts). */
export interface PromptTask {
  id: string;
  /** Template with {library} and {version} placeholders. */
  prompt: string;
  entryPoint: string;
}

const GENERATION_SYSTEM =
  'You write Python code for one specific version of a library. Use only the API of the version the task names. ' +
  'Reply with one ```python code block that defines the requested function, with the imports it needs; no text outside the block.';

const REPAIR_SYSTEM =
  'You fix Python code so that it runs on one specific version of a library. Use only the API of the target version. ' +
  'Reply with one ```python code block holding the complete corrected code, with its imports; no text outside the block.';

/** The task's prompt for one version: {library} and {version} filled in. */
export function renderTaskText(task: PromptTask, library: string, version: string): string {
  return task.prompt.replaceAll('{library}', library).replaceAll('{version}', version).trim();
}

/** The generation prompt: a system message with the answer format, the task text as the user message. */
export function generationPrompt(task: PromptTask, library: string, version: string): ChatMessage[] {
  return [
    { role: 'system', content: GENERATION_SYSTEM },
    { role: 'user', content: renderTaskText(task, library, version) },
  ];
}

// ---- the grounded arm ------------------------------------------------------------------------------------------------

/** Changes when the layout of the grounded section changes: part of the identity of runs with the grounded arm. */
export const DRIFT_GROUNDING_VERSION = 1;

function groundingIntro(library: string, version: string): string {
  return `anachron, a tool that knows which APIs and signatures each version of ${library} has, answers for the APIs this task concerns at ${library} ${version}, the version the code must work with:`;
}

/**
 * The grounded twin of a generation prompt: the same messages, byte for byte, with a Documentation section (the
 * anachron_lookup answers, as an agent calling the tool gets them) appended to the user message. Nothing else
 * changes, so plain and grounded samples differ only by what the tool says.
 */
export function groundedGenerationPrompt(plain: readonly ChatMessage[], library: string, version: string, documentation: string): ChatMessage[] {
  if (documentation.trim() === '') throw new Error('a Documentation section must not be empty');
  const last = plain.length - 1;
  if (last < 0 || plain[last]!.role !== 'user') throw new Error('a generation prompt ends with the user message');
  const section = `\n\n${GROUNDING_SECTION}:\n${groundingIntro(library, version)}\n${fence(documentation, 'markdown')}`;
  return plain.map((m, i) => (i === last ? { ...m, content: m.content + section } : { ...m }));
}

/** A generation prompt's user text split into the task and its Documentation section (null when it has none). */
export function splitDocumentation(user: string): { task: string; documentation: string | null } {
  const m = new RegExp(`\\n\\n${GROUNDING_SECTION}:\\n[^\\n]*\\n(\`{3,})markdown\\n([\\s\\S]*)\\n\\1$`).exec(user);
  if (!m) return { task: user, documentation: null };
  return { task: user.slice(0, m.index), documentation: m[2]! };
}

/** A section's fence (prompt-sections.ts) around content whose trailing newlines are dropped. */
export function fence(content: string, info: string): string {
  return sectionFence(content.replace(/\n+$/, ''), info);
}

export interface RepairPromptSpec {
  library: string;
  /** The version the code was written (prompted) for. */
  from: string;
  /** The version it has to run on. */
  to: string;
  /** 1 for the first repair; later rounds show the newest attempt and its error. */
  round: number;
  /** The task's text rendered for the target version. */
  task: string;
  entryPoint: string;
  /** The code that fails on the target version (the sample, or the previous round's attempt). */
  code: string;
  /** The error it raised there (traceback, or the timeout / warning that made it fail). */
  error: string;
  /** Migration notes (migration-notes.ts), or null to leave them out. */
  notes: string | null;
}

/** Section titles of the repair prompt, in order. */
const SECTIONS = { task: 'Task', code: 'Code', error: 'Error', notes: 'Migration notes' } as const;

export function repairPrompt(spec: RepairPromptSpec): ChatMessage[] {
  const intro =
    spec.round <= 1
      ? `The code below was written for ${spec.library} ${spec.from} and passes its test there, but fails on ${spec.library} ${spec.to}. Fix it so that it works on ${spec.library} ${spec.to}.`
      : `Your previous fix (attempt ${spec.round - 1}) of code written for ${spec.library} ${spec.from} still fails on ${spec.library} ${spec.to}. Fix it so that it works on ${spec.library} ${spec.to}.`;
  const header = [`Library: ${spec.library}`, `From version: ${spec.from}`, `Target version: ${spec.to}`, `Entry point: ${spec.entryPoint}`, `Round: ${spec.round}`];
  const parts = [
    header.join('\n'),
    intro,
    `${SECTIONS.task}:\n${fence(spec.task, 'text')}`,
    `${SECTIONS.code}:\n${fence(spec.code, 'python')}`,
    `${SECTIONS.error}:\n${fence(spec.error || '(no error text)', 'text')}`,
  ];
  if (spec.notes !== null) parts.push(`${SECTIONS.notes}:\n${fence(spec.notes, 'text')}`);
  parts.push(`Reply with the complete corrected code for ${spec.library} ${spec.to} in one \`\`\`python code block.`);
  return [
    { role: 'system', content: REPAIR_SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

/** What a repair prompt says, read back from its text; null for any other prompt. */
export function parseRepairPrompt(messages: readonly ChatMessage[]): RepairPromptSpec | null {
  const user = [...messages].reverse().find((m) => m.role === 'user')?.content;
  if (!user || !user.startsWith('Library: ')) return null;
  const lines = user.split('\n');
  const header = new Map<string, string>();
  let i = 0;
  for (; i < lines.length && lines[i] !== ''; i++) {
    const m = /^([A-Za-z ]+): (.*)$/.exec(lines[i]!);
    if (!m) return null;
    header.set(m[1]!, m[2]!);
  }
  const { sections, unclosed } = readSections(lines, i);
  if (unclosed !== null) return null;
  const library = header.get('Library');
  const from = header.get('From version');
  const to = header.get('Target version');
  const entryPoint = header.get('Entry point');
  const round = Number(header.get('Round'));
  const task = sections.get(SECTIONS.task);
  const code = sections.get(SECTIONS.code);
  if (!library || !from || !to || !entryPoint || !Number.isInteger(round) || task === undefined || code === undefined) return null;
  return { library, from, to, entryPoint, round, task, code, error: sections.get(SECTIONS.error) ?? '', notes: sections.get(SECTIONS.notes) ?? null };
}

// ---- extraction ---------------------------------------------------------------------------------------------------

export type ExtractionKind = 'fenced' | 'raw' | 'empty';

export interface ExtractedCode {
  code: string;
  /** fenced: from a ``` block; raw: the whole response read as code (no fence); empty: nothing to run. */
  kind: ExtractionKind;
}

interface Block {
  info: string;
  body: string;
}

function fencedBlocks(text: string): Block[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*(`{3,}|~{3,})\s*([\w+-]*)[^\n]*$/.exec(lines[i]!);
    if (!open) continue;
    const marker = open[1]!;
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`).test(lines[j]!)) j++;
    // An unclosed fence (the answer was cut off at max tokens) runs to the end.
    blocks.push({ info: open[2]!.toLowerCase(), body: lines.slice(i + 1, j).join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * The Python code of a response: the fenced block (```python, ```py, or unlabelled) that defines the entry point,
 * else the first Python block, else the first block; without any fence, the whole response (a model answering with
 * bare code). An empty response gives kind "empty".
 */
export function extractPythonCode(response: string, entryPoint?: string): ExtractedCode {
  if (response.trim() === '') return { code: '', kind: 'empty' };
  const blocks = fencedBlocks(response).filter((b) => b.body.trim() !== '');
  const python = blocks.filter((b) => b.info === 'python' || b.info === 'py' || b.info === 'python3' || b.info === '');
  const defines = entryPoint ? new RegExp(`^\\s*(?:async\\s+)?def\\s+${entryPoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\(`, 'm') : null;
  const chosen = (defines ? python.find((b) => defines.test(b.body)) : undefined) ?? python[0] ?? blocks[0];
  if (chosen) return { code: chosen.body.replace(/\s+$/, '') + '\n', kind: 'fenced' };
  return { code: response.replace(/\r\n?/g, '\n').replace(/\s+$/, '') + '\n', kind: 'raw' };
}
