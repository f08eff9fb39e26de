// What the extension's commands and features need of the running extension (extension.ts's Anachron), as a type, so
// that they depend on this and not on the module that creates them.
import type { ExtensionContext } from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { Interpreters } from './interpreter.js';
import type { LeveledChannel } from './log.js';
import type { Runtime } from './server-runtime.js';

export interface AnachronSession {
  readonly context: ExtensionContext;
  readonly log: LeveledChannel;
  readonly interpreters: Interpreters;
  /** The language client, while one is started. */
  readonly client: LanguageClient | undefined;
  /** The runtime the server and the CLI run on, once chosen. */
  readonly runtime: Runtime | undefined;
  readonly running: boolean;
  /** Where users' matrix columns go: the extension's global storage. */
  readonly userMatricesFolder: string;
  /** A request to the server; undefined (with a warning shown) when it is not running. */
  request<R>(method: string, params?: unknown): Promise<R | undefined>;
  start(): Promise<void>;
  stop(): Promise<void>;
  restart(): Promise<void>;
}
