// The analysis of open documents, kept between edits so that an edit costs what it changed: the parse (held in pieces,
// re-parsed around the edit: lsp/document-trees.ts), the facts of every chunk the edit left alone
// (core/python/file-syntax.ts) and, across all documents, the checker's verdicts per reference and pin (core/check-memo.ts). A manifest or
// settings change needs nothing dropped: facts do not depend on pins, and verdicts are remembered per pin. Each
// analysis gives what a fresh one of the same text gives (test/lsp-incremental.test.ts checks it under random edits).
import { analyzeSyntax, analyzeSyntaxAt, type AnalysisContext } from '../core/analyze.js';
import { CheckMemo } from '../core/check-memo.js';
import type { Finding } from '../core/findings.js';
import { chunkFacts, fileSyntax, newChunkFactsCache, syntaxOfChunks, type ChunkFactsCache, type FileSyntax } from '../core/python/file-syntax.js';
import type { SourcePosition } from '../core/source-range.js';
import type { PythonParser } from '../parser/python-parser.js';
import { DocumentTrees } from './document-trees.js';

interface Entry {
  text: string;
  syntax: FileSyntax;
}

/** How long `prepare` reads chunk facts before it lets the server answer what is waiting. */
const SLICE_MS = 40;

/** What the last analysis of a document cost. */
export interface AnalysisTiming {
  millis: number;
  /** Chunks read from the tree (the rest kept their facts), of all the document's chunks. */
  chunksRead: number;
  chunks: number;
}

export class DocumentAnalyses {
  readonly trees: DocumentTrees;
  private readonly entries = new Map<string, Entry>();
  private memo = new CheckMemo();
  private readonly timings = new Map<string, AnalysisTiming>();
  /** Per document: the facts of its chunks, kept between analyses (and filled ahead by `prepare`). */
  private readonly caches = new Map<string, ChunkFactsCache>();
  /** Chunks `prepare` read for a document's next analysis. */
  private readonly prepared = new Map<string, number>();

  constructor(private readonly parser: PythonParser) {
    this.trees = new DocumentTrees(parser);
  }

  /** The document's references and suppressions for `text`, reusing what the last analysis read. */
  syntaxFor(uri: string, text: string): FileSyntax {
    const entry = this.entries.get(uri);
    if (entry && entry.text === text) return entry.syntax;
    const syntax = syntaxOfChunks(this.trees.chunksFor(uri, text), this.cacheFor(uri));
    this.entries.set(uri, { text, syntax });
    return syntax;
  }

  private cacheFor(uri: string): ChunkFactsCache {
    let cache = this.caches.get(uri);
    if (!cache) this.caches.set(uri, (cache = newChunkFactsCache()));
    return cache;
  }

  /**
   * Reads, ahead of the analysis of `text`, the facts of its chunks not yet known, yielding to the event loop every
   * SLICE_MS so that the server answers requests meanwhile (a 100,000-line file's first analysis reads facts for
   * seconds). Resolves false, having stopped, once `wanted` says no or the document's trees moved past `text`;
   * then the analysis is not wanted either (a newer version is scheduled).
   */
  async prepare(uri: string, text: string, wanted: () => boolean): Promise<boolean> {
    if (this.entries.get(uri)?.text === text) return true;
    const chunks = this.trees.chunksFor(uri, text);
    const cache = this.cacheFor(uri);
    let read = 0;
    let since = performance.now();
    for (const chunk of chunks) {
      if (chunk.key === null || cache.facts.has(chunk.key)) continue;
      cache.facts.set(chunk.key, chunkFacts(chunk));
      read++;
      if (performance.now() - since < SLICE_MS) continue;
      await new Promise((resolve) => setImmediate(resolve));
      // The chunks hold nodes of the trees of `text`: once the document moved on they may be freed.
      if (!wanted() || !this.trees.holds(uri, text)) return false;
      since = performance.now();
    }
    this.prepared.set(uri, read);
    return true;
  }

  /** Whether the document has been analysed (at some text) since it opened. */
  hasAnalysed(uri: string): boolean {
    return this.entries.has(uri);
  }

  /** The findings of an open document. */
  findings(uri: string, text: string, ctx: AnalysisContext): Finding[] {
    const started = performance.now();
    const unchanged = this.entries.get(uri)?.text === text;
    const syntax = this.syntaxFor(uri, text);
    const findings = analyzeSyntax(syntax, ctx, this.memo);
    const chunks = this.cacheFor(uri);
    const ahead = this.prepared.get(uri) ?? 0;
    this.prepared.delete(uri);
    this.timings.set(uri, { millis: performance.now() - started, chunksRead: unchanged ? 0 : chunks.read + ahead, chunks: chunks.chunks });
    return findings;
  }

  /** The findings of an open document within the statement that holds `pos` (what a hover needs to know). */
  findingsAt(uri: string, text: string, pos: SourcePosition, ctx: AnalysisContext): Finding[] {
    return analyzeSyntaxAt(this.syntaxFor(uri, text), pos, ctx, this.memo);
  }

  /** The findings of a text that is not an open document (a file checked from disk): parsed afresh, verdicts shared. */
  findingsOfText(text: string, ctx: AnalysisContext): Finding[] {
    const tree = this.parser.parse(text);
    try {
      return analyzeSyntax(fileSyntax(tree, text), ctx, this.memo);
    } finally {
      tree.delete();
    }
  }

  /** Columns joined the matrices (the catalog object stays): the verdicts remembered for it no longer hold. */
  resetVerdicts(): void {
    this.memo = new CheckMemo();
  }

  timing(uri: string): AnalysisTiming | undefined {
    return this.timings.get(uri);
  }

  forget(uri: string): void {
    this.trees.forget(uri);
    this.entries.delete(uri);
    this.timings.delete(uri);
    this.caches.delete(uri);
    this.prepared.delete(uri);
  }
}
