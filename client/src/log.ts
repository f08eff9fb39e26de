// The "anachron" output channel: a LogOutputChannel (createOutputChannel(name, { log: true })) whose level the user
// sets with "Developer: Set Log Level…", as for ruff and eslint. The language client writes "[Level - time] message"
// lines through the plain OutputChannel interface; each is written at its own level, without the client's prefix (the
// channel adds time and level), and the lines that continue a message (its data) at that message's level. What
// arrives through append() is the server process's stderr: written as warnings, and the last lines kept to explain a
// crash. Writes after the channel is disposed are dropped (on a window reload the client still says goodbye after
// the channel closed: "Channel has been closed").
import { window, type LogOutputChannel, type OutputChannel, type ViewColumn } from 'vscode';

type Level = 'error' | 'warn' | 'info' | 'debug' | 'trace';
const PREFIX = /^\[(Error|Warn|Info|Debug|Trace)\s*-\s*[^\]]*\]\s?/;

/** A line the language client wrote: its level and its text without the prefix; null for a line without one. */
export function parseClientLine(line: string): { level: Level; text: string } | null {
  const m = PREFIX.exec(line);
  return m ? { level: m[1]!.toLowerCase() as Level, text: line.slice(m[0].length) } : null;
}

export class LeveledChannel implements OutputChannel {
  readonly name: string;
  /** Recent lines of the server's stderr: what a crashing server printed. */
  readonly recentRaw: string[] = [];
  private last: Level = 'info';
  private disposed = false;

  constructor(readonly inner: LogOutputChannel) {
    this.name = inner.name;
  }

  private write(level: Level, text: string): void {
    if (this.disposed) return;
    try {
      this.inner[level](text);
    } catch {
      // closed underneath us (window reload): nothing to log to
    }
  }

  /** stderr of the server process, in chunks that need not end at line ends. */
  append(value: string): void {
    for (const line of value.split(/\r?\n/)) {
      const parsed = parseClientLine(line);
      if (parsed) {
        this.last = parsed.level;
        this.write(parsed.level, parsed.text);
        continue;
      }
      if (!line.trim()) continue;
      this.recentRaw.push(line.trim());
      if (this.recentRaw.length > 10) this.recentRaw.shift();
      this.write('warn', line);
    }
  }

  appendLine(value: string): void {
    const parsed = parseClientLine(value);
    if (parsed) this.last = parsed.level;
    this.write(parsed?.level ?? this.last, parsed?.text ?? value);
  }

  replace(value: string): void {
    if (!this.disposed) this.inner.replace(value);
  }

  clear(): void {
    if (!this.disposed) this.inner.clear();
  }

  show(columnOrPreserveFocus?: ViewColumn | boolean, preserveFocus?: boolean): void {
    if (this.disposed) return;
    if (typeof columnOrPreserveFocus === 'boolean') this.inner.show(columnOrPreserveFocus);
    else this.inner.show(columnOrPreserveFocus, preserveFocus);
  }

  hide(): void {
    if (!this.disposed) this.inner.hide();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.inner.dispose();
  }

  error(message: string): void {
    this.write('error', `client: ${message}`);
  }
  warn(message: string): void {
    this.write('warn', `client: ${message}`);
  }
  info(message: string): void {
    this.write('info', `client: ${message}`);
  }
  debug(message: string): void {
    this.write('debug', `client: ${message}`);
  }
}

export function createLogChannel(): LeveledChannel {
  return new LeveledChannel(window.createOutputChannel('anachron', { log: true }));
}
