// `anachron min-versions [PATH…] [--format text|json]`: for each tracked library the code uses, the lowest (and,
// when something was removed, the highest) tracked version that has every API and keyword the code uses, what
// forces it, and whether the project's declared requirement agrees. Like vermin, for libraries instead of Python.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkPythonSource } from '../check-source.js';
import type { LibraryMatrix } from '../core/api-model.js';
import type { Finding } from '../core/findings.js';
import { normalizeDistributionName } from '../core/library-names.js';
import { describeOrigin, parseCommandLinePin, type Pin } from '../core/pins.js';
import { findApiReferences } from '../core/python/file-syntax.js';
import { loadPythonParser } from '../parser/python-parser.js';
import {
  computeRequirement,
  declaredBoundIsWrong,
  formatRequirementText,
  type DeclaredRequirement,
  type LibraryRequirement,
  type Usage,
} from '../report/min-versions.js';
import { findingRule } from '../core/rules/index.js';
import { openMatrixCatalog } from '../store/catalog.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { pinsForFile } from '../workspace/manifests.js';
import { collectPythonFiles } from './files.js';
import { UsageError } from './usage-error.js';

/** Findings that say the code would work at another tracked version: the ones a version choice can fix. */
function isVersionDependent(f: Finding): boolean {
  return findingRule(f.code)!.versionBound && f.availableIn.length > 0;
}

interface SourceFile {
  path: string;
  shown: string;
  text: string;
}

interface Group {
  matrix: LibraryMatrix;
  declared: DeclaredRequirement | null;
  files: SourceFile[];
}

function declaredFrom(pin: Pin | undefined, matrix: LibraryMatrix): DeclaredRequirement | null {
  if (!pin) return null;
  return { requirement: `${matrix.distribution}${pin.specifier}`, specifier: pin.specifier, source: describeOrigin(pin.origin) };
}

export async function runMinVersions(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: 'string', default: 'text' }, matrices: { type: 'string' } },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format must be text or json, not ${values.format}`);
  const { files, missing } = collectPythonFiles(positionals.length > 0 ? positionals : ['.']);
  if (missing.length > 0) throw new UsageError(`no such file or folder: ${missing.join(', ')}`);

  const catalog = openMatrixCatalog(values.matrices ? resolve(values.matrices) : defaultMatricesFolder(), { onProblem: (p) => err(`anachron: warning: ${p}`) });
  if (catalog.names.length === 0) {
    catalog.close();
    throw new UsageError('no usable matrices: nothing can be checked');
  }
  const cwd = process.cwd();
  const parser = await loadPythonParser();
  const groups = new Map<string, Group>();
  const manifestsByFolder = new Map<string, ReturnType<typeof pinsForFile>>();
  const reportedManifestProblems = new Set<string>();
  let requirements: LibraryRequirement[];
  try {
    // Which tracked libraries each file uses, and which declaration governs it.
    for (const path of files) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (e) {
        err(`anachron: warning: cannot read ${path}: ${(e as Error).message}`);
        continue;
      }
      const tree = parser.parse(text);
      const used = new Map<string, LibraryMatrix>();
      try {
        for (const ref of findApiReferences(tree)) {
          const root = ref.prefixes[0]?.path.split('.')[0];
          const matrix = root ? catalog.forImportRoot(root) : undefined;
          if (matrix) used.set(matrix.library, matrix);
        }
      } finally {
        tree.delete();
      }
      if (used.size === 0) continue;
      const folder = dirname(resolve(path));
      let manifest = manifestsByFolder.get(folder);
      if (!manifest) {
        manifest = pinsForFile(path, { displayBase: cwd });
        manifestsByFolder.set(folder, manifest);
        for (const p of manifest.problems) {
          const key = `${p.file}:${p.line}`;
          if (!reportedManifestProblems.has(key)) err(`anachron: warning: ${p.file}:${p.line}: ${p.message}`);
          reportedManifestProblems.add(key);
        }
      }
      const file: SourceFile = { path, shown: relative(cwd, resolve(path)) || path, text };
      for (const matrix of used.values()) {
        const declared = declaredFrom(manifest.pins.get(normalizeDistributionName(matrix.distribution)), matrix);
        const key = `${matrix.library}\u0000${declared ? `${declared.source}\u0000${declared.specifier}` : ''}`;
        const group = groups.get(key) ?? { matrix, declared, files: [] };
        group.files.push(file);
        groups.set(key, group);
      }
    }

    // Each group checked at every tracked version of its library, that library pinned alone.
    requirements = [...groups.values()].map((group) => {
      const { matrix } = group;
      const failuresAt = new Map<string, Usage[]>();
      for (const version of matrix.versions) {
        const pin = parseCommandLinePin(`${matrix.distribution}==${version}`);
        if ('error' in pin) throw new Error(`cannot pin ${matrix.distribution}==${version}: ${pin.error}`);
        const pins = new Map([[normalizeDistributionName(matrix.distribution), pin]]);
        const failures: Usage[] = [];
        for (const file of group.files) {
          for (const f of checkPythonSource(parser, file.text, { catalog, pins })) {
            if (f.library !== matrix.library || !isVersionDependent(f)) continue;
            failures.push({ file: file.shown, line: f.range.start.line + 1, column: f.range.start.column + 1, code: f.code, api: f.api, parameter: f.parameter });
          }
        }
        if (failures.length > 0) failuresAt.set(version, failures);
      }
      return computeRequirement({
        library: matrix.library,
        distribution: matrix.distribution,
        versions: matrix.versions,
        failuresAt,
        files: group.files.map((f) => f.shown),
        declared: group.declared,
      });
    });
  } finally {
    catalog.close();
  }
  requirements.sort((a, b) => a.library.localeCompare(b.library) || (a.declared?.source ?? '').localeCompare(b.declared?.source ?? ''));

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
  return wrong.length > 0 ? 1 : 0;
}
