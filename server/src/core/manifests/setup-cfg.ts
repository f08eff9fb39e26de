// setup.cfg (setuptools, INI): [options] install_requires and [options.extras_require] hold requirement lists;
// [options] python_requires the Python versions the package supports.
// A value continues on the indented lines below its key; a one-line value is a ";"-separated list, as setuptools
// reads it. "file: requirements.txt" pulls in a requirements file.
import type { ManifestInclude, ManifestProblem, ParsedManifest, Pin } from '../pin.js';
import { pythonPin } from './python-pins.js';
import { parseRequirement } from './requirement.js';

interface IniValue {
  section: string;
  key: string;
  line: number;
  /** The text after "=" on the key's line, then each continuation line, with its 1-based line. */
  parts: { line: number; text: string }[];
}

/** INI in the configparser dialect setuptools uses: "key = value" or "key: value", indented continuation lines. */
export function readIni(text: string): { values: IniValue[]; sections: string[] } {
  const values: IniValue[] = [];
  const sections: string[] = [];
  let section = '';
  let current: IniValue | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (/^\s*[#;]/.test(raw)) return; // a comment line
    if (current && /^\s+\S/.test(raw)) {
      current.parts.push({ line, text: raw.trim() });
      return;
    }
    if (raw.trim() === '') return;
    current = null;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = header[1]!.trim();
      sections.push(section);
      return;
    }
    const kv = /^([^=:\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(raw);
    if (kv) {
      current = { section, key: kv[1]!.trim(), line, parts: kv[2]!.trim() === '' ? [] : [{ line, text: kv[2]!.trim() }] };
      values.push(current);
    }
  });
  return { values, sections };
}

const normalKey = (key: string) => key.toLowerCase().replace(/-/g, '_');

export function parseSetupCfg(text: string, file: string): ParsedManifest {
  const pins: Pin[] = [];
  const problems: ManifestProblem[] = [];
  const includes: ManifestInclude[] = [];
  const { values, sections } = readIni(text);
  const describesProject = sections.some((s) => s === 'options' || s === 'metadata' || s === 'options.extras_require');
  for (const value of values) {
    const section = value.section.toLowerCase();
    if (section === 'options' && normalKey(value.key) === 'python_requires') {
      const pin = pythonPin(value.parts.map((p) => p.text).join(' ').replace(/(^|\s)#.*$/, ''), { file, line: value.line });
      if ('error' in pin) problems.push({ file, line: value.line, message: pin.error });
      else pins.push(pin);
      continue;
    }
    const wanted = (section === 'options' && normalKey(value.key) === 'install_requires') || section === 'options.extras_require';
    if (!wanted) continue;
    const first = value.parts[0]?.text ?? '';
    const file_ = /^file:\s*(.*)$/.exec(first);
    if (file_ && value.parts.length === 1) {
      for (const target of file_[1]!.split(',').map((t) => t.trim()).filter((t) => t !== '')) includes.push({ target, constraint: false, line: value.line });
      continue;
    }
    // Multi-line: one requirement per line. One line: ";"-separated (a marker cannot be written on one line).
    const items = value.parts.length === 1 && value.parts[0]!.line === value.line
      ? first.split(';').map((t) => ({ line: value.line, text: t }))
      : value.parts;
    for (const item of items) {
      const body = item.text.replace(/(^|\s)#.*$/, '').trim();
      if (body === '') continue;
      const parsed = parseRequirement(body, { file, line: item.line });
      if ('error' in parsed) problems.push({ file, line: item.line, message: parsed.error });
      else pins.push(parsed);
    }
  }
  return { pins, problems, includes, describesProject };
}
