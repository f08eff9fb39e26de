/** A position in a source file: 0-based line, 0-based column in UTF-16 code units (as LSP counts by default). */
export interface SourcePosition {
  line: number;
  column: number;
}

export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
}

/** Start offsets of the source's lines, to turn an offset into a row and column. */
export class LineTable {
  private readonly starts: number[] = [0];

  constructor(readonly source: string) {
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(index: number): SourcePosition {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: index - starts[lo]! };
  }
}
