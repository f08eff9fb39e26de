// How reports name runs, for every suite.
import { basename, dirname } from 'node:path';

/** The label of a run: its config's name, else its folder (or file) name. */
export function runLabel(database: string, name: string | undefined): string {
  if (name) return name;
  const file = basename(database);
  return file === 'run.sqlite' ? basename(dirname(database)) : file.replace(/\.sqlite$/, '');
}

/** `base`, or "base (2)", "base (3)" … when a run of the comparison already has that label; records the one given. */
export function uniqueLabel(base: string, used: Set<string>): string {
  let label = base;
  for (let k = 2; used.has(label); k++) label = `${base} (${k})`;
  used.add(label);
  return label;
}

/** The folder a compared run's own report goes in, under the comparison's folder. */
export function labelFolder(label: string): string {
  return label.replace(/[^\w.-]+/g, '_');
}
