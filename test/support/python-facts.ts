// The checked facts of test/fixtures/facts/python.tsv, and what a surface says about one of them at one version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Surface, SurfaceApi } from '../../server/src/store/surface.js';

export interface PythonFact {
  api: string;
  change: 'added' | 'removed' | 'keyword-added' | 'keyword-removed';
  version: string;
  parameter: string;
  source: string;
}

export function readPythonFacts(): PythonFact[] {
  return readFileSync(join(__dirname, '..', 'fixtures', 'facts', 'python.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [api, change, version, parameter, source] = l.split('\t');
      return { api: api!, change: change as PythonFact['change'], version: version!, parameter: parameter ?? '', source: source ?? '' };
    });
}

/** "3.10" -> "3.9": the minor before (facts compare a version with the one before it). */
export function previousMinor(version: string): string {
  const [major, minor] = version.split('.').map(Number);
  return `${major}.${minor! - 1}`;
}

export function acceptsByKeyword(api: SurfaceApi, keyword: string): boolean {
  return (api.signature?.parameters ?? []).some((p) => p.kind === 'var_keyword' || (p.name === keyword && (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only')));
}

/** Whether the fact's "after" side holds in a surface: the API is there (and takes the keyword, for keyword facts). */
export function holds(surface: Surface, fact: PythonFact): boolean | null {
  const api = surface.apis.find((a) => a.path === fact.api);
  if (!fact.parameter) return api !== undefined;
  if (!api?.signature) return null; // no signature: the surface cannot tell
  return acceptsByKeyword(api, fact.parameter);
}

export const appears = (fact: PythonFact) => fact.change === 'added' || fact.change === 'keyword-added';
