// How far two surfaces of the same version agree (static extraction against the runtime probe): API names on a
// reference set, and parameter names of the signatures both have. Used by the matrix report and by
// `anachron compare-surfaces` while improving an extractor.
import type { Surface, SurfaceApi } from './surface.js';
import { notComparableModules, underUnresolved } from './unresolved.js';

export interface AgreementReport {
  /** APIs the name comparison ran on (the documented set when given, else module-level APIs of either surface). */
  nameBase: number;
  nameAgreeing: number;
  /** In the base, found by the reference (runtime) only / by the candidate (static) only. */
  onlyInReference: string[];
  onlyInCandidate: string[];
  /**
   * Left out of the name comparison: under a module the reference could not import (e.g. numpy.distutils in a
   * Debian root without setuptools). The reference knows nothing there, so neither side can disagree with it.
   */
  notComparable: number;
  /** APIs with a signature on both sides, read from comparable evidence. */
  signatureBase: number;
  /**
   * Left out of the parameter comparison: the candidate's signature is the C argument parser's (static extraction
   * read it from the C source) and the reference's the callable's docstring, which the runtime can only read; there
   * the two sides read different evidence, and the docstring is the one known to leave keywords out.
   */
  parserAgainstDocstring?: number;
  signatureAgreeing: number;
  parameterMismatches: { api: string; reference: string[]; candidate: string[] }[];
  /** Left out of the name comparison by the caller's rule, counted by reason ("platform-specific"). */
  setApart?: Record<string, number>;
  /**
   * Keywords, on the APIs whose reference signature comes from the real callable and the candidate has one:
   * whether both take the same names by keyword (and both, or neither, take any keyword).
   */
  keywordBase?: number;
  keywordAgreeing?: number;
  keywordMismatches?: { api: string; reference: string[]; candidate: string[] }[];
}

export interface CompareOptions {
  /** A reason to leave a path out of the name comparison, or null to compare it. */
  setApart?: (path: string) => string | null;
  /** Also compare what each side takes by keyword. */
  keywords?: boolean;
}

/** Class members are reached through their class; the name comparison is about what modules export. */
function isModuleLevel(api: SurfaceApi, modules: Set<string>): boolean {
  const parent = api.path.slice(0, api.path.lastIndexOf('.'));
  return api.kind === 'module' || modules.has(parent);
}

function parameterNames(api: SurfaceApi): string[] {
  return (api.signature?.parameters ?? []).map((p) => (p.kind === 'var_positional' ? `*${p.name}` : p.kind === 'var_keyword' ? `**${p.name}` : p.name));
}

function keywordSet(api: SurfaceApi): string[] {
  return (api.signature?.parameters ?? [])
    .filter((p) => p.kind === 'positional_or_keyword' || p.kind === 'keyword_only' || p.kind === 'var_keyword')
    .map((p) => (p.kind === 'var_keyword' ? '**' : p.name))
    .sort();
}

export function compareSurfaces(reference: Surface, candidate: Surface, documented?: Iterable<string>, options: CompareOptions = {}): AgreementReport {
  const ref = new Map(reference.apis.map((a) => [a.path, a] as const));
  const cand = new Map(candidate.apis.map((a) => [a.path, a] as const));
  const modules = new Set([...reference.apis, ...candidate.apis].filter((a) => a.kind === 'module').map((a) => a.path));
  const base = documented
    ? [...new Set(documented)]
    : [...new Set([...ref.values(), ...cand.values()].filter((a) => isModuleLevel(a, modules)).map((a) => a.path))];
  const refUnresolved = notComparableModules(reference, candidate);
  const setApart: Record<string, number> = {};
  const kept = options.setApart
    ? base.filter((path) => {
        const why = options.setApart!(path);
        if (why) setApart[why] = (setApart[why] ?? 0) + 1;
        return !why;
      })
    : base;
  const comparable = kept.filter((path) => ref.has(path) || !underUnresolved(path, refUnresolved)).sort();
  const notComparable = kept.length - comparable.length;
  const onlyInReference: string[] = [];
  const onlyInCandidate: string[] = [];
  let nameAgreeing = 0;
  for (const path of comparable) {
    const r = ref.has(path);
    const c = cand.has(path);
    if (r === c) nameAgreeing++;
    else if (r) onlyInReference.push(path);
    else onlyInCandidate.push(path);
  }
  let signatureBase = 0;
  let signatureAgreeing = 0;
  const parameterMismatches: AgreementReport['parameterMismatches'] = [];
  let parserAgainstDocstring = 0;
  for (const [path, r] of ref) {
    const c = cand.get(path);
    if (!c?.signature || !r.signature) continue;
    if (c.signature.source === 'parser' && r.signature.source === 'docstring') {
      parserAgainstDocstring++;
      continue;
    }
    signatureBase++;
    const rn = parameterNames(r);
    const cn = parameterNames(c);
    if (rn.join(',') === cn.join(',')) signatureAgreeing++;
    else parameterMismatches.push({ api: path, reference: rn, candidate: cn });
  }
  const report: AgreementReport = { nameBase: comparable.length, nameAgreeing, onlyInReference, onlyInCandidate, notComparable, signatureBase, signatureAgreeing, parameterMismatches };
  if (parserAgainstDocstring > 0) report.parserAgainstDocstring = parserAgainstDocstring;
  if (options.setApart) report.setApart = setApart;
  if (options.keywords) {
    const keywordMismatches: NonNullable<AgreementReport['keywordMismatches']> = [];
    let keywordBase = 0;
    for (const [path, r] of ref) {
      const c = cand.get(path);
      if (!c?.signature || r.signature?.source !== 'inspect') continue;
      keywordBase++;
      const rk = keywordSet(r);
      const ck = keywordSet(c);
      if (rk.join(',') !== ck.join(',')) keywordMismatches.push({ api: path, reference: rk, candidate: ck });
    }
    Object.assign(report, { keywordBase, keywordAgreeing: keywordBase - keywordMismatches.length, keywordMismatches });
  }
  return report;
}

export function formatAgreement(report: AgreementReport): string {
  const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
  return (
    `API names: ${pct(report.nameAgreeing, report.nameBase)} of ${report.nameBase} agree ` +
    `(${report.onlyInReference.length} only in reference, ${report.onlyInCandidate.length} only in candidate` +
    `${report.notComparable > 0 ? `; ${report.notComparable} left out: the reference could not import their module, or its Python has none` : ''}); ` +
    `parameter names: ${pct(report.signatureAgreeing, report.signatureBase)} of ${report.signatureBase} shared signatures agree` +
    (report.parserAgainstDocstring ? ` (${report.parserAgainstDocstring} C-parser signatures against docstrings left out)` : '') +
    (report.keywordBase !== undefined ? `; keywords: ${pct(report.keywordAgreeing!, report.keywordBase)} of ${report.keywordBase} introspected signatures agree` : '') +
    (report.setApart && Object.keys(report.setApart).length > 0
      ? `; set apart: ${Object.entries(report.setApart).sort().map(([why, n]) => `${n} ${why}`).join(', ')}`
      : '')
  );
}
