// `anachron min-versions [PATH…] [--library NAME]… [--format text|json]`: for each tracked library the code uses, the lowest (and,
// when something was removed, the highest) tracked version that has every API and keyword the code uses, what
// forces it, and whether the project's declared requirement agrees. Like vermin, for libraries and Python itself.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { LibraryMatrix } from '../core/api-model.js';
import {
  computeRequirement,
  declaredBoundIsWrong,
  formatRequirementText,
  type DeclaredRequirement,
  type DeprecatedUsage,
  type LibraryRequirement,
  type Usage,
} from '../report/min-versions.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { collectPythonFiles, unreadableExit, warnSkipped } from './files.js';
import { jobsOption } from './jobs-option.js';
import { InputError } from '../core/errors.js';
import { runJobs } from './worker-pool.js';

/** The files that use a library under one declaration, with what each uses that each tracked version lacks. */
interface Group {
  matrix: LibraryMatrix;
  declared: DeclaredRequirement | null;
  files: { shown: string; failuresAt: Map<string, Usage[]>; deprecatedAt: Map<string, DeprecatedUsage[]> }[];
}

export async function runMinVersions(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'text' }, matrices: { type: 'string' }, jobs: { type: 'string' }, library: { type: 'string', multiple: true, default: [] } },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new InputError(`--format must be text or json, not ${values.format}`);
  const { files, missing, sizes, skipped } = collectPythonFiles(positionals.length > 0 ? positionals : ['.']);
  if (missing.length > 0) throw new InputError(`no such file or folder: ${missing.join(', ')}`);
  warnSkipped(skipped, err);

  const matricesFolder = values.matrices ? resolve(values.matrices) : defaultMatricesFolder();
  // The folder's problems are reported now; a broken matrix where a file first needs it (in the job's result).
  const catalog = openMatrixCatalog(matricesFolder, { onProblem: (p) => err(`anachron: warning: ${p}`) });
  if (catalog.names.length === 0) {
    catalog.close();
    throw new InputError('no usable matrices: nothing can be checked');
  }
  const cwd = process.cwd();
  const groups = new Map<string, Group>();
  const reportedManifestProblems = new Set<string>();
  let requirements: LibraryRequirement[];
  const unreadable = skipped.filter((s) => s.unreadable).map((s) => s.path);
  try {
    // Per file: the tracked libraries it uses, the declaration that governs each, and what it uses that each tracked
    // version lacks (the library pinned alone at that version).
    // --library NAME…: only these libraries (python for Python itself), e.g. beside vermin.
    const results = await runJobs('min-versions', { matricesFolder, cwd, libraries: values.library ?? [] }, files, { threads: jobsOption(values.jobs), bytes: files.reduce((n, f) => n + (sizes.get(f) ?? 0), 0), weights: files.map((f) => sizes.get(f) ?? 0) });
    const reportedMatrixProblems = new Set<string>();
    files.forEach((path, i) => {
      const { shown, uses, problems, matrixProblems, readError, unreadable: failed } = results[i]!;
      if (readError !== null) err(`anachron: warning: cannot read ${path}: ${readError}`);
      if (failed) unreadable.push(path);
      for (const p of matrixProblems) {
        if (!reportedMatrixProblems.has(p)) err(`anachron: warning: ${p}`);
        reportedMatrixProblems.add(p);
      }
      for (const p of problems) {
        const key = `${p.file}:${p.line}`;
        if (!reportedManifestProblems.has(key)) err(`anachron: warning: ${p.file}:${p.line}: ${p.message}`);
        reportedManifestProblems.add(key);
      }
      for (const use of uses) {
        const matrix = catalog.forImportRoot(use.library)!;
        // Each declaration in force is judged on its own: where markers leave several pins possible, the code must
        // work under every one of them, not only under the first.
        const declarations = use.declarations.length > 0 ? use.declarations : [null];
        for (const declared of declarations) {
          const key = `${matrix.library}\u0000${declared ? `${declared.source}\u0000${declared.specifier}\u0000${declared.marker ?? ''}` : ''}`;
          const group = groups.get(key) ?? { matrix, declared, files: [] };
          group.files.push({ shown, failuresAt: new Map(use.failuresAt), deprecatedAt: new Map(use.deprecatedAt) });
          groups.set(key, group);
        }
      }
    });

    requirements = [...groups.values()].map((group) => {
      const { matrix } = group;
      const failuresAt = new Map<string, Usage[]>();
      const deprecatedAt = new Map<string, DeprecatedUsage[]>();
      for (const version of matrix.versions) {
        const failures = group.files.flatMap((f) => f.failuresAt.get(version) ?? []);
        if (failures.length > 0) failuresAt.set(version, failures);
        const deprecated = group.files.flatMap((f) => f.deprecatedAt.get(version) ?? []);
        if (deprecated.length > 0) deprecatedAt.set(version, deprecated);
      }
      return computeRequirement({
        library: matrix.library,
        distribution: matrix.distribution,
        versions: matrix.versions,
        failuresAt,
        deprecatedAt,
        files: group.files.map((f) => f.shown),
        declared: group.declared,
        versionSeries: matrix.versionSeries,
      });
    });
  } finally {
    catalog.close();
  }
  requirements.sort((a, b) => a.library.localeCompare(b.library) || (a.declared?.source ?? '').localeCompare(b.declared?.source ?? '', undefined, { numeric: true }));

  const wrong = requirements.filter(declaredBoundIsWrong);
  if (values.format === 'json') {
    out(JSON.stringify(requirements, null, 2));
  } else if (requirements.length === 0) {
    out(`No tracked library is used in ${files.length} file${files.length === 1 ? '' : 's'}.`);
  } else {
    for (const r of requirements) for (const line of formatRequirementText(r)) out(line);
    out(
      wrong.length === 0
        ? 'No declared requirement is too low for the code.'
        : `${wrong.length} declared requirement${wrong.length === 1 ? ' is' : 's are'} wrong for the code: ${wrong.map((r) => r.declared!.requirement).join(', ')}.`,
    );
  }
  return unreadableExit(unreadable, err) ?? (wrong.length > 0 ? 1 : 0);
}
