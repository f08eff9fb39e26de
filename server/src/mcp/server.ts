// `anachron mcp`: the agent tools (knowledge/tools.ts) for any MCP client — Claude Desktop, Claude Code, Cursor, VS
// Code's mcp.json, … — over stdio, with the official MCP SDK. Pins come from the project folder the server runs in
// (or --project DIR), read from its manifests like `anachron check` reads them, per call for the input's path.
// This file is the adapter: the answers come from the same functions the editor and the CLI use. It reads only files
// inside the project (by real path, so no symlink leads out), only regular ones, and never more than a cap.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AnalysisContext } from '../core/analyze.js';
import { errorMessage, internalErrorReport, isInputError } from '../core/errors.js';
import { listMatrixApis } from '../store/api-listing.js';
import { ApiKnowledge } from '../knowledge/api-lookup.js';
import {
  CHECK_DESCRIPTION,
  CHECK_INPUT_SCHEMA,
  CHECK_TOOL,
  LOOKUP_DESCRIPTION,
  LOOKUP_INPUT_SCHEMA,
  LOOKUP_TOOL,
  parseCheckInput,
  parseLookupInput,
  runCheckTool,
  runLookupTool,
  ToolInputError,
  type ToolEnvironment,
} from '../knowledge/tools.js';
import { MAX_MANIFEST_BYTES, MAX_SOURCE_BYTES, readBoundedText } from '../workspace/bounded-read.js';
import { loadPythonParser } from '../parser/python-parser.js';
import type { LoadedCatalog } from '../store/catalog.js';
import { pinsForFile } from '../workspace/manifests.js';

export interface McpOptions {
  /** The project whose manifests give the pins; paths in tool inputs are relative to it. */
  project: string;
  catalog: LoadedCatalog;
  name: string;
  version: string;
  /** Where diagnostics go (stderr): stdout belongs to the protocol. */
  log: (line: string) => void;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The absolute path of `path` (absolute, or relative to the project) when it lies inside the project, following
 * symlinks; a path that does not exist yet counts by the real path of the folder that would hold it. Undefined outside.
 */
export function insideProject(project: string, path: string): string | undefined {
  const full = isAbsolute(path) ? resolve(path) : resolve(project, path);
  const real = realOrSelf(full);
  const realFull = real !== full ? real : join(realOrSelf(dirname(full)), basename(full));
  const rel = relative(realOrSelf(project), realFull);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)) ? full : undefined;
}

function outsideError(project: string, path: string): ToolInputError {
  return new ToolInputError(`${path} lies outside the project (${project}): anachron mcp reads only files under its --project folder`);
}

/** The analysis context for a path of the project (a file, or a folder: the pins of files directly in it). */
export function projectContext(project: string, catalog: LoadedCatalog, path: string | undefined): AnalysisContext {
  const target = path ? insideProject(project, path) : project;
  if (target === undefined) throw outsideError(project, path!);
  let file = target;
  try {
    if (statSync(target).isDirectory()) file = join(target, '__anachron_snippet__.py');
  } catch {
    // a file that does not exist (yet): its folder's manifests still apply
  }
  const manifest = pinsForFile(file, { displayBase: project });
  return { catalog, pins: manifest.pins, settings: manifest.settings, localModules: manifest.localModules };
}

export function toolEnvironment(options: Pick<McpOptions, 'project' | 'catalog'>): ToolEnvironment {
  const { project, catalog } = options;
  return {
    knowledge: new ApiKnowledge(catalog, listMatrixApis),
    parser: loadPythonParser,
    contextFor: (path) => projectContext(project, catalog, path),
    readManifest: (file) => {
      const full = insideProject(project, file);
      return full === undefined ? undefined : readBoundedText(full, MAX_MANIFEST_BYTES).text;
    },
    readSource: (path) => {
      const full = insideProject(project, path);
      if (full === undefined) throw outsideError(project, path);
      const read = readBoundedText(full, MAX_SOURCE_BYTES);
      if (read.skipped !== undefined) throw new ToolInputError(`cannot read ${path}: ${read.skipped}`);
      return read.text === undefined ? undefined : { text: read.text, shown: relative(project, full) || path };
    },
    markdown: true,
  };
}

/** The MCP server over stdio; resolves when the client closes the connection. */
export async function serveMcp(options: McpOptions): Promise<void> {
  const env = toolEnvironment(options);
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: {} },
      instructions:
        `anachron knows which APIs of ${options.catalog.libraries().map((m) => m.library).join(', ')} exist in which version, and which versions this project pins ` +
        `(from the manifests under ${options.project}). Call ${LOOKUP_TOOL} before using a library API you are not sure exists at the pinned version, and ${CHECK_TOOL} on code you write.`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: LOOKUP_TOOL, title: 'Look up a library API at the pinned version', description: LOOKUP_DESCRIPTION, inputSchema: LOOKUP_INPUT_SCHEMA as unknown as { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
      { name: CHECK_TOOL, title: 'Check code against the pinned versions', description: CHECK_DESCRIPTION, inputSchema: CHECK_INPUT_SCHEMA as unknown as { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    try {
      if (name === LOOKUP_TOOL) {
        const result = runLookupTool(parseLookupInput(args ?? {}), env);
        return { content: [{ type: 'text', text: result.text }] };
      }
      if (name === CHECK_TOOL) {
        const result = await runCheckTool(parseCheckInput(args ?? {}), env);
        return { content: [{ type: 'text', text: result.text }] };
      }
      return { content: [{ type: 'text', text: `unknown tool ${name} (anachron offers ${LOOKUP_TOOL} and ${CHECK_TOOL})` }], isError: true };
    } catch (e) {
      // Bad input is the agent's to fix; anything else is a bug, logged with its stack.
      if (!isInputError(e)) options.log(internalErrorReport(e, `anachron mcp: ${name}`));
      return { content: [{ type: 'text', text: `${name}: ${isInputError(e) ? '' : 'internal error: '}${errorMessage(e)}` }], isError: true };
    }
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((done) => {
    transport.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  options.log(`anachron mcp: serving ${LOOKUP_TOOL} and ${CHECK_TOOL} for ${options.project} (${options.catalog.libraries().map((m) => `${m.library} ${m.versions.length} versions`).join(', ')})`);
  await closed;
  await server.close().catch(() => undefined);
}
