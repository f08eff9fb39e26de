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
