// A project on disk for a test: a fresh folder under the test run's temporary folder with the given files (paths
// relative to it, folders made as needed).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function writeProject(files: Record<string, string>, prefix = 'anachron-project-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A Python package on disk for a test: NAME/__init__.py holding the source, in a fresh folder (returned, for
 * PYTHONPATH or static.py --source). */
export function writePackage(name: string, source: string, prefix = `anachron-${name}-`): string {
  return writeProject({ [`${name}/__init__.py`]: source }, prefix);
}
