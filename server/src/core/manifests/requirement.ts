// One PEP 508 requirement ("numpy[extra]>=1.21,<2 ; python_version >= '3.9'") read into a pin. Shared by every
// manifest format whose entries are PEP 508 strings.
import { excerpt } from '../excerpt.js';
import { normalizeDistributionName } from '../library-names.js';
import type { Pin, PinKind, PinOrigin } from '../pin.js';
import { isValidSpecifier, isValidVersion, normalVersion } from '../versions.js';

const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$/s;

/** Exact version of a specifier that allows one version only ("==1.2.3", "===1.2.3"); wildcards do not count. */
export function exactVersionOf(specifier: string): string | null {
  const m = /^\s*(===?)\s*([^\s,*;]+)\s*$/.exec(specifier);
  if (!m || !isValidVersion(m[2]!)) return null;
  // == compares normal forms (PEP 440): "v1.24.2" and "0!1.24.2" name 1.24.2, and are shown so; === is text.
  return m[1] === '==' ? normalVersion(m[2]!) : m[2]!;
}

/** A pin from parts already taken apart (lock entries, Poetry tables, conda specs). */
export function makePin(name: string, specifier: string, origin: PinOrigin, kind: PinKind = 'requirement', marker?: string): Pin {
  const pin: Pin = { distribution: normalizeDistributionName(name), kind, specifier, exactVersion: exactVersionOf(specifier), origin };
  if (marker !== undefined && marker.trim() !== '') pin.marker = marker.trim();
  return pin;
}

/** A lock entry: the exact version it names. */
export function lockPin(name: string, version: string, origin: PinOrigin, marker?: string): Pin {
  return makePin(name, `==${version}`, origin, 'lock', marker);
}

/** Splits "spec ; marker" into its parts. With a URL ("name @ url ; marker") only a ";" after whitespace ends it. */
function splitMarker(text: string): { body: string; marker: string | undefined } {
  const at = text.indexOf('@');
  const m = at >= 0 ? /\s;/.exec(text) : /;/.exec(text);
  if (!m) return { body: text.trim(), marker: undefined };
  const cut = m.index + m[0].length - 1;
  return { body: text.slice(0, cut).trim(), marker: text.slice(cut + 1).trim() };
}

/** Parses a requirement such as "numpy[extra]==1.24.2 ; python_version>'3'" into a pin, or explains why not. */
export function parseRequirement(text: string, origin: PinOrigin): Pin | { error: string } {
  const { body, marker } = splitMarker(text);
  const m = NAME.exec(body);
  if (!m) return { error: `cannot read a requirement from "${excerpt(text.trim())}"` };
  let specifier = m[3]!.trim();
  if (specifier.startsWith('@')) return makePin(m[1]!, '', origin, 'requirement', marker);
  // PEP 508 allows the specifier in parentheses: "numpy (>=1.21)".
  const paren = /^\((.*)\)$/s.exec(specifier);
  if (paren) specifier = paren[1]!.trim();
  if (specifier !== '' && !isValidSpecifier(specifier)) {
    return { error: `"${excerpt(specifier)}" is not a valid PEP 440 version specifier for ${excerpt(m[1]!)}` };
  }
  return makePin(m[1]!, specifier, origin, 'requirement', marker);
}
