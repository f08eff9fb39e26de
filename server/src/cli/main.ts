// The anachron command line: the same core as the editor, for CI and for reviewing AI-written code. Each command's
// module is loaded when that command runs: `check` does not evaluate the benchmark, the MCP SDK or the drift suite.
import { chooseSqlite } from '../store/sqlite/driver.js';
import { errorMessage, InputError, internalErrorReport, isInputError } from '../core/errors.js';

const USAGE = `usage: anachron [--debug] <command> [options]

commands:
  check [PATH…] [--pin LIB==VERSION]… [--upgrade-to LIB==VERSION]… [--format text|json|sarif] [--diff REV] [--matrices DIR] [--jobs N] [--exit-zero]
        [--fetch [--offline] [--index-url URL]…] [--user-matrices DIR]
      Check Python files (folders are searched for *.py). Pins come from the nearest requirements*.txt
      above each file; --pin overrides them. Libraries not checked at their pins are named after the findings;
      --fetch first covers them from the package index (as matrix fetch), then narrows "added between" by bisection. --diff REV reports only findings on lines added or changed
      since REV (committed, staged or not; untracked files count as added). --format sarif writes SARIF
      2.1.0 for code scanning. --jobs N: threads to use (default: one per core for large inputs).
      --upgrade-to LIB==VERSION (repeatable): the migration preview before bumping a pin — checks the files at the
      pins in force and at VERSION, and reports what the upgrade would break and what would warn (deprecated there).
      Exit code: 0 no findings, 1 findings (0 with --exit-zero), 2 usage or input error, 3 internal error.
  min-versions [PATH…] [--library NAME]… [--format text|json] [--matrices DIR] [--jobs N]
      For each tracked library the code uses: the lowest (and highest) tracked version with every API and
      keyword it uses, the usages that force it, and whether the declared requirement is too low.
      Exit code: 0, or 1 when a declared lower bound is too low.
  lsp [--stdio]
      Run the language server over stdin/stdout, for editors other than VS Code (see docs/editors.md).
  mcp [--project DIR] [--matrices DIR]
      Run the MCP server over stdin/stdout for agents (Claude Desktop, Cursor, VS Code, …): tools anachron_lookup
      (an API at the project's pinned version) and anachron_check (code at the pins). See docs/agents.md.
  history API… [--format text|json] [--every-version] [--matrices DIR]
      Show what the matrix says about fully qualified APIs (e.g. numpy.trapezoid), version by version
      (consecutive versions that agree share a line unless --every-version).
  libraries [LIBRARY…] [--json] [--matrices DIR]
      The libraries anachron knows (one file each in libraries/: names, sources, environments) and the
      versions their matrices track; a pinned library without a matrix is not looked at.
  build-matrices [LIBRARY…] [--surfaces DIR] [--out DIR] [--distribution LIB=DIST]…
      Build matrices/LIBRARY.sqlite from python-probe surfaces and regenerate matrices/README.md.
  matrix add LIB==VERSION (--python PATH | --source DIR [--package-dir SUBPATH]) [--matrices DIR]
      Add (or replace) one version column: probe an interpreter that has LIB==VERSION, or extract it statically
      from a source tree, then rebuild that library's matrix.
  matrix fetch DIST==VERSION… [--no-newest] [--refresh] [--index-url URL] [--extra-index-url URL]… [--offline]
               [--python PATH] [--user-matrices DIR] [--cache DIR]
      Version columns from the package index pip/uv are configured for (PIP_INDEX_URL, pip.conf, UV_DEFAULT_INDEX,
      [[tool.uv.index]], --index-url lines; netrc; HTTP(S)_PROXY), read statically from the release's wheel or
      sdist (verified by its sha256; nothing built or run), into your matrices; also the newest release, for history.
  matrix cache list [--json] | matrix cache prune [--max-size MB | --all] [--cache DIR] [--user-matrices DIR]
      What was downloaded (files, sizes, the columns they gave) and removing it (least recently used first).
  coverage [PATH…] [--pin LIB==VERSION]… [--format text|json] [--matrices DIR] [--user-matrices DIR] [--fetch]
      Per imported library: the pin, where it is written, the matrix and its columns, and whether the code is
      checked there (or why not, and the command that would cover it).
  compare-surfaces REFERENCE CANDIDATE [--documented DOCS] [--format text|json] [--limit N]
      How far two surfaces of one version agree (e.g. runtime against static extraction).
  env list [--json] | env add LIB==VERSION (--python PATH | --venv DIR [--create] | --debian SUITE) |
  env check [LIB[==VERSION]] | env discover
      The environment registry of the drift suite: which interpreter runs which library version, verified by
      importing it there; discover registers the Debian roots of scripts/debian-python.sh. See anachron env --help.
  bench run CONFIG [--limit N] [--shard i/n] [--out DIR] | bench merge A B… --out DIR | bench report RUN… [--out DIR]
      LibEvoBench runs against a model: run (resumable, with a progress bar), merge shards, report and compare
      runs (SEUS leaderboard). See anachron bench --help and docs/benchmark-scoring.md.

Exit codes: 0 done, 1 findings (check) or a too-low bound (min-versions), 2 a mistake in the command or its input
(the message says what), 3 an internal error (a bug: the message has the stack; please report it). --debug (or
ANACHRON_DEBUG=1) prints the stack of every error.
`;

export async function main(argv: string[]): Promise<number> {
  // `anachron check | head`: the reader went away; stop quietly instead of dying on an unhandled EPIPE.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  const out = (s: string) => process.stdout.write(s + '\n');
  const err = (s: string) => process.stderr.write(s + '\n');
  const debug = argv[0] === '--debug' || process.env.ANACHRON_DEBUG === '1';
  const [command, ...rest] = argv[0] === '--debug' ? argv.slice(1) : argv;
  try {
    // Once per process, before any database is opened (dist/server.js, run by `lsp`, chooses for itself).
    if (command !== 'lsp') await chooseSqlite(undefined, { baselineCompiler: true });
    switch (command) {
      case 'check':
        return await (await import('./check-command.js')).runCheck(rest, out, err);
      case 'history':
        return await (await import('./history-command.js')).runHistory(rest, out, err);
      case 'min-versions':
        return await (await import('./min-versions-command.js')).runMinVersions(rest, out, err);
      case 'lsp':
        return await (await import('./lsp-command.js')).runLsp(rest);
      case 'mcp':
        return await (await import('./mcp-command.js')).runMcp(rest, err);
      case 'libraries':
        return await (await import('./libraries-command.js')).runLibraries(rest, out);
      case 'build-matrices':
        return await (await import('./build-matrices-command.js')).runBuildMatrices(rest, out, err);
      case 'matrix':
        if (rest[0] === 'add') return await (await import('./matrix-add-command.js')).runMatrixAdd(rest.slice(1), out, err);
        if (rest[0] === 'fetch') return await (await import('./matrix-fetch-command.js')).runMatrixFetch(rest.slice(1), out, err);
        if (rest[0] === 'cache') return (await import('./matrix-cache-command.js')).runMatrixCache(rest.slice(1), out);
        throw new InputError(`unknown matrix command "${rest[0] ?? ''}" (try: anachron matrix fetch DIST==VERSION, matrix add LIB==VERSION --python PATH, matrix cache list)`);
      case 'coverage':
        return await (await import('./coverage-command.js')).runCoverage(rest, out, err);
      case 'compare-surfaces':
        return await (await import('./compare-surfaces-command.js')).runCompareSurfaces(rest, out);
      case 'bench':
        return await (await import('./bench-command.js')).runBench(rest, out, err);
      case 'env':
        return await (await import('./env-command.js')).runEnv(rest, out, err);
      case '--help':
      case '-h':
      case 'help':
        out(USAGE);
        return 0;
      case undefined:
        err(USAGE);
        return 2;
      default:
        throw new InputError(`unknown command "${command}"`);
    }
  } catch (e) {
    return reportError(e, err, debug);
  }
}

/**
 * The exit code of an error, reported on stderr: an input error in one line (with the usage for a malformed flag),
 * exit 2; anything else as the internal error it is, with its stack, exit 3.
 */
export function reportError(e: unknown, err: (s: string) => void, debug: boolean): number {
  if (!isInputError(e)) {
    err(internalErrorReport(e, 'anachron'));
    return 3;
  }
  err(`anachron: ${errorMessage(e)}`);
  if ((e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) err(USAGE);
  if (debug && e instanceof Error && e.stack) err(e.stack);
  return 2;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.exitCode = reportError(e, (s) => process.stderr.write(s + '\n'), true);
    },
  );
}
