// A child's output as lines, for the commands that build environments and run python-probe: each non-blank line is
// passed on (progress) and the last few are kept (for the error message when the child fails).

/** A 'data' listener for a child's stdout and stderr: keeps the last `keep` non-blank lines in `tail`. */
export function outputLines(tail: string[], keep: number, onLine?: (line: string) => void): (chunk: Buffer) => void {
  return (chunk) => {
    for (const line of chunk.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > keep) tail.shift();
      onLine?.(line);
    }
  };
}
