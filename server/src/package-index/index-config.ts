// Which package indexes to ask, as pip and uv users have them configured. Pure: the environment and the texts of the
// configuration files arrive as arguments (index-config-files.ts reads them).
//
// The primary index is the first of: --index-url given to anachron; an --index-url / -i line of the project's
// requirements files (pip lets it replace the configured one); UV_DEFAULT_INDEX, UV_INDEX_URL; PIP_INDEX_URL; the
// project's [[tool.uv.index]] marked default (or [tool.uv] index-url); pip's configuration files (PIP_CONFIG_FILE,
// then the site, user and global files: a later-loaded file wins, as in pip; [download] or [install] over
// [global]); uv.toml (user, then system); else PyPI. Extra indexes are searched after it, in the order given:
// --extra-index-url lines and options, PIP_EXTRA_INDEX_URL, UV_EXTRA_INDEX_URL, pip's extra-index-url. uv's own
// named indexes (UV_INDEX, [[tool.uv.index]] without default) come before the primary, as uv searches them; one
// marked explicit is used only for the distributions [tool.uv.sources] assigns to it.
// In Restricted Mode (an untrusted workspace) nothing a workspace file names is used: only the environment and the
// user's and the system's files.
import { parse } from 'smol-toml';
import { normalizeDistributionName } from '../core/library-names.js';

export const PYPI_SIMPLE = 'https://pypi.org/simple';

export interface IndexSource {
  /** The simple API's base URL, as written (it may carry user:password: never shown, see credentials.ts). */
  url: string;
  /** Where it is configured, for people: "PIP_INDEX_URL", "/home/me/.config/pip/pip.conf", "requirements.txt:1". */
  origin: string;
  /** Written in a workspace file (requirements, pyproject.toml, a venv's pip.conf). */
  fromWorkspace: boolean;
  /** uv's name for it, when it has one. */
  name?: string;
}

export interface IndexConfig {
  /** Indexes in the order they are searched for a distribution none of them is assigned to. */
  searchOrder: IndexSource[];
  /** Indexes only some distributions use ([tool.uv.sources] pkg = { index = "name" }), by normalised distribution. */
  assigned: Map<string, IndexSource>;
  /** The primary index (also the first of searchOrder after uv's named indexes). */
  primary: IndexSource;
  /** CA bundle: PIP_CERT, pip's cert, SSL_CERT_FILE, REQUESTS_CA_BUNDLE. */
  caFile: string | null;
  /** pip's trusted-host: hosts whose certificate is not checked. */
  trustedHosts: string[];
  /** pip's proxy option; null: the environment's HTTP(S)_PROXY. */
  proxy: string | null;
  /** Seconds without data before a request fails (pip's timeout, default 15 as in pip). */
  timeoutSeconds: number;
  /** Workspace settings left out because the workspace is not trusted, for people. */
  ignoredInRestrictedMode: string[];
}

export interface ConfigFile {
  file: string;
  text: string;
}

export interface IndexConfigInputs {
  env: Record<string, string | undefined>;
  /** pip configuration files in pip's loading order (global, user, site, PIP_CONFIG_FILE): later ones win. */
  pipFiles: (ConfigFile & { inWorkspace?: boolean })[];
  /** uv.toml files, user first, then system. */
  uvFiles: ConfigFile[];
  /** The project's pyproject.toml. */
  pyproject?: ConfigFile;
  /** The project's requirements files (their option lines). */
  requirements: ConfigFile[];
  /** The workspace is trusted (VS Code's workspace trust; the CLI always is). */
  trusted: boolean;
  /** anachron's own --index-url / --extra-index-url. */
  indexUrl?: string;
  extraIndexUrls?: string[];
}

/** pip's INI: sections, `key = value` or `key: value`, indented continuation lines, # and ; comments. */
export function parsePipIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(raw) || raw.trim() === '') {
      if (raw.trim() === '') lastKey = undefined;
      continue;
    }
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      const name = header[1]!.trim().toLowerCase();
      section = sections.get(name) ?? new Map();
      sections.set(name, section);
      lastKey = undefined;
      continue;
    }
    if (/^\s/.test(raw) && lastKey && section) {
      section.set(lastKey, `${section.get(lastKey)}\n${raw.trim()}`.trim());
      continue;
    }
    const kv = /^\s*([^=:\s]+)\s*[=:]\s*(.*)$/.exec(raw);
    if (kv && section) {
      lastKey = kv[1]!.toLowerCase().replace(/_/g, '-');
      section.set(lastKey, kv[2]!.trim());
    }
  }
  return sections;
}

const words = (v: string | undefined): string[] => (v ?? '').split(/\s+/).filter(Boolean);

/** `--index-url URL`, `-i URL`, `--index-url=URL`, `--extra-index-url …` lines of a requirements file. */
export function requirementsIndexOptions(text: string): { indexUrl?: { url: string; line: number }; extra: { url: string; line: number }[] } {
  const out: { indexUrl?: { url: string; line: number }; extra: { url: string; line: number }[] } = { extra: [] };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const m = /^(--index-url|-i|--extra-index-url)(?:\s*=\s*|\s+)(\S+)/.exec(line);
    if (!m) return;
    if (m[1] === '--extra-index-url') out.extra.push({ url: m[2]!, line: i + 1 });
    else out.indexUrl ??= { url: m[2]!, line: i + 1 };
  });
  return out;
}

interface UvIndex {
  name?: string;
  url: string;
  default: boolean;
  explicit: boolean;
}

function uvIndexes(table: unknown): UvIndex[] {
  if (!Array.isArray(table)) return [];
  return table
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null && typeof (e as { url?: unknown }).url === 'string')
    .map((e) => ({ name: typeof e.name === 'string' ? e.name : undefined, url: e.url as string, default: e.default === true, explicit: e.explicit === true }));
}

function tomlOf(file: ConfigFile | undefined): Record<string, unknown> | undefined {
  if (!file) return undefined;
  try {
    return parse(file.text) as Record<string, unknown>;
  } catch {
    return undefined; // a pyproject.toml that does not parse is reported by the manifest reader
  }
}

/** UV_INDEX: space-separated `URL` or `name=URL`. */
function uvIndexEnv(value: string | undefined): { name?: string; url: string }[] {
  return words(value).map((w) => {
    const m = /^([A-Za-z0-9_.-]+)=(.+:\/\/.*)$/.exec(w);
    return m ? { name: m[1], url: m[2]! } : { url: w };
  });
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');

export function resolveIndexConfig(inputs: IndexConfigInputs): IndexConfig {
  const { env, trusted } = inputs;
  const ignored: string[] = [];
  const workspace = (what: string): boolean => {
    if (!trusted) ignored.push(what);
    return trusted;
  };

  // pip's files: later ones override earlier ones, key by key; [download]/[install] over [global].
  const pip = new Map<string, { value: string; origin: string; inWorkspace: boolean }>();
  for (const f of inputs.pipFiles) {
    if (f.inWorkspace && !workspace(f.file)) continue;
    const ini = parsePipIni(f.text);
    for (const section of ['global', 'install', 'download']) {
      for (const [k, v] of ini.get(section) ?? []) pip.set(k, { value: v, origin: f.file, inWorkspace: !!f.inWorkspace });
    }
  }
  const pipOption = (key: string) => pip.get(key);

  const pyproject = tomlOf(inputs.pyproject);
  const toolUv = (pyproject?.tool as Record<string, unknown> | undefined)?.uv as Record<string, unknown> | undefined;
  const projectUvIndexes = toolUv && inputs.pyproject && workspace(`${inputs.pyproject.file} [[tool.uv.index]]`) ? uvIndexes(toolUv.index) : [];
  const projectUvIndexUrl = toolUv && typeof toolUv['index-url'] === 'string' && trusted ? (toolUv['index-url'] as string) : undefined;

  const requirementOptions = inputs.requirements.map((f) => ({ file: f.file, ...requirementsIndexOptions(f.text) }));
  const reqWithIndex = requirementOptions.find((r) => r.indexUrl);
  const reqIndex = reqWithIndex && workspace(`${reqWithIndex.file}:${reqWithIndex.indexUrl!.line} --index-url`) ? reqWithIndex : undefined;

  const uvFileIndexes: { file: string; indexes: UvIndex[]; indexUrl?: string; extra: string[] }[] = inputs.uvFiles.map((f) => {
    const t = tomlOf(f) ?? {};
    return { file: f.file, indexes: uvIndexes(t.index), indexUrl: typeof t['index-url'] === 'string' ? (t['index-url'] as string) : undefined, extra: Array.isArray(t['extra-index-url']) ? (t['extra-index-url'] as unknown[]).filter((u): u is string => typeof u === 'string') : [] };
  });

  const source = (url: string, origin: string, fromWorkspace = false, name?: string): IndexSource => ({ url: stripSlash(url), origin, fromWorkspace, ...(name ? { name } : {}) });
  const projectDefault = projectUvIndexes.find((i) => i.default);
  const uvFileDefault = uvFileIndexes.map((u) => ({ u, d: u.indexes.find((i) => i.default) })).find((x) => x.d || x.u.indexUrl);
  const pipIndex = pipOption('index-url');

  const primary: IndexSource =
    (inputs.indexUrl && source(inputs.indexUrl, '--index-url')) ||
    (reqIndex && source(reqIndex.indexUrl!.url, `${reqIndex.file}:${reqIndex.indexUrl!.line}`, true)) ||
    (env.UV_DEFAULT_INDEX && source(env.UV_DEFAULT_INDEX, 'UV_DEFAULT_INDEX')) ||
    (env.UV_INDEX_URL && source(env.UV_INDEX_URL, 'UV_INDEX_URL')) ||
    (env.PIP_INDEX_URL && source(env.PIP_INDEX_URL, 'PIP_INDEX_URL')) ||
    (projectDefault && source(projectDefault.url, `${inputs.pyproject!.file} [[tool.uv.index]]${projectDefault.name ? ` ${projectDefault.name}` : ''}`, true, projectDefault.name)) ||
    (projectUvIndexUrl && source(projectUvIndexUrl, `${inputs.pyproject!.file} [tool.uv] index-url`, true)) ||
    (pipIndex && source(words(pipIndex.value)[0] ?? PYPI_SIMPLE, pipIndex.origin, pipIndex.inWorkspace)) ||
    (uvFileDefault && source(uvFileDefault.d?.url ?? uvFileDefault.u.indexUrl!, uvFileDefault.u.file, false, uvFileDefault.d?.name)) ||
    source(PYPI_SIMPLE, 'the default (PyPI)');

  // uv searches its named indexes before the default one; explicit ones serve only their assigned distributions.
  const uvNamed: IndexSource[] = [
    ...uvIndexEnv(env.UV_INDEX).map((i) => source(i.url, 'UV_INDEX', false, i.name)),
    ...projectUvIndexes.filter((i) => !i.default && !i.explicit).map((i) => source(i.url, `${inputs.pyproject!.file} [[tool.uv.index]]${i.name ? ` ${i.name}` : ''}`, true, i.name)),
    ...uvFileIndexes.flatMap((u) => u.indexes.filter((i) => !i.default && !i.explicit).map((i) => source(i.url, u.file, false, i.name))),
  ];
  const extras: IndexSource[] = [
    ...(inputs.extraIndexUrls ?? []).map((u) => source(u, '--extra-index-url')),
    ...(trusted ? requirementOptions.flatMap((r) => r.extra.map((e) => source(e.url, `${r.file}:${e.line}`, true))) : []),
    ...words(env.PIP_EXTRA_INDEX_URL).map((u) => source(u, 'PIP_EXTRA_INDEX_URL')),
    ...words(env.UV_EXTRA_INDEX_URL).map((u) => source(u, 'UV_EXTRA_INDEX_URL')),
    ...words(pipOption('extra-index-url')?.value).map((u) => source(u, pipOption('extra-index-url')!.origin, pipOption('extra-index-url')!.inWorkspace)),
    ...uvFileIndexes.flatMap((u) => u.extra.map((e) => source(e, u.file))),
  ];
  if (!trusted) for (const r of requirementOptions) for (const e of r.extra) ignored.push(`${r.file}:${e.line} --extra-index-url`);

  const seen = new Set<string>();
  const searchOrder = [...uvNamed, primary, ...extras].filter((s) => {
    const key = stripSlash(s.url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  const assigned = new Map<string, IndexSource>();
  const sources = toolUv?.sources;
  if (trusted && sources && typeof sources === 'object') {
    const named = [...projectUvIndexes, ...uvFileIndexes.flatMap((u) => u.indexes)];
    for (const [dist, spec] of Object.entries(sources as Record<string, unknown>)) {
      const indexName = (spec as { index?: unknown })?.index;
      const index = typeof indexName === 'string' ? named.find((i) => i.name === indexName) : undefined;
      if (index) assigned.set(normalizeDistributionName(dist), source(index.url, `${inputs.pyproject!.file} [tool.uv.sources] ${dist}`, true, index.name));
    }
  }

  const trustedHosts = [...words(env.PIP_TRUSTED_HOST), ...words(pipOption('trusted-host')?.value)];
  const timeout = Number(env.PIP_TIMEOUT ?? env.PIP_DEFAULT_TIMEOUT ?? pipOption('timeout')?.value ?? pipOption('default-timeout')?.value ?? 15);
  return {
    searchOrder,
    assigned,
    primary,
    caFile: env.PIP_CERT || pipOption('cert')?.value || env.SSL_CERT_FILE || env.REQUESTS_CA_BUNDLE || null,
    trustedHosts,
    proxy: env.PIP_PROXY || pipOption('proxy')?.value || null,
    timeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : 15,
    ignoredInRestrictedMode: ignored,
  };
}

/** The indexes a distribution is looked up in, in order. */
export function indexesFor(config: IndexConfig, distribution: string): IndexSource[] {
  const assigned = config.assigned.get(normalizeDistributionName(distribution));
  return assigned ? [assigned] : config.searchOrder;
}
