// The agent requests of the VS Code client (protocol.ts: anachron/lookup, checkSnippet, migrate, reviewChanges),
// registered at start and answered by agent-tools.ts, which is loaded on the first of them and says what it needs of
// the server (AgentParts). server.ts registers this with one call.
import type { Connection } from 'vscode-languageserver/node';
import type { AgentHandlers, AgentParts } from './agent-tools.js';
import { CheckSnippetRequest, LookupRequest, MigrateRequest, ReviewChangesRequest } from './protocol.js';

export function registerAgentRequests(connection: Connection, parts: AgentParts): void {
  let handlers: Promise<AgentHandlers> | undefined;
  const load = () => (handlers ??= import('./agent-tools.js').then((m) => m.agentHandlers(connection, parts)));
  connection.onRequest(LookupRequest, async (params) => (await load()).lookup(params));
  connection.onRequest(CheckSnippetRequest, async (params) => (await load()).checkSnippet(params));
  connection.onRequest(MigrateRequest, async (params) => (await load()).migrate(params));
  connection.onRequest(ReviewChangesRequest, async (params) => (await load()).reviewChanges(params));
}
