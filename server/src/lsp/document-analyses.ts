// The analysis of open documents, kept between edits so that an edit costs what it changed: the parse (held in pieces,
// re-parsed around the edit: lsp/document-trees.ts), the facts of every chunk the edit left alone
// (core/python/file-syntax.ts) and, across all documents, the checker's verdicts per reference and pin (core/check-memo.ts). A manifest or
// settings change needs nothing dropped: facts do not depend on pins, and verdicts are remembered per pin. Each
// analysis gives what a fresh one of the same text gives (test/lsp-incremental.test.ts checks it under random edits).
import { analyzeSyntax, type AnalysisContext } from '../core/analyze.js';
import { CheckMemo } from '../core/check-memo.js';
import type { Finding } from '../core/findings.js';
import { fileSyntax, newChunkFactsCache, syntaxOfChunks, type ChunkFactsCache, type FileSyntax } from '../core/python/file-syntax.js';
import type { PythonParser } from '../parser/python-parser.js';
import { DocumentTrees } from './document-trees.js';

interface Entry {
  text: string;
  syntax: FileSyntax;
  chunks: ChunkFactsCache;
}

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

  constructor(private readonly parser: PythonParser) {
    this.trees = new DocumentTrees(parser);
  }

  /** The document's references and suppressions for `text`, reusing what the last analysis read. */
  syntaxFor(uri: string, text: string): FileSyntax {
    const entry = this.entries.get(uri);
    if (entry && entry.text === text) return entry.syntax;
    const chunks = entry?.chunks ?? newChunkFactsCache();
    const syntax = syntaxOfChunks(this.trees.chunksFor(uri, text), chunks);
    this.entries.set(uri, { text, syntax, chunks });
    return syntax;
  }

  /** The findings of an open document. */
  findings(uri: string, text: string, ctx: AnalysisContext): Finding[] {
    const started = performance.now();
    const unchanged = this.entries.get(uri)?.text === text;
    const syntax = this.syntaxFor(uri, text);
    const findings = analyzeSyntax(syntax, ctx, this.memo);
    const { chunks } = this.entries.get(uri)!;
    this.timings.set(uri, { millis: performance.now() - started, chunksRead: unchanged ? 0 : chunks.read, chunks: chunks.chunks });
    return findings;
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
  }
}
