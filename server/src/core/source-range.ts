/** A position in a source file: 0-based line, 0-based column in UTF-16 code units (as LSP counts by default). */
export interface SourcePosition {
  line: number;
  column: number;
}

export interface SourceRange {
  start: SourcePosition;
  end: SourcePosition;
}
