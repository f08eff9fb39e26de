// Where exactly an API (or a keyword of it) came or went, when the tracked columns only bracket it: "added between
// 1.0.0 and 3.0.0" with releases 1.1.0, 2.0.0 and 2.1.0 published in between. The next column worth fetching is the
// release in the middle of the bracket (bisection over the index's release list); a bracket of consecutive releases
// is exact. Pure: the matrix, the pinned version and the release list arrive as arguments.
import { acceptsKeyword, type ApiHistory, type LibraryMatrix } from './api-model.js';
import { compareVersions, placeVersion } from './versions.js';

export interface BoundaryQuestion {
  api: string;
  /** A keyword of the API, when the finding is about one. */
  parameter: string | null;
  /** The version the project pins (the finding's). */
  pinned: string;
}

/** Codes whose finding rests on an "added/removed between" bracket, which bisection over the index's releases narrows. */
const BISECTED_CODES: ReadonlySet<string> = new Set(['anachronistic-api', 'anachronistic-parameter']);

/** The question bisection asks for a finding (the CLI's or the editor's shape), or null where no bracket stands behind it. */
export function boundaryQuestionOf(f: { code: string; api?: string | null; parameter?: string | null; pin?: string | null }): BoundaryQuestion | null {
  if (!BISECTED_CODES.has(f.code) || !f.api || !f.pin) return null;
  return { api: f.api, parameter: f.parameter ?? null, pinned: f.pin };
}

export interface Bracket {
  /** What the bracket is about: "toylib.new_api", "toylib.area(units=)". */
  subject: string;
  change: 'added' | 'removed';
  /** The tracked versions around the change: it has `change`d after `low`, by `high`. */
  low: string;
  high: string;
  /** Published releases strictly between them (ascending): none left means the boundary is exact. */
  between: string[];
  /** The release to fetch next: the middle of `between`; null when exact. */
  next: string | null;
}

/** Whether the subject is there at each tracked version: true, false, or null where the matrix cannot say. */
function presence(history: ApiHistory, parameter: string | null): (boolean | null)[] {
  return history.versions.map((c) => {
    if (c.state === 'unknown') return null;
    if (c.state === 'absent') return false;
    if (parameter === null) return true;
    return c.signature ? acceptsKeyword(c.signature, parameter) : null;
  });
}

/**
 * The brackets nearest the pinned version on each side where the subject changes between two tracked versions
 * whose states are known: what "added between …" and "removed between …" in the finding's message rest on.
 */
export function bracketsAround(matrix: LibraryMatrix, question: BoundaryQuestion, releases: readonly string[]): Bracket[] {
  const history = matrix.lookup(question.api);
  if (!history) return [];
  const states = presence(history, question.parameter);
  const versions = matrix.versions;
  const place = placeVersion(question.pinned, versions);
  const at = place.kind === 'exact' ? place.index : null;
  const subject = question.parameter ? `${question.api}(${question.parameter}=)` : question.api;
  const out: Bracket[] = [];
  const bracket = (lowIndex: number, highIndex: number) => {
    const low = versions[lowIndex]!;
    const high = versions[highIndex]!;
    const between = releases.filter((r) => compareVersions(r, low) > 0 && compareVersions(r, high) < 0);
    out.push({ subject, change: states[highIndex] ? 'added' : 'removed', low, high, between, next: between.length ? between[Math.floor((between.length - 1) / 2)]! : null });
  };
  // Walk up from the pin to the first change between known neighbours, then down.
  const start = at ?? (place.kind === 'between' ? place.above : null);
  if (start !== null) {
    for (let i = start; i + 1 < versions.length; i++) {
      if (states[i] === null || states[i + 1] === null) continue;
      if (states[i] !== states[i + 1]) {
        bracket(i, i + 1);
        break;
      }
    }
  }
  const below = at ?? (place.kind === 'between' ? place.below : null);
  if (below !== null) {
    for (let i = below; i - 1 >= 0; i--) {
      if (states[i] === null || states[i - 1] === null) continue;
      if (states[i] !== states[i - 1]) {
        bracket(i - 1, i);
        break;
      }
    }
  }
  return out;
}

/** The releases a round of bisection fetches for a set of questions: each open bracket's middle, once. */
export function nextBisectionVersions(matrix: LibraryMatrix, questions: readonly BoundaryQuestion[], releases: readonly string[]): { version: string; bracket: Bracket }[] {
  const seen = new Map<string, Bracket>();
  for (const q of questions) {
    for (const b of bracketsAround(matrix, q, releases)) {
      if (b.next && !seen.has(b.next) && !matrix.versions.some((v) => compareVersions(v, b.next!) === 0)) seen.set(b.next, b);
    }
  }
  return [...seen].sort(([a], [b]) => compareVersions(a, b)).map(([version, bracket]) => ({ version, bracket }));
}
