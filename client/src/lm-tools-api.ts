// VS Code's language model tool API (vscode.lm.registerTool / invokeTool, LanguageModelToolResult), final in VS Code
// 1.95. The extension supports VS Code 1.91 and is typed against its API, so the few members used here are declared
// as they are in 1.95 and looked up at run time: on an older VS Code they are absent and the tools are not offered.
import * as vscode from 'vscode';

export interface ToolInvocationOptions<T> {
  input: T;
  /** From a chat request, or undefined outside one. */
  toolInvocationToken: unknown;
}

export interface LanguageModelTool<T> {
  invoke(options: ToolInvocationOptions<T>, token: vscode.CancellationToken): vscode.ProviderResult<unknown>;
  prepareInvocation?(options: { input: T }, token: vscode.CancellationToken): vscode.ProviderResult<{ invocationMessage?: string }>;
}

interface ToolResultPart {
  value?: unknown;
}

export interface LmToolsApi {
  registerTool<T>(name: string, tool: LanguageModelTool<T>): vscode.Disposable;
  invokeTool(name: string, options: ToolInvocationOptions<object>, token?: vscode.CancellationToken): Thenable<{ content: ToolResultPart[] }>;
  readonly tools: readonly { name: string; description: string; inputSchema: object | undefined; tags: readonly string[] }[];
}

/** vscode.lm's tool functions, when this VS Code has them. */
export function lmTools(): LmToolsApi | undefined {
  const lm = (vscode as unknown as { lm?: Partial<LmToolsApi> }).lm;
  return lm && typeof lm.registerTool === 'function' && typeof lm.invokeTool === 'function' ? (lm as LmToolsApi) : undefined;
}

/** A tool result holding Markdown text: new LanguageModelToolResult([new LanguageModelTextPart(text)]). */
export function textToolResult(text: string): unknown {
  const api = vscode as unknown as {
    LanguageModelToolResult?: new (content: unknown[]) => unknown;
    LanguageModelTextPart?: new (value: string) => unknown;
  };
  if (!api.LanguageModelToolResult || !api.LanguageModelTextPart) throw new Error('this VS Code has no LanguageModelToolResult');
  return new api.LanguageModelToolResult([new api.LanguageModelTextPart(text)]);
}

/** The text parts of a tool result, joined. */
export function resultText(result: { content: ToolResultPart[] }): string {
  return result.content.map((p) => (typeof p.value === 'string' ? p.value : '')).join('');
}
