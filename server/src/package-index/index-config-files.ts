// Reads the files index-config.ts decides from, where pip and uv look for them on Linux, macOS and Windows, and the
// netrc file of the credentials.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseNetrc, type NetrcEntry } from './netrc.js';
import { resolveIndexConfig, type ConfigFile, type IndexConfig } from './index-config.js';

type Env = Record<string, string | undefined>;

function read(file: string): ConfigFile | undefined {
  try {
    return existsSync(file) ? { file, text: readFileSync(file, 'utf8').slice(0, 1 << 20) } : undefined;
  } catch {
    return undefined;
  }
}

function home(env: Env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** pip's global, user and site files and PIP_CONFIG_FILE, in pip's loading order (later wins). */
export function pipConfigPaths(env: Env, platform: NodeJS.Platform = process.platform, sitePrefix?: string): { file: string; site: boolean }[] {
  const h = home(env);
  const out: { file: string; site: boolean }[] = [];
  if (platform === 'win32') {
    out.push({ file: join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'pip', 'pip.ini'), site: false });
  } else {
    const xdgDirs = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean);
    if (platform === 'darwin') out.push({ file: '/Library/Application Support/pip/pip.conf', site: false });
    for (const d of [...xdgDirs].reverse()) out.push({ file: join(d, 'pip', 'pip.conf'), site: false });
    out.push({ file: '/etc/pip.conf', site: false });
  }
  const envFile = env.PIP_CONFIG_FILE;
  // pip skips the user's files when PIP_CONFIG_FILE names a file that exists.
  if (!(envFile && existsSync(envFile))) {
    if (platform === 'win32') {
      out.push({ file: join(h, 'pip', 'pip.ini'), site: false });
      out.push({ file: join(env.APPDATA || join(h, 'AppData', 'Roaming'), 'pip', 'pip.ini'), site: false });
    } else {
      out.push({ file: join(h, '.pip', 'pip.conf'), site: false });
      if (platform === 'darwin') out.push({ file: join(h, 'Library', 'Application Support', 'pip', 'pip.conf'), site: false });
      out.push({ file: join(env.XDG_CONFIG_HOME || join(h, '.config'), 'pip', 'pip.conf'), site: false });
    }
  }
  const prefix = sitePrefix ?? env.VIRTUAL_ENV;
  if (prefix) out.push({ file: join(prefix, platform === 'win32' ? 'pip.ini' : 'pip.conf'), site: true });
  if (envFile && envFile !== '/dev/null' && envFile.toLowerCase() !== 'nul') out.push({ file: envFile, site: false });
  return out;
}

/** uv.toml: UV_CONFIG_FILE alone when set, else the user's then the system's. */
export function uvConfigPaths(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  if (env.UV_CONFIG_FILE) return [env.UV_CONFIG_FILE];
  if (env.UV_NO_CONFIG) return [];
  const h = home(env);
  if (platform === 'win32') return [join(env.APPDATA || join(h, 'AppData', 'Roaming'), 'uv', 'uv.toml'), join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'uv', 'uv.toml')];
  return [join(env.XDG_CONFIG_HOME || join(h, '.config'), 'uv', 'uv.toml'), ...(env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').filter(Boolean).map((d) => join(d, 'uv', 'uv.toml')), '/etc/uv/uv.toml'];
}

export function netrcPath(env: Env, platform: NodeJS.Platform = process.platform): string {
  if (env.NETRC) return env.NETRC;
  const h = home(env);
  if (platform === 'win32' && !existsSync(join(h, '.netrc'))) return join(h, '_netrc');
  return join(h, '.netrc');
}

export function readNetrc(env: Env = process.env): NetrcEntry[] {
  const f = read(netrcPath(env));
  return f ? parseNetrc(f.text) : [];
}

export interface ProjectFiles {
  /** The project's folder: its pyproject.toml and uv.toml are read from here. */
  folder?: string;
  /** Requirements files whose --index-url lines count (the manifests that govern the checked files). */
  requirements?: string[];
  /** The workspace's folder: a venv's pip.conf inside it is a workspace file. */
  workspaceRoot?: string;
  /** The interpreter's prefix (its venv), when known; else VIRTUAL_ENV. */
  sitePrefix?: string;
}

export interface ReadConfigOptions {
  env?: Env;
  trusted: boolean;
  project?: ProjectFiles;
  indexUrl?: string;
  extraIndexUrls?: string[];
}

const inside = (root: string | undefined, file: string) => !!root && (resolve(file) + '/').startsWith(resolve(root) + '/');

/** The index configuration in force for a project, from the environment and the files pip and uv read. */
export function readIndexConfig(options: ReadConfigOptions): IndexConfig {
  const env = options.env ?? process.env;
  const project = options.project ?? {};
  const pipFiles = pipConfigPaths(env, process.platform, project.sitePrefix)
    .map((p) => ({ p, f: read(p.file) }))
    .filter((x): x is { p: { file: string; site: boolean }; f: ConfigFile } => x.f !== undefined)
    .map(({ p, f }) => ({ ...f, inWorkspace: p.site && inside(project.workspaceRoot, p.file) }));
  const projectUv = project.folder ? read(join(project.folder, 'uv.toml')) : undefined;
  const uvFiles = [...(projectUv && options.trusted ? [projectUv] : []), ...uvConfigPaths(env).map(read).filter((f): f is ConfigFile => f !== undefined)];
  const pyproject = project.folder ? read(join(project.folder, 'pyproject.toml')) : undefined;
  const requirements = (project.requirements ?? []).filter((f) => /\.(txt|in)$/i.test(basename(f))).map(read).filter((f): f is ConfigFile => f !== undefined);
  const config = resolveIndexConfig({ env, pipFiles, uvFiles, pyproject, requirements, trusted: options.trusted, indexUrl: options.indexUrl, extraIndexUrls: options.extraIndexUrls });
  if (projectUv && !options.trusted) config.ignoredInRestrictedMode.push(projectUv.file);
  return config;
}

/** The folder a project's pyproject.toml is in: the nearest one at or above `start`, not above `root`. */
export function projectFolderOf(start: string, root?: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'pyproject.toml')) || existsSync(join(dir, 'uv.toml'))) return dir;
    const up = dirname(dir);
    if (up === dir || (root && !inside(root, up))) return undefined;
    dir = up;
  }
}
