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

export function underUnresolved(path: string, unresolved: Map<string, string>): boolean {
  for (let cut = path.length; cut > 0; cut = path.lastIndexOf('.', cut - 1)) {
    if (unresolved.has(path.slice(0, cut))) return true;
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
