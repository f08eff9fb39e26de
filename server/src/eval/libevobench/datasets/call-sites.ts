// API-C call sites: every call in a parsed file that the checker's analysis (findApiReferences) resolves to an API of
// a tracked library, kept when that API is present at the version the file pins (the benchmark's presence rule), then
// de-duplicated as Appendix D.1 says: on one line only the outermost call, in one file only the first call of each
// unqualified name. Pure: the tree arrives parsed.
import type { Node, Tree } from 'web-tree-sitter';
import type { GroundTruthHistory, GroundTruthState } from '../../../core/ground-truth.js';
import { findApiReferences } from '../../../core/python/file-syntax.js';
import type { ApiReference } from '../../../core/python/references.js';
import { versionsEqual } from '../../../core/versions.js';
import type { CorpusFile } from './corpus.js';

/** What a call site needs to know of an API: its kind, and its state at each tracked version (a GroundTruthHistory is one). */
export interface CallTarget {
  kind: GroundTruthHistory['kind'];
  versions: readonly { version: string; state: GroundTruthState }[];
}

export interface TrackedLibrary<H extends CallTarget = GroundTruthHistory> {
  /** Import name of the top-level package. */
  library: string;
  /** Normalised distribution name: the key of the file's pins. */
  distribution: string;
  /** Tracked versions, ascending. */
  versions: readonly string[];
  /** The benchmark's rows: documented APIs and their per-version ground truth. */
  histories: ReadonlyMap<string, H>;
}

export interface KeywordValue {
  name: string;
  value: string;
}

export interface CallSite {
  library: string;
  /** Fully qualified API the call resolves to. */
  api: string;
  /** The pinned version (as the matrix spells it). */
  version: string;
  file: string;
  /** Offsets of the call expression in the file's text (UTF-16 code units, end exclusive). */
  start: number;
  end: number;
  /** 0-based line and column of the call's start. */
  line: number;
  column: number;
  /** The masked call as written, e.g. `np.mean(values, axis=0)`. */
  call: string;
  /** Its function expression, e.g. `np.mean`. */
  callee: string;
  /** Positional arguments as written, in order. */
  positional: string[];
  keywords: KeywordValue[];
  /** `*args` and `**kwargs` arguments as written. */
  unpacking: string[];
  /** A chain from an imported name (`np.linalg.norm(…)`, `norm(…)`); false for a method called on an instance. */
  direct: boolean;
}

export interface CallSiteStats {
  /** Calls that reach a tracked library's API (documented in some version). */
  calls: number;
  /** … in a file without an exact pin for the library. */
  unpinned: number;
  /** … pinned at a version the matrix does not track. */
  untrackedPin: number;
  /** … to an API that is not present at the pinned version. */
  notPresent: number;
  /** … dropped as nested in another call starting on the same line. */
  nested: number;
  /** … dropped as a later call of a name already called in the file. */
  repeated: number;
  /** … kept. */
  kept: number;
}

export function emptyCallSiteStats(): CallSiteStats {
  return { calls: 0, unpinned: 0, untrackedPin: 0, notPresent: 0, nested: 0, repeated: 0, kept: 0 };
}

export function addCallSiteStats(into: CallSiteStats, from: CallSiteStats): void {
  for (const k of Object.keys(from) as (keyof CallSiteStats)[]) into[k] += from[k];
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The `call` node exactly at [start, end), or null. */
function callNodeAt(tree: Tree, start: number, end: number): Node | null {
  let node: Node | null = tree.rootNode.descendantForIndex(start, end);
  while (node && !(node.type === 'call' && node.startIndex === start && node.endIndex === end)) {
    if (node.startIndex < start || node.endIndex > end) return null;
    node = node.parent;
  }
  return node;
}

/** The API path and kind of access a reference with a call resolves to, or null. */
function calledApi(ref: ApiReference, histories: ReadonlyMap<string, CallTarget>): { api: string; direct: boolean } | null {
  if (ref.receiver) {
    // A method on an instance of a library class (`g = np.random.Generator(bg); g.integers(…)`). Values produced by
    // functions would need the checker's return-type flow; they are left out.
    const member = ref.receiver.members[0];
    if (ref.receiver.members.length !== 1 || !member || histories.get(ref.receiver.producer)?.kind !== 'class') return null;
    return { api: `${ref.receiver.producer}.${member.name}`, direct: false };
  }
  const last = ref.prefixes[ref.prefixes.length - 1];
  return last ? { api: last.path, direct: true } : null;
}

function argumentsOf(call: Node): Pick<CallSite, 'positional' | 'keywords' | 'unpacking'> {
  const positional: string[] = [];
  const keywords: KeywordValue[] = [];
  const unpacking: string[] = [];
  const args = call.childForFieldName('arguments');
  if (args && args.type === 'argument_list') {
    for (const arg of args.namedChildren) {
      if (!arg || arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument') {
        keywords.push({ name: arg.childForFieldName('name')?.text ?? '', value: arg.childForFieldName('value')?.text ?? '' });
      } else if (arg.type === 'list_splat' || arg.type === 'dictionary_splat') {
        unpacking.push(arg.text);
      } else {
        positional.push(arg.text);
      }
    }
  } else if (args) {
    positional.push(args.text); // a bare generator expression
  }
  return { positional, keywords, unpacking };
}

export interface FoundCallSite {
  site: CallSite;
  /** The call node, for building the snippet around it. */
  node: Node;
}

/**
 * The call sites of one file (its text already normalised to "\n" line endings), in source order, after Appendix
 * D.1's de-duplication. `libraries` maps import roots to the tracked libraries.
 */
export function findCallSites(file: CorpusFile, tree: Tree, libraries: ReadonlyMap<string, TrackedLibrary<CallTarget>>, stats: CallSiteStats = emptyCallSiteStats()): FoundCallSite[] {
  const starts = lineStarts(file.text);
  const found: FoundCallSite[] = [];
  const seenCalls = new Set<number>();
  for (const ref of findApiReferences(tree)) {
    if (!ref.call) continue;
    const lib = libraries.get((ref.receiver?.producer ?? ref.prefixes[0]?.path ?? '').split('.')[0]!);
    if (!lib) continue;
    const resolved = calledApi(ref, lib.histories);
    const history = resolved ? lib.histories.get(resolved.api) : undefined;
    if (!resolved || !history) continue;
    const { start: from, end: to } = ref.call.range;
    const start = starts[from.line]! + from.column;
    const end = starts[to.line]! + to.column;
    if (seenCalls.has(start)) continue; // one call reached twice (e.g. through two star imports)
    seenCalls.add(start);
    stats.calls++;
    const pinned = file.pins[lib.distribution];
    if (pinned === undefined) {
      stats.unpinned++;
      continue;
    }
    const version = lib.versions.find((v) => versionsEqual(v, pinned));
    if (version === undefined) {
      stats.untrackedPin++;
      continue;
    }
    if (history.versions.find((c) => c.version === version)?.state !== 'present') {
      stats.notPresent++;
      continue;
    }
    const node = callNodeAt(tree, start, end);
    if (!node) continue;
    const fn = node.childForFieldName('function');
    found.push({
      node,
      site: {
        library: lib.library,
        api: resolved.api,
        version,
        file: file.path,
        start,
        end,
        line: from.line,
        column: from.column,
        call: node.text,
        callee: fn?.text ?? '',
        ...argumentsOf(node),
        direct: resolved.direct,
      },
    });
  }
  found.sort((a, b) => a.site.start - b.site.start || b.site.end - a.site.end);
  // (i) one line, one call: a call nested in another that starts on the same line is dropped.
  const outer = found.filter(({ site }) => {
    const nested = found.some(({ site: o }) => o !== site && o.line === site.line && o.start <= site.start && site.end <= o.end && (o.start < site.start || o.end > site.end));
    if (nested) stats.nested++;
    return !nested;
  });
  // (ii) one file, one call per unqualified name: the first occurrence is kept.
  const seenNames = new Set<string>();
  const kept = outer.filter(({ site }) => {
    const name = `${site.library}\0${site.api.slice(site.api.lastIndexOf('.') + 1)}`;
    if (seenNames.has(name)) {
      stats.repeated++;
      return false;
    }
    seenNames.add(name);
    return true;
  });
  stats.kept += kept.length;
  return kept;
}
