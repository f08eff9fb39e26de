// Pins: which version of which library a project says it uses, and where it says so.
import { normalizeDistributionName } from './library-names.js';
import { isValidSpecifier, isValidVersion } from './versions.js';

export interface PinOrigin {
  /** Manifest path as the user should see it (relative where possible), or "command line". */
  file: string;
  /** 1-based line in the manifest; null for pins that do not come from a file. */
  line: number | null;
}

/** Where a pin comes from, which decides precedence: lock > exact requirement > range > installed > bare name. */
export type PinKind = 'lock' | 'requirement' | 'installed' | 'assumed';

export interface Pin {
  /** Normalised distribution name (PEP 503). */
  distribution: string;
  /** Lock files and installed interpreters name exact versions; requirements may be exact, ranges or bare. */
  kind?: PinKind;
  /** The specifier as written, e.g. "==1.24.2" or ">=1.21,<2". */
  specifier: string;
  /** The single version the specifier allows, when it is an exact pin ("==1.24.2"); null otherwise. */
  exactVersion: string | null;
  origin: PinOrigin;
}

export interface ManifestProblem {
  file: string;
  line: number;
  message: string;
}

export interface ParsedManifest {
  pins: Pin[];
  problems: ManifestProblem[];
}

const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$/;

/** Exact version of a specifier that allows one version only ("==1.2.3", "===1.2.3"); wildcards do not count. */
export function exactVersionOf(specifier: string): string | null {
  const m = /^\s*===?\s*([^\s,*;]+)\s*$/.exec(specifier);
  if (!m || !isValidVersion(m[1]!)) return null;
  return m[1]!;
}

/** Parses a requirement such as "numpy[extra]==1.24.2 ; python_version>'3'" into a pin, or explains why not. */
export function parseRequirement(text: string, origin: PinOrigin): Pin | { error: string } {
  const withoutMarker = text.split(';')[0]!.trim();
  const m = NAME.exec(withoutMarker);
  if (!m) return { error: `cannot read a requirement from "${text}"` };
  const specifier = m[3]!.trim();
  if (specifier.startsWith('@')) {
    return { distribution: normalizeDistributionName(m[1]!), specifier: '', exactVersion: null, origin };
  }
  if (specifier !== '' && !isValidSpecifier(specifier)) {
    return { error: `"${specifier}" is not a valid PEP 440 version specifier for ${m[1]}` };
  }
  return {
    distribution: normalizeDistributionName(m[1]!),
    specifier,
    exactVersion: exactVersionOf(specifier),
    origin,
  };
}

/** Joins backslash continuations and drops comments, keeping the 1-based line where each logical line starts. */
function logicalLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let pending: { line: number; text: string } | null = null;
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

/**
 * Reads a pip requirements file. Options (-r, -c, --index-url, …), editable and URL/path requirements are not
 * version pins and are skipped; `--hash` options after a requirement are dropped. A line that cannot be read
 * becomes a problem and the rest of the file still counts.
 */
export function parseRequirementsTxt(text: string, file: string): ParsedManifest {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  for (const { line, text: logical } of logicalLines(text)) {
    const body = logical.replace(/\s--hash[=\s]\S+/g, '').trim();
    if (body === '' || body.startsWith('-')) continue;
    if (/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:\/\/|file:)/i.test(body)) continue; // local path or URL: unpinned
    const parsed = parseRequirement(body, { file, line });
    if ('error' in parsed) problems.push({ file, line, message: parsed.error });
    else pins.push(parsed);
  }
  return { pins, problems };
}

/** Pins given on the command line as LIB==VERSION (or any PEP 508 requirement). */
export function parseCommandLinePin(text: string): Pin | { error: string } {
  return parseRequirement(text, { file: 'command line', line: null });
}

export function describeOrigin(origin: PinOrigin): string {
  return origin.line === null ? origin.file : `${origin.file}:${origin.line}`;
}
