// Finding a program the way a shell would, for the environment runners (venvs, interpreters, the sandbox's tools).
import { statSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';

/** The folders of a PATH-style variable (empty entries dropped); by default the caller's PATH. */
export function searchPath(value: string = process.env.PATH ?? '', separator: string = delimiter): string[] {
  return value.split(separator).filter((dir) => dir !== '');
}

/** The absolute path of the first regular file called `name` in `dirs`, or null. */
export function findExecutable(name: string, dirs: readonly string[] = searchPath()): string | null {
  for (const dir of dirs) {
    const full = resolve(dir, name);
    try {
      if (statSync(full).isFile()) return full;
    } catch {
      // not in this folder
    }
  }
  return null;
}
