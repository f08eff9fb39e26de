// `anachron mcp [--project DIR] [--matrices DIR]`: the MCP server (server/src/mcp/server.ts) over stdin/stdout.
// Nothing else may write to stdout from here on; notes go to stderr. The server and the MCP SDK are bundled apart
// (dist/mcp.js), so that the other commands do not load them.
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { serveMcp } from '../mcp/server.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { toolInfo } from './tool-info.js';
import { InputError } from '../core/errors.js';

/** dist/mcp.js beside this bundle (dist/cli.js), or the source under tsx. */
function loadMcpServer(): { serveMcp: typeof serveMcp } {
  const candidates = [join(__dirname, 'mcp.js'), join(__dirname, '..', 'mcp', 'server.ts')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new InputError('dist/mcp.js is missing; run `npm run build` in the anachron folder first');
  return createRequire(__filename)(found) as { serveMcp: typeof serveMcp };
}

export async function runMcp(argv: string[], err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { project: { type: 'string' }, matrices: { type: 'string' }, stdio: { type: 'boolean', default: true } },
  });
  if (positionals.length > 0) throw new InputError(`anachron mcp takes no arguments (got ${positionals.join(' ')}); name the project with --project DIR`);
  const project = resolve(values.project ?? process.env.ANACHRON_PROJECT ?? process.cwd());
  if (!existsSync(project) || !statSync(project).isDirectory()) throw new InputError(`--project ${project}: not a folder`);
  const catalog = openMatrixCatalog(values.matrices ? resolve(values.matrices) : defaultMatricesFolder(), { onProblem: (p) => err(`anachron mcp: warning: ${p}`) });
  if (catalog.names.length === 0) {
    catalog.close();
    throw new InputError('no usable matrices: nothing to answer from');
  }
  try {
    const tool = toolInfo();
    await loadMcpServer().serveMcp({ project, catalog, name: tool.name, version: tool.version, log: err });
  } finally {
    catalog.close();
  }
  return 0;
}
