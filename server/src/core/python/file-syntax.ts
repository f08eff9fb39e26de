// Everything the analysis reads from one chunk, as plain data relative to the chunk's start (`chunkFacts`), and the
// file-level view of a parsed file: its references, the syntax it uses that some Pythons lack, and its suppression
// comments, linked from its chunks' facts.
import type { Tree } from 'web-tree-sitter';
import { ChunkPositions, placeRange } from './chunk-position.js';
import { chunksOf, type Chunk } from './chunks.js';
import { guardFacts, type GuardFacts } from './guards.js';
import { bindingFacts, type BindingFacts } from './local-bindings.js';
import { linkReferenceChunks, newLinkMemo, placeReferences, placeReferencesAt, type ChunkReferences, type LinkMemo } from './link-references.js';
import { referenceFacts, type ApiReference, type ReferenceFacts } from './references.js';
import { addSuppressions, suppressionFacts, type SuppressionFact, type Suppressions } from './suppressions.js';
import { findSyntaxUses, type SyntaxUse } from './syntax-features.js';
import { copySubtree } from './syntax-tree.js';
import type { SourcePosition } from '../source-range.js';

export interface ChunkFacts {
  references: ReferenceFacts;
  bindings: BindingFacts;
  guards: GuardFacts;
  suppressions: SuppressionFact[];
  syntaxUses: SyntaxUse[];
}

/** A chunk's facts, read in the coordinates of its own tree (`chunk.local`): relative to its start, they are the same. */
export function chunkFacts(chunk: Chunk): ChunkFacts {
  const { origin, lines } = chunk.local;
  const copy = copySubtree(chunk.node, lines, chunk.parentType, chunk.body);
  const positions = new ChunkPositions(origin);
  return {
    references: referenceFacts(copy, positions),
    bindings: bindingFacts(copy, positions),
    guards: guardFacts(copy, origin.index),
    suppressions: suppressionFacts(copy, origin.line),
    syntaxUses: findSyntaxUses(copy, positions, lines),
  };
}

/** What a parsed file says: its references into libraries, the version-bound syntax it uses, its suppression comments. */
export interface FileSyntax {
  /** Each chunk's references, relative to its start (what the checker reads: core/checker.ts checkReferenceChunks). */
  referenceChunks: ChunkReferences[];
  /** The same references placed in the file, made when first read. */
  readonly references: ApiReference[];
  /** The references of the chunk that holds a position, placed in the file (a hover's: not the whole file's). */
  referencesAt(pos: SourcePosition): ApiReference[];
  syntaxUses: SyntaxUse[];
  suppressions: Suppressions;
}

/**
 * Facts of chunks by key (Chunk.key), kept by a caller that analyses the same document again after an edit: the
 * chunks an edit left alone are not read again. Replaced on every analysis, so it holds the current chunks only.
 */
export interface ChunkFactsCache {
  facts: Map<string, ChunkFacts>;
  /** Chunks the last analysis read (found no facts for), and all its chunks. */
  read: number;
  chunks: number;
  /** What linking made of the kept facts' uses (references.ts LinkMemo): weakly held, so it follows the facts. */
  links: LinkMemo;
}

export function newChunkFactsCache(): ChunkFactsCache {
  return { facts: new Map(), read: 0, chunks: 0, links: newLinkMemo() };
}

/**
 * The text a tree was parsed from, as far as its nodes go. The root node starts at the first token, after any
 * leading blank lines; those hold no node, so blanks with the same line breaks stand in for them.
 */
function sourceOf(tree: Tree): string {
  const root = tree.rootNode;
  const { row, column } = root.startPosition;
  const prefix = root.startIndex === 0 ? '' : ' '.repeat(root.startIndex - column - row) + '\n'.repeat(row) + ' '.repeat(column);
  return prefix + root.text;
}

/**
 * The file's references and suppressions. `source` is the text the tree was parsed from (read from the tree when
 * not given); with `cache`, unchanged chunks' facts come from the last analysis.
 */
export function fileSyntax(tree: Tree, source: string = sourceOf(tree), cache?: ChunkFactsCache): FileSyntax {
  return syntaxOfChunks(chunksOf(tree, source), cache);
}

/** The file's references and suppressions from its chunks (chunks.ts), in document order. */
export function syntaxOfChunks(chunks: readonly Chunk[], cache?: ChunkFactsCache): FileSyntax {
  const kept = new Map<string, ChunkFacts>();
  let read = 0;
  const placed = chunks.map((chunk) => {
    let facts = chunk.key === null ? undefined : (kept.get(chunk.key) ?? cache?.facts.get(chunk.key));
    if (!facts) {
      facts = chunkFacts(chunk);
      read++;
    }
    if (chunk.key !== null) kept.set(chunk.key, facts);
    return { facts, chunk };
  });
  if (cache) {
    cache.facts = kept;
    cache.read = read;
    cache.chunks = chunks.length;
  }
  const suppressions: Suppressions = new Map();
  for (const { facts, chunk } of placed) addSuppressions(suppressions, facts.suppressions, chunk.origin.line);
  const referenceChunks = linkReferenceChunks(placed.map(({ facts, chunk }) => ({ references: facts.references, bindings: facts.bindings, guards: facts.guards, origin: chunk.origin, parent: chunk.parent, end: chunk.end })), cache?.links);
  const syntaxUses: SyntaxUse[] = [];
  for (const { facts, chunk } of placed) for (const u of facts.syntaxUses) syntaxUses.push({ feature: u.feature, range: placeRange(u.range, chunk.origin) });
  let references: ApiReference[] | undefined;
  return {
    referenceChunks,
    get references() {
      return (references ??= placeReferences(referenceChunks));
    },
    referencesAt: (pos) => placeReferencesAt(referenceChunks, pos),
    syntaxUses,
    suppressions,
  };
}

/** Every reference a parsed file makes into libraries (see references.ts). */
export function findApiReferences(tree: Tree, source?: string): ApiReference[] {
  return fileSyntax(tree, source).references;
}
