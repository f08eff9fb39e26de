// Runs git for `anachron check --diff REV`: where the repository is, what REV names, what changed since then.
import { spawnSync } from 'node:child_process';
import { parseChangedLines, type ChangedLines } from '../report/diff.js';
import { InputError } from '../core/errors.js';

/** git is missing, the folder is not in a repository, or a revision is unknown: a one-line reason for the user. */
export class GitError extends InputError {
  override readonly name: string = 'GitError';
}

/** Settings that would change git's output format are pinned, whatever the user's configuration says. */
const PINNED_CONFIG = ['-c', 'core.quotePath=false', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'color.ui=false'];

interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

function git(args: string[], cwd: string): GitRun {
  const r = spawnSync('git', [...PINNED_CONFIG, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new GitError(code === 'ENOENT' ? '--diff needs git, and git is not on the PATH' : `cannot run git: ${r.error.message}`);
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.replace(/^fatal: /, '') ?? '';
}

/** The top folder of the work tree that holds `cwd`. */
export function repositoryRoot(cwd: string): string {
  const r = git(['rev-parse', '--show-toplevel'], cwd);
  if (r.status !== 0) {
    if (/not a git repository/i.test(r.stderr)) throw new GitError(`not in a git repository: ${cwd}`);
    throw new GitError(`git rev-parse failed: ${firstLine(r.stderr)}`);
  }
  const root = r.stdout.trim();
  if (root === '') throw new GitError(`not inside a git work tree: ${cwd}`);
  return root;
}

/** The repository root, or undefined when `cwd` is not in a repository or git is missing. */
export function repositoryRootOrUndefined(cwd: string): string | undefined {
  try {
    return repositoryRoot(cwd);
  } catch {
    return undefined;
  }
}

/** The commit `rev` names (a branch, tag, hash, HEAD~2, origin/main…). */
export function resolveCommit(root: string, rev: string): string {
  if (rev === '' || rev.startsWith('-')) throw new GitError(`"${rev}" is not a revision`);
  const r = git(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], root);
  const sha = r.stdout.trim();
  if (r.status !== 0 || !/^[0-9a-f]{40,64}$/.test(sha)) {
    throw new GitError(`unknown revision "${rev}" (in a shallow CI checkout, fetch it first, e.g. git fetch --depth=1 origin ${rev})`);
  }
  return sha;
}

/** Lines added or changed in the work tree (staged or not) since `commit`, per path relative to the root. */
export function changedLinesSince(root: string, commit: string): ChangedLines {
  const r = git(['diff', '--unified=0', '--no-color', '--no-ext-diff', '--no-textconv', '--find-renames', '--src-prefix=a/', '--dst-prefix=b/', commit, '--'], root);
  if (r.status !== 0) throw new GitError(`git diff ${commit} failed: ${firstLine(r.stderr)}`);
  return parseChangedLines(r.stdout);
}

/** Files in the work tree that git does not track and does not ignore, relative to the root. */
export function untrackedFiles(root: string): string[] {
  const r = git(['ls-files', '--others', '--exclude-standard', '-z', '--full-name'], root);
  if (r.status !== 0) throw new GitError(`git ls-files failed: ${firstLine(r.stderr)}`);
  return r.stdout.split('\0').filter((p) => p !== '');
}
