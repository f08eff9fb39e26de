// The agent tools as the extension declares them (package.json: languageModelTools, chatParticipants) agree with the
// one definition the server and the MCP server use (server/src/knowledge/tools.ts), and the VS Code API they need
// is guarded: engines.vscode stays at what @types/vscode describes (vsce refuses newer types than the engine).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECK_DESCRIPTION, CHECK_INPUT_SCHEMA, CHECK_TOOL, LOOKUP_DESCRIPTION, LOOKUP_INPUT_SCHEMA, LOOKUP_TOOL, parseCheckInput, parseLookupInput } from '../server/src/knowledge/tools.js';
import { REPO_ROOT } from './support/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));

test('package.json declares the two tools with the schemas and descriptions of knowledge/tools.ts', () => {
  const tools = pkg.contributes.languageModelTools as { name: string; inputSchema: unknown; modelDescription: string; canBeReferencedInPrompt: boolean; toolReferenceName: string }[];
  const byName = new Map(tools.map((t) => [t.name, t]));
  assert.deepEqual([...byName.keys()].sort(), [CHECK_TOOL, LOOKUP_TOOL]);
  assert.deepEqual(byName.get(LOOKUP_TOOL)!.inputSchema, JSON.parse(JSON.stringify(LOOKUP_INPUT_SCHEMA)));
  assert.deepEqual(byName.get(CHECK_TOOL)!.inputSchema, JSON.parse(JSON.stringify(CHECK_INPUT_SCHEMA)));
  assert.equal(byName.get(LOOKUP_TOOL)!.modelDescription, LOOKUP_DESCRIPTION);
  assert.equal(byName.get(CHECK_TOOL)!.modelDescription, CHECK_DESCRIPTION);
  for (const t of tools) {
    assert.equal(t.canBeReferencedInPrompt, true);
    assert.match(t.toolReferenceName, /^anachron[A-Z]\w+$/);
    assert.ok(pkg.activationEvents.includes(`onLanguageModelTool:${t.name}`));
  }
  const participant = pkg.contributes.chatParticipants[0];
  assert.equal(participant.id, 'anachron.chat');
  assert.deepEqual(participant.commands.map((c: { name: string }) => c.name), ['check', 'explain', 'migrate']);
});

test('the client registers what package.json declares', () => {
  const agents = readFileSync(join(REPO_ROOT, 'client', 'src', 'agents.ts'), 'utf8');
  assert.match(agents, new RegExp(`LOOKUP_TOOL = '${LOOKUP_TOOL}'`));
  assert.match(agents, new RegExp(`CHECK_TOOL = '${CHECK_TOOL}'`));
  assert.match(agents, /PARTICIPANT_ID = 'anachron\.chat'/);
  const commands = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
  for (const m of agents.matchAll(/registerCommand\('([\w.]+)'/g)) assert.ok(commands.has(m[1]), `${m[1]} is not in package.json`);
});

test('engines.vscode covers @types/vscode; the 1.95 tool API is looked up at run time', () => {
  const engine = /^\^(\d+)\.(\d+)/.exec(pkg.engines.vscode)!;
  const types = /^(\d+)\.(\d+)/.exec(pkg.devDependencies['@types/vscode'].replace(/^[\^~]/, ''))!;
  assert.ok(Number(types[1]) < Number(engine[1]) || (types[1] === engine[1] && Number(types[2]) <= Number(engine[2])), `@types/vscode ${types[0]} is newer than engines.vscode ${pkg.engines.vscode}`);
  const api = readFileSync(join(REPO_ROOT, 'client', 'src', 'lm-tools-api.ts'), 'utf8');
  assert.match(api, /typeof lm\.registerTool === 'function'/);
});

test('tool input is validated with messages an agent can act on', () => {
  assert.deepEqual(parseLookupInput({ api: 'numpy.trapz', pins: ['numpy==1.24.2'] }), { api: 'numpy.trapz', pins: ['numpy==1.24.2'] });
  assert.throws(() => parseLookupInput({}), /give an api/);
  assert.throws(() => parseLookupInput({ api: 'x', scope: 'all' }), /scope must be/);
  assert.throws(() => parseLookupInput({ api: 'x', pins: 'numpy==1' }), /pins must be a list/);
  assert.throws(() => parseCheckInput({ code: '  ' }), /code must be the Python code/);
  assert.throws(() => parseCheckInput({}), /code must be the Python code to check \(or give the path/);
  assert.deepEqual(parseCheckInput({}, true), {}, 'the editor supplies its selection');
  assert.deepEqual(parseCheckInput({ path: 'a.py', startLine: 3, endLine: 4 }), { path: 'a.py', startLine: 3, endLine: 4 });
  assert.throws(() => parseCheckInput({ code: 'x', startLine: 2 }), /do not apply to code/);
  assert.throws(() => parseCheckInput({ path: 'a.py', startLine: 0 }), /line number/);
  assert.throws(() => parseCheckInput({ code: 'x', file: 'a.py' }), /unknown input "file"/);
});
