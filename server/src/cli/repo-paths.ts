// Paths relative to a repository root, the way git names them: symlinks in the folders resolved, "/" separators.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The real path of a folder (symlinks resolved), or the folder as given when it cannot be resolved. */
export function realRoot(dir: string): string {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

/** The file with its folder's symlinks resolved; the file itself may be a link and stays as named. */
function realFile(file: string): string {
  const absolute = resolve(file);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/** `file` relative to `root` with "/" separators, or undefined when it lies outside. */
export function pathInRoot(root: string, file: string): string | undefined {
  const rel = relative(root, realFile(file));
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}
