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
