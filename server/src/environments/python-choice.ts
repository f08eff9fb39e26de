// Which interpreter a release's environment is made from, and why, in words a user can check: the newest one found
// that the release declares (its Requires-Python and the Python versions its classifiers name, i.e. those it was
// released for), unless the user asked for one. Pure: the interpreters and the release's metadata in, a choice out.
import { satisfies } from '../core/versions.js';
import type { PythonInterpreter } from './interpreters.js';
import type { ReleaseMetadata } from './release-metadata.js';

export type PythonChoice = { interpreter: PythonInterpreter; reason: string } | { error: string };

/** "3.7–3.10" for consecutive minors, else a comma list. */
export function minorsText(minors: readonly string[]): string {
  const n = minors.map((m) => Number(m.split('.')[1]));
  const consecutive = n.every((x, i) => i === 0 || x === n[i - 1]! + 1);
  return consecutive && minors.length > 2 ? `${minors[0]}–${minors[minors.length - 1]}` : minors.join(', ');
}

function allows(specifier: string | null, version: string): boolean {
  if (!specifier) return true;
  try {
    return satisfies(version, specifier);
  } catch {
    return true; // an unreadable Requires-Python is pip's to reject, not ours
  }
}

/** A --base-python that is a version ("3.11", "3.11.7") rather than a path. */
export function isPythonVersionRequest(text: string): boolean {
  return /^3\.\d+(\.\d+)?$/.test(text.trim());
}

function found(interpreters: readonly PythonInterpreter[]): string {
  return interpreters.length ? interpreters.map((i) => i.version).join(', ') : 'none';
}

/**
 * Chooses the interpreter for LIBRARY==VERSION among those found (newest first). `wanted` is a version the user
 * asked for ("3.11": the newest 3.11 found; "3.11.7": exactly that one). Interpreters that cannot make a venv, or that
 * the release's Requires-Python excludes, are never chosen.
 */
export function choosePython(interpreters: readonly PythonInterpreter[], release: ReleaseMetadata, wanted?: string): PythonChoice {
  const what = `${release.name} ${release.version}`;
  const usable = interpreters.filter((i) => i.canVenv);
  const declared = release.requiresPython ? `Requires-Python ${release.requiresPython}` : 'no Requires-Python';
  const allowed = usable.filter((i) => allows(release.requiresPython, i.version));
  if (wanted) {
    const w = wanted.trim();
    const matching = usable.filter((i) => (w.split('.').length === 2 ? i.minor === w : i.version === w));
    if (matching.length === 0) return { error: `no interpreter ${w} that can make a virtual environment was found (found: ${found(usable)}); install it, or give --base-python PATH` };
    const ok = matching.filter((i) => allows(release.requiresPython, i.version));
    if (ok.length === 0) return { error: `${what} does not run on Python ${w} (${declared})` };
    const named = release.pythonClassifiers.includes(ok[0]!.minor);
    return { interpreter: ok[0]!, reason: `Python ${w} as asked (${declared}${release.pythonClassifiers.length ? `; its classifiers name ${minorsText(release.pythonClassifiers)}${named ? '' : `, not ${ok[0]!.minor}`}` : ''})` };
  }
  if (allowed.length === 0) {
    return { error: `no interpreter found satisfies ${what}'s ${declared} (found: ${found(usable)}${usable.length < interpreters.length ? `; ${interpreters.length - usable.length} more cannot make a virtual environment` : ''}); install one (pyenv install, uv python install, python.org) or give --base-python PATH` };
  }
  const classifiers = release.pythonClassifiers;
  if (classifiers.length > 0) {
    const named = allowed.filter((i) => classifiers.includes(i.minor));
    if (named.length > 0) {
      return { interpreter: named[0]!, reason: `the newest interpreter found that ${what} was released for (its classifiers name Python ${minorsText(classifiers)}; ${declared})` };
    }
    // The nearest to the versions it was released for: a newer Python than it knew is likelier to lack its wheels.
    const n = (minor: string) => Number(minor.split('.')[1]);
    const lo = n(classifiers[0]!);
    const hi = n(classifiers[classifiers.length - 1]!);
    const distance = (i: PythonInterpreter) => (n(i.minor) > hi ? n(i.minor) - hi : lo - n(i.minor));
    const nearest = [...allowed].sort((a, b) => distance(a) - distance(b))[0]!;
    return { interpreter: nearest, reason: `none of the Pythons ${what}'s classifiers name (${minorsText(classifiers)}) was found; the nearest its ${declared} allows` };
  }
  return { interpreter: allowed[0]!, reason: `${what} names no Python versions in its classifiers; the newest interpreter its ${declared} allows` };
}
