// Poetry version constraints → PEP 440 specifiers: "^1.2.3" → ">=1.2.3,<2.0.0", "~1.2" → ">=1.2,<1.3",
// "1.2.*" → "==1.2.*", "*" → "" (any version), "1.2.3" → "==1.2.3". PEP 440 operators pass through.
import { isValidSpecifier } from '../versions.js';

const RELEASE = /^v?(\d+(?:\.\d+)*)(.*)$/;

/** "1.2.3" with the component at `index` raised by one and everything after it set to 0, keeping the length. */
function bump(parts: number[], index: number): string {
  return parts.map((p, i) => (i < index ? p : i === index ? p + 1 : 0)).join('.');
}

function translateOne(part: string): string | { error: string } {
  const text = part.trim();
  if (text === '*' || text === '') return '';
  if (text.startsWith('^')) {
    const version = text.slice(1).trim();
    const m = RELEASE.exec(version);
    if (!m) return { error: `"${text}" is not a valid Poetry caret constraint` };
    const parts = m[1]!.split('.').map(Number);
    // The left-most non-zero component may not change; with none, the last one given may not.
    let index = parts.findIndex((p) => p !== 0);
    if (index < 0) index = parts.length - 1;
    return `>=${version},<${bump(parts, index)}`;
  }
  if (text.startsWith('~') && !text.startsWith('~=')) {
    const version = text.slice(1).trim();
    const m = RELEASE.exec(version);
    if (!m) return { error: `"${text}" is not a valid Poetry tilde constraint` };
    const parts = m[1]!.split('.').map(Number);
    // ~1.2.3 and ~1.2 allow patch changes; ~1 allows minor changes.
    return `>=${version},<${bump(parts, parts.length === 1 ? 0 : 1)}`;
  }
  if (/^[<>=!~]/.test(text)) return text.replace(/^(===|==|!=|<=|>=|~=|<|>|=)\s*/, (op) => (op.trim() === '=' ? '==' : op.trim()));
  // A bare version: exact, or a wildcard ("1.2.*", "1.2.x").
  const wildcard = /^(.*?)\.(\*|x|X)$/.exec(text);
  if (wildcard) return `==${wildcard[1]}.*`;
  return `==${text}`;
}

/**
 * Translates a Poetry constraint (comma- or space-separated parts) into a PEP 440 specifier. Alternatives
 * ("^1.2 || ^2.0") have no PEP 440 equivalent: they give "" (any version) rather than a range wider or narrower
 * than the one written.
 */
export function poetryToPep440(constraint: string): { specifier: string } | { error: string } {
  const text = constraint.trim();
  if (text.includes('||') || /(^|\s)\|(\s|$)/.test(text)) return { specifier: '' };
  // "'>= 1.2, < 1.5'" and "'>=1.2 <1.5'" are both one constraint made of two parts.
  const parts = text
    .split(',')
    .flatMap((p) => p.trim().split(/\s+(?=[<>=!~^])/))
    .map((p) => p.replace(/^([<>=!~^]+)\s+/, '$1'));
  const out: string[] = [];
  for (const part of parts) {
    const one = translateOne(part);
    if (typeof one !== 'string') return one;
    if (one !== '') out.push(one);
  }
  const specifier = out.join(',');
  if (specifier !== '' && !isValidSpecifier(specifier)) return { error: `"${constraint}" is not a valid Poetry version constraint` };
  return { specifier };
}
