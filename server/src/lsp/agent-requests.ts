// The agent requests of the VS Code client (protocol.ts: anachron/lookup, checkSnippet, migrate, reviewChanges),
// registered at start and answered by agent-tools.ts, which is loaded on the first of them. server.ts registers this
// with one call.
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisContext } from '../core/analyze.js';
import type { LoadedCatalog } from '../store/catalog.js';
import type { AgentHandlers } from './agent-tools.js';
import { CheckSnippetRequest, LookupRequest, MigrateRequest, ReviewChangesRequest } from './protocol.js';

export interface AgentParts {
  documents: TextDocuments<TextDocument>;
  catalog(): LoadedCatalog | undefined;
  /** The workspace folders (absolute paths). */
  roots(): readonly string[];
  contextFor(file: string): AnalysisContext;
  /** Where a file's manifests are shown relative to (its workspace folder). */
  manifestBase(file: string): string;
  readManifest(file: string): string | undefined;
}

export function registerAgentRequests(connection: Connection, parts: AgentParts): void {
  let handlers: Promise<AgentHandlers> | undefined;
  const load = () => (handlers ??= import('./agent-tools.js').then((m) => m.agentHandlers(connection, parts)));
  connection.onRequest(LookupRequest, async (params) => (await load()).lookup(params));
  connection.onRequest(CheckSnippetRequest, async (params) => (await load()).checkSnippet(params));
  connection.onRequest(MigrateRequest, async (params) => (await load()).migrate(params));
  connection.onRequest(ReviewChangesRequest, async (params) => (await load()).reviewChanges(params));
}
