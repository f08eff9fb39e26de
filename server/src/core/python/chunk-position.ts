// Facts of a chunk (a top-level statement, or a statement of a class body) are kept relative to the chunk's start,
// so that an unchanged chunk's facts stay valid wherever edits above it move it: lines count from the chunk's first
// line, columns on that first line from its first column (later lines keep theirs), offsets from its first offset.
import type { LineTable, SourcePosition, SourceRange } from '../source-range.js';
import type { SyntaxNode } from './syntax-tree.js';

/** Where a chunk starts in its file. */
export interface ChunkOrigin {
  index: number;
  line: number;
  column: number;
}

/** Offsets relative to a chunk's start (from a node's first to its end). */
export interface Span {
  start: number;
  end: number;
}

function relative(p: SourcePosition, o: ChunkOrigin): SourcePosition {
  return { line: p.line - o.line, column: p.line === o.line ? p.column - o.column : p.column };
}

/** Ranges and spans of nodes of one chunk, relative to its origin. */
export class ChunkPositions {
  constructor(readonly origin: ChunkOrigin) {}

  rangeOf(node: SyntaxNode): SourceRange {
    return this.rangeBetween(node, node);
  }

  rangeBetween(first: SyntaxNode, last: SyntaxNode): SourceRange {
    return { start: relative(first.startPosition, this.origin), end: relative(last.endPosition, this.origin) };
  }

  /** The range of file offsets [start, end) (a token the copy does not hold), relative to the origin. */
  rangeOfOffsets(start: number, end: number, lines: LineTable): SourceRange {
    return { start: relative(lines.position(start), this.origin), end: relative(lines.position(end), this.origin) };
  }

  spanOf(node: SyntaxNode): Span {
    return { start: node.startIndex - this.origin.index, end: node.endIndex - this.origin.index };
  }
}

export function placePosition(p: SourcePosition, o: ChunkOrigin): SourcePosition {
  return { line: p.line + o.line, column: p.line === 0 ? p.column + o.column : p.column };
}

export function placeRange(r: SourceRange, o: ChunkOrigin): SourceRange {
  return { start: placePosition(r.start, o), end: placePosition(r.end, o) };
}
