// Modules a surface could not look into (the runtime failed to import them, or the static extractor could not
// resolve them): their APIs are unknown there, neither present nor absent.
import type { Surface } from './surface.js';

/** Module name → why it is unresolved. */
export function unresolvedModules(surface: Surface): Map<string, string> {
  const imported = new Set(surface.apis.filter((a) => a.kind === 'module').map((a) => a.path));
  const out = new Map<string, string>();
  for (const m of surface.modules) if (!m.imported && !imported.has(m.name)) out.set(m.name, 'not imported');
  for (const e of surface.errors) if (e.module && !imported.has(e.module) && !out.has(e.module)) out.set(e.module, e.error);
  return out;
}

/**
 * Modules from outside the library that a runtime surface holds as opaque attributes (sqlalchemy.testing's
 * `from unittest import mock` from 2.0 on, a module's `import re`): the probe does not walk them, so what lies below
 * them is unknown there, never absent. Told by the record alone: an attribute defined in a module outside the
 * library, bound under that module's own name.
 */
export function foreignModules(surface: Surface): Set<string> {
  const own = (module: string) => module === surface.library || module.startsWith(`${surface.library}.`);
  const lastName = (dotted: string) => dotted.slice(dotted.lastIndexOf('.') + 1);
  return new Set(surface.apis.filter((a) => a.kind === 'attribute' && a.defined_in && !own(a.defined_in) && lastName(a.path) === lastName(a.defined_in)).map((a) => a.path));
}

/** Whether PATH lies strictly below one of ROOTS. */
export function belowAny(path: string, roots: ReadonlySet<string>): boolean {
  return someEnclosing(path.slice(0, Math.max(path.lastIndexOf('.'), 0)), (module) => roots.has(module));
}

/** Whether PATH or a module above it is unresolved. */
export function underUnresolved(path: string, unresolved: Map<string, string>): boolean {
  return someEnclosing(path, (module) => unresolved.has(module));
}

/** Whether PATH or one of its dotted prefixes satisfies `has`, longest first. */
function someEnclosing(path: string, has: (prefix: string) => boolean): boolean {
  for (let cut = path.length; cut > 0; cut = path.lastIndexOf('.', cut - 1)) {
    if (has(path.slice(0, cut))) return true;
  }
  return false;
}

/**
 * What a reference surface cannot be held to: the modules it could not look into, and those the candidate says exist
 * on some supported Pythons only (numpy.distutils, below 3.12) when the reference lacks them — it ran on another.
 */
export function notComparableModules(reference: Surface, candidate: Surface): Map<string, string> {
  const out = unresolvedModules(reference);
  const present = new Set(reference.apis.filter((a) => a.kind === 'module').map((a) => a.path));
  for (const [module, why] of Object.entries(candidate.python_conditional ?? {})) {
    if (!present.has(module) && !out.has(module)) out.set(module, why);
  }
  return out;
}
