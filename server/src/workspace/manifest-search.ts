// Manifests where projects keep them when none sits beside or above a file: requirements/base.txt,
// requirements/requirements.txt, ci/requirements-py39.txt, docker/requirements.txt, envs/*.yml, … (issue 16).
// A bounded walk of the project folder (depth, entries and candidates capped) lists the files that are manifests by
// name, plus the *.txt files of a folder named for requirements and the *.yml files of a folder named for
// environments; manifests.ts reads them and keeps those that pin something. What is not the project's own pins is
// not walked: hidden folders, virtual environments, build output, vendored code, docs/, examples/, tests/, and any
// folder that is a project of its own (its pyproject.toml, setup.py or setup.cfg); below the first level only
// folders named for pins (requirements/py3/, ci/deps/). The ranking is by name and depth only.
import { basename, dirname, join, relative, sep } from 'node:path';
import { manifestFormatOf, type ManifestFormat } from '../core/manifests/index.js';

/** How deep below the project folder manifests are looked for (requirements/base.txt is depth 1). */
export const SEARCH_DEPTH = 3;
/** At most this many folders are listed per search. */
const MAX_FOLDERS = 400;
/** At most this many candidates are kept per search (the best ranked). */
export const MAX_CANDIDATES = 24;

/** Folders never searched: virtual environments, caches, build output, vendored code, other projects' material. */
const SKIPPED = /^(node_modules|site-packages|__pycache__|build|dist|venv|virtualenv|\.?env-?\d*|htmlcov|_build|target|vendor|third_party|docs?|examples?|samples?|tests?|testing|benchmarks?|tutorials?|notebooks?)$/i;
/** Folders that hold pins: searched below the first level too. */
const PIN_FOLDERS = /^(requirements?|reqs?|deps|dependencies|pip|constraints|envs?|environments?|conda|ci|\.ci|binder|docker|containers?|install|py\d+|python\d[\d.]*)$/i;
/** A folder that holds one of these is a project of its own: its pins are its own files'. */
const PROJECT_FILES = ['pyproject.toml', 'setup.py', 'setup.cfg'];
/** Folders whose *.txt files are requirements files whatever their names. */
const REQUIREMENT_FOLDER_NAMES = ['requirements', 'requirement', 'reqs', 'req', 'deps', 'dependencies', 'pip', 'constraints'];
/** Folders whose *.yml files are conda environments whatever their names. */
const ENVIRONMENT_FOLDER_NAMES = ['envs', 'env', 'environments', 'environment', 'conda', 'ci', '.ci', 'ci_env', 'cienv', 'binder'];
const namedOneOf = (names: string[]) => new RegExp(`^(${names.map((n) => n.replace(/\./g, '\\.')).join('|')})$`, 'i');
const REQUIREMENT_FOLDERS = namedOneOf(REQUIREMENT_FOLDER_NAMES);
const ENVIRONMENT_FOLDERS = namedOneOf(ENVIRONMENT_FOLDER_NAMES);
/** Where the search finds manifests besides their usual names (dev-requirements.txt, requirements/base.txt,
 *  envs/py39.yml), as globs for file watchers. */
export const SEARCHED_MANIFEST_GLOBS: readonly string[] = [
  '**/*requirements*.{txt,in}',
  `**/{${REQUIREMENT_FOLDER_NAMES.join(',')}}/*.{txt,in}`,
  `**/{${ENVIRONMENT_FOLDER_NAMES.join(',')}}/*.{yml,yaml}`,
];
/** Base names (without extension) that name what a project installs to run. */
const PRIMARY = /^(requirements?|reqs?|base|main|common|core|prod|production|runtime|install|default|env|environment)$/i;
/** Names that say a file is for something besides running the code. */
const SECONDARY = /(^|[-_.])(tests?|testing|dev|develop|docs?|lint|bench|benchmarks?|examples?|optional|extras?|typing|mypy|style|build|upload|release|min|minimum|oldest|nightly|pre)([-_.]|$)/i;

export interface ManifestCandidate {
  /** Absolute path. */
  file: string;
  /** The format it is read in. */
  format: ManifestFormat;
  /** Lower ranks first: 0 a primary name (requirements/base.txt), 1 other names, 2 test, docs, dev, … */
  rank: number;
  /** Folders below the search root. */
  depth: number;
}

function formatOf(name: string, folder: string): ManifestFormat | undefined {
  const byName = manifestFormatOf(name);
  if (byName === 'requirements' || byName === 'conda') return byName;
  if (byName !== undefined) return undefined; // pyproject.toml, setup.cfg, locks below the root belong to sub-projects
  if (/requirements.*\.(txt|in)$/i.test(name)) return 'requirements'; // dev-requirements.txt, test_requirements.txt
  if (/\.(txt|in)$/i.test(name) && REQUIREMENT_FOLDERS.test(folder)) return 'requirements';
  if (/\.ya?ml$/i.test(name) && (ENVIRONMENT_FOLDERS.test(folder) || /^environment|conda|env/i.test(name))) return 'conda';
  return undefined;
}

function rankOf(file: string, root: string): number {
  const stem = basename(file).replace(/\.[^.]+$/, '');
  const parts = relative(root, dirname(file)).split(sep).filter((p) => p !== '');
  if (SECONDARY.test(stem) || parts.some((p) => SECONDARY.test(p))) return 2;
  return PRIMARY.test(stem) ? 0 : 1;
}

/** Orders candidates best first: rank, then depth, then path. */
export function compareCandidates(a: ManifestCandidate, b: ManifestCandidate): number {
  return a.rank - b.rank || a.depth - b.depth || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
}

/**
 * The files below `root` (not in `root` itself: those are the walk-up's) that may be manifests, best first. Reads
 * nothing but folder listings.
 */
export function searchManifests(root: string, reader: { listDir(dir: string): string[] }): ManifestCandidate[] {
  const out: ManifestCandidate[] = [];
  let folders = 0;
  const walk = (dir: string, depth: number) => {
    if (folders++ >= MAX_FOLDERS) return;
    const entries = reader.listDir(dir).sort();
    // A virtual environment (pyvenv.cfg) or a conda prefix (conda-meta) holds installed packages, not pins.
    if (depth > 0 && (entries.includes('pyvenv.cfg') || entries.includes('conda-meta'))) return;
    if (depth > 0 && PROJECT_FILES.some((f) => entries.includes(f))) return;
    const folder = basename(dir);
    for (const name of entries) {
      if (depth === 0) continue;
      const format = formatOf(name, folder);
      if (format) out.push({ file: join(dir, name), format, rank: 0, depth });
    }
    if (depth >= SEARCH_DEPTH) return;
    for (const name of entries) {
      if (SKIPPED.test(name) || (name.startsWith('.') ? !ENVIRONMENT_FOLDERS.test(name) : name.includes('.'))) continue;
      if (depth >= 1 && !PIN_FOLDERS.test(name)) continue;
      walk(join(dir, name), depth + 1);
    }
  };
  walk(root, 0);
  for (const c of out) c.rank = rankOf(c.file, root);
  return out.sort(compareCandidates).slice(0, MAX_CANDIDATES);
}
