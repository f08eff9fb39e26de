// The agent requests of the VS Code client (protocol.ts: anachron/lookup, checkSnippet, migrate, reviewChanges),
// registered at start and answered by agent-tools.ts, which is loaded on the first of them and says what it needs of
// the server (AgentParts). server.ts registers this with one call.
import type { Connection } from 'vscode-languageserver/node';
import type { AgentHandlers, AgentParts } from './agent-tools.js';
import { CheckSnippetRequest, LookupRequest, MigrateRequest, ReviewChangesRequest } from './protocol.js';
import { checkedParams } from './request-params.js';

export function registerAgentRequests(connection: Connection, parts: AgentParts): void {
  let handlers: Promise<AgentHandlers> | undefined;
  const load = () => (handlers ??= import('./agent-tools.js').then((m) => m.agentHandlers(connection, parts)));
  // The tools' `input` is validated by the tools themselves (knowledge/tools.ts); here the envelope around it.
  connection.onRequest(LookupRequest, async (params) => (await load()).lookup(checkedParams(LookupRequest, params, { input: { kind: 'any' }, uri: { kind: 'string' }, position: { kind: 'position' } })));
  connection.onRequest(CheckSnippetRequest, async (params) => (await load()).checkSnippet(checkedParams(CheckSnippetRequest, params, { input: { kind: 'any' }, uri: { kind: 'string' }, firstLine: { kind: 'number' }, withImports: { kind: 'boolean' } })));
  connection.onRequest(MigrateRequest, async (params) => (await load()).migrate(checkedParams(MigrateRequest, params, { code: { kind: 'string', required: true }, uri: { kind: 'string' }, target: { kind: 'string', required: true } })));
  connection.onRequest(ReviewChangesRequest, async (params) => (await load()).reviewChanges(checkedParams(ReviewChangesRequest, params, { folderUri: { kind: 'string', required: true }, rev: { kind: 'string' } })));
}
