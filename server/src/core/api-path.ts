// Dotted API paths ("numpy.linalg.norm") and their cells: the small helpers every reader of a matrix needs.
import type { ApiHistory, VersionCell } from './api-model.js';

/** "norm" for "numpy.linalg.norm". */
export function leafName(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** "numpy.linalg" for "numpy.linalg.norm"; "" for a top-level name. */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('.');
  return i < 0 ? '' : path.slice(0, i);
}

/** A path with a segment starting with "_" is outside the public surface. */
export function isPrivatePath(path: string): boolean {
  return path.split('.').some((part) => part.startsWith('_'));
}

/** The cell of a tracked version, exactly (no interpolation: see version-state.ts for that). */
export function cellAt(history: ApiHistory | undefined, version: string): VersionCell | undefined {
  return history?.versions.find((c) => c.version === version);
}

/** `text` as a literal inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Spells `replacement` the way the code spells `api`: `np.trapz` for numpy.trapz becomes `np.trapezoid` for
 * numpy.trapezoid. The written name's last segments must match the API's; the rest is the alias of the API's head,
 * and the replacement must start with that head. One of Python's builtins (`builtins.float`, which a removal note
 * may advise) is written bare. Null otherwise (the caller then names the module to import from).
 */
export function spellLike(written: string, api: string, replacement: string): string | null {
  if (replacement.startsWith('builtins.')) return replacement.slice('builtins.'.length);
  if (written === api) return replacement; // spelled in full (`import numpy` … `numpy.trapz`)
  const w = written.split('.');
  const a = api.split('.');
  let tail = 0;
  while (tail < w.length && tail < a.length && w[w.length - 1 - tail] === a[a.length - 1 - tail]) tail++;
  if (tail === 0) return null;
  const writtenHead = w.slice(0, w.length - tail);
  const apiHead = a.slice(0, a.length - tail);
  if (writtenHead.length === 0) {
    // `from numpy import trapz; trapz(…)`: only a replacement in the same module can be written as a bare name.
    const r = replacement.split('.');
    return r.slice(0, -1).join('.') === a.slice(0, -1).join('.') ? r[r.length - 1]! : null;
  }
  const head = apiHead.join('.');
  if (replacement !== head && !replacement.startsWith(`${head}.`)) return null;
  return [...writtenHead, ...replacement.slice(head.length).split('.').filter(Boolean)].join('.');
}
