// `anachron matrix add LIB==VERSION (--python PATH | --source DIR) [--matrices DIR]`: adds (or replaces) one
// version column, from an interpreter that has that version or from a source tree, and rebuilds the matrix.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { parseCommandLinePin } from '../core/pins.js';
import { versionsEqual } from '../core/versions.js';
import { runProbe } from '../environments/python-probe-runner.js';
import { defaultMatricesFolder } from '../store/matrices-folder.js';
import { runBuildMatrices } from './build-matrices-command.js';
import { InputError } from '../core/errors.js';

export async function runMatrixAdd(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { python: { type: 'string' }, source: { type: 'string' }, matrices: { type: 'string' }, 'package-dir': { type: 'string' } },
  });
  if (positionals.length !== 1) throw new InputError('usage: anachron matrix add LIB==VERSION (--python PATH | --source DIR)');
  const pin = parseCommandLinePin(positionals[0]!);
  if ('error' in pin || pin.exactVersion === null) throw new InputError(`give one exact version, e.g. numpy==1.26.4 (got ${positionals[0]})`);
  if (!values.python && !values.source) throw new InputError('say where the version comes from: --python PATH (an interpreter that has it) or --source DIR (its source tree)');
  const library = pin.distribution.replace(/-/g, '_');
  const version = pin.exactVersion;
  const matrices = resolve(values.matrices ?? defaultMatricesFolder());
  const kind = values.source ? 'static' : 'runtime';
  const python = values.python ?? 'python3';
  err(`probing ${library} ${version} (${kind}) with ${python}…`);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let surface;
  try {
    surface = await runProbe({
      python,
      script: values.source ? 'static.py' : 'probe.py',
      args: values.source
        ? [library, '--source', resolve(values.source), '--version', version, '--provenance', 'source=static', ...(values['package-dir'] ? ['--package-dir', values['package-dir']] : [])]
        : [library, '--provenance', 'source=runtime', '--provenance', `python_executable=${python}`],
      onOutput: (line) => err(`  ${line}`),
      signal: controller.signal,
    });
  } catch (e) {
    if (controller.signal.aborted) throw new InputError('cancelled; the matrix is unchanged');
    throw new InputError((e as Error).message);
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (!versionsEqual(surface.version, version)) {
    throw new InputError(`${python} has ${library} ${surface.version}, not ${version}; the matrix is unchanged`);
  }
  const dir = join(matrices, 'surfaces', library);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${library}-${version}.${kind}.json.gz`);
  writeFileSync(file, gzipSync(JSON.stringify(surface)));
  out(`added ${library} ${version}: ${surface.apis.length} APIs -> ${file}`);
  return runBuildMatrices([library, '--out', matrices], out, err);
}
