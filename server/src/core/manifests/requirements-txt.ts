// pip requirements and constraints files (requirements*.txt, constraints*.txt, requirements*.in, the `pip:` list
// of a conda environment). Text in, pins, problems and the files it pulls in (-r, -c) out; following those is
// the caller's business, since that needs reading files.
import type { ManifestInclude, ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import { parseRequirement } from './requirement.js';

export interface RequirementLine {
  /** 1-based line where the logical line starts. */
  line: number;
  text: string;
}

/** Joins backslash continuations and drops comments, keeping the 1-based line where each logical line starts. */
export function logicalLines(text: string): RequirementLine[] {
  const out: RequirementLine[] = [];
  let pending: RequirementLine | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const noComment = raw.replace(/(^|\s)#.*$/, '');
    const continued = /\\\s*$/.test(noComment);
    const piece = noComment.replace(/\\\s*$/, '');
    if (pending) pending.text += ' ' + piece;
    else pending = { line: i + 1, text: piece };
    if (!continued) {
      out.push(pending);
      pending = null;
    }
  });
  if (pending) out.push(pending);
  return out;
}

const INCLUDE_OPTIONS: Record<string, boolean> = { '-r': false, '--requirement': false, '-c': true, '--constraint': true };

/** "-r base.txt", "-rbase.txt", "--requirement=base.txt", "--requirement base.txt" → the option and its value. */
function readOption(body: string): { option: string; value: string } {
  const long = /^(--[A-Za-z0-9-]+)(?:\s*=\s*|\s+|$)(.*)$/s.exec(body);
  if (long) return { option: long[1]!, value: long[2]!.trim() };
  const short = /^(-[A-Za-z])\s*(.*)$/s.exec(body);
  if (short) return { option: short[1]!, value: short[2]!.trim() };
  return { option: body, value: '' };
}

const URL_OR_PATH = /^(\.{0,2}[\\/]|~|[a-z][a-z0-9+.-]*:\/\/|file:|[A-Za-z]:[\\/])/i;
const ARCHIVE = /\.(whl|zip|tar\.gz|tgz|tar\.bz2|tar)$/i;

/** Reads requirement lines (already joined) into pins; options other than -r/-c are ignored. */
export function parseRequirementLines(lines: Iterable<RequirementLine>, file: string): Required<Pick<ParsedManifest, 'pins' | 'problems' | 'includes'>> {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const includes: ManifestInclude[] = [];
  for (const { line, text } of lines) {
    // Per-requirement options (--hash, --config-settings, …) follow the requirement after whitespace.
    const body = text.replace(/(^|\s)--[A-Za-z].*$/s, (all, lead: string) => (lead === '' ? all : '')).trim();
    if (body === '') continue;
    if (body.startsWith('-')) {
      const { option, value } = readOption(body);
      const constraint = INCLUDE_OPTIONS[option];
      if (constraint !== undefined) {
        if (value === '') problems.push({ file, line, message: `${option} needs a file name` });
        else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) includes.push({ target: value, constraint, line });
      }
      // -e/--editable installs a path or URL: it names no version. Other options (index URLs, --pre, …) pin nothing.
      continue;
    }
    if (URL_OR_PATH.test(body) || (ARCHIVE.test(body) && !body.includes('@'))) continue; // a path or URL: unpinned
    const parsed = parseRequirement(body, { file, line });
    if ('error' in parsed) problems.push({ file, line, message: parsed.error });
    else pins.push(parsed);
  }
  return { pins, problems, includes };
}

/**
 * Reads a pip requirements or constraints file. Editable, URL and path requirements name no version and give no
 * pin ("name @ URL" gives a bare pin); `--hash` and other per-requirement options are dropped; global options are
 * ignored; `-r`/`-c` become includes. A line that cannot be read becomes a problem and the rest still counts.
 */
export function parseRequirementsFile(text: string, file: string): ParsedManifest {
  return parseRequirementLines(logicalLines(text), file);
}
