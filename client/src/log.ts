// The "anachron" output channel: the server's log and the client's own, filtered by `anachron.logLevel`. The
// language client writes "[Level - time] message" lines; lines without that prefix (a crashing server's stderr)
// always pass, and the last of them are kept to explain a crash.
import { window, type OutputChannel, type ViewColumn } from 'vscode';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<string, number> = { error: 0, warn: 1, info: 2, debug: 3, trace: 3 };
const PREFIX = /^\[(Error|Warn|Info|Debug|Trace)\s*-/;

export class LeveledChannel implements OutputChannel {
  readonly name: string;
  private level: LogLevel = 'info';
  /** Recent lines that were not structured log messages: what a crashing server printed. */
  readonly recentRaw: string[] = [];

  constructor(readonly inner: OutputChannel) {
    this.name = inner.name;
  }

  setLevel(level: LogLevel): void {
    this.level = RANK[level] === undefined ? 'info' : level;
  }

  private passes(line: string): boolean {
    const m = PREFIX.exec(line);
    if (!m) {
      if (line.trim()) {
        this.recentRaw.push(line.trim());
        if (this.recentRaw.length > 10) this.recentRaw.shift();
      }
      return true;
    }
    return RANK[m[1]!.toLowerCase()]! <= RANK[this.level]!;
  }

  append(value: string): void {
    if (this.passes(value)) this.inner.append(value);
  }

  appendLine(value: string): void {
    if (this.passes(value)) this.inner.appendLine(value);
  }

  replace(value: string): void {
    this.inner.replace(value);
  }

  clear(): void {
    this.inner.clear();
  }

  show(columnOrPreserveFocus?: ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserveFocus === 'boolean') this.inner.show(columnOrPreserveFocus);
    else this.inner.show(columnOrPreserveFocus, preserveFocus);
  }

  hide(): void {
    this.inner.hide();
  }

  dispose(): void {
    this.inner.dispose();
  }

  private write(level: 'Error' | 'Warn' | 'Info' | 'Debug', message: string): void {
    this.appendLine(`[${level.padEnd(5)} - ${new Date().toLocaleTimeString()}] client: ${message}`);
  }

  error(message: string): void {
    this.write('Error', message);
  }
  warn(message: string): void {
    this.write('Warn', message);
  }
  info(message: string): void {
    this.write('Info', message);
  }
  debug(message: string): void {
    this.write('Debug', message);
  }
}

export function createLogChannel(): LeveledChannel {
  return new LeveledChannel(window.createOutputChannel('anachron'));
}
