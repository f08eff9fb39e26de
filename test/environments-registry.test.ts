// The environment registry: entries from the host interpreter with a fake library at two versions, persistence, a
// corrupt registry file (clear error, nothing lost), version mismatches, venv command construction and its failure
// without an index, Debian roots discovered from a (fake) cache folder, and the `anachron env` commands.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runEnv } from '../server/src/cli/env-command.js';
import {
  debianPackagesFor,
  debianUpstreamVersion,
  discoverDebianEnvironments,
  EnvironmentError,
  interpreterEnvironment,
} from '../server/src/environments/providers.js';
import { venvCommands, venvEnvironment } from '../server/src/environments/venv.js';
import {
  checkEnvironment,
  defaultEnvironmentsFile,
  defaultImportName,
  EnvironmentRegistry,
  RegistryError,
  versionMatches,
} from '../server/src/environments/registry.js';
import { InputError } from '../server/src/core/errors.js';

const PYTHON = process.env.ANACHRON_SANDBOX_PYTHON ?? '/usr/bin/python3';
const SKIP = existsSync(PYTHON) ? false : `${PYTHON} not found`;

let scratch = '';

/** fakelib at `version` in its own folder, and an interpreter wrapper that has it importable. */
function fakeInterpreter(name: string, version: string): string {
  const site = join(scratch, `site-${name}`);
  mkdirSync(join(site, 'fakelib'), { recursive: true });
  writeFileSync(join(site, 'fakelib', '__init__.py'), `__version__ = "${version}"\n`);
  const wrapper = join(scratch, `python-${name}`);
  writeFileSync(wrapper, `#!/bin/sh\nPYTHONPATH="${site}" exec ${PYTHON} "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

function setFakeVersion(name: string, version: string): void {
  writeFileSync(join(scratch, `site-${name}`, 'fakelib', '__init__.py'), `__version__ = "${version}"\n`);
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runEnv(args, (s) => out.push(s), (s) => err.push(s));
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  } catch (e) {
    if (e instanceof InputError) return { code: 2, stdout: out.join('\n'), stderr: [...err, e.message].join('\n') };
    throw e;
  }
}

describe('environment registry', { skip: SKIP }, () => {
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'anachron-envs-test-'));
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('the registry file: ANACHRON_ENVIRONMENTS, else XDG_CONFIG_HOME, else ~/.config', () => {
    assert.equal(defaultEnvironmentsFile({ ANACHRON_ENVIRONMENTS: '/x/envs.json', XDG_CONFIG_HOME: '/c' }), '/x/envs.json');
    assert.equal(defaultEnvironmentsFile({ XDG_CONFIG_HOME: '/c', HOME: '/h' }), '/c/anachron/environments.json');
    assert.equal(defaultEnvironmentsFile({ HOME: '/h' }), '/h/.config/anachron/environments.json');
    assert.equal(defaultImportName('scikit-learn'), 'sklearn');
    assert.equal(defaultImportName('Typing_Extensions'), 'typing_extensions');
  });

  test('versions match under PEP 440, a local label, or the version the library reports', () => {
    assert.ok(versionMatches('1.24.2', { version: '1.24.2' }));
    assert.ok(versionMatches('1.24.2.0', { version: '1.24.2' }));
    assert.ok(versionMatches('2.6.0+debian', { version: '2.6.0' }));
    assert.ok(!versionMatches('1.7.0a0', { version: '1.7.1' }));
    assert.ok(versionMatches('1.7.0a0', { version: '1.7.1', reportedVersion: '1.7.0a0' }));
    assert.ok(!versionMatches('1.25.0', { version: '1.24.2' }));
    assert.equal(debianUpstreamVersion('1:1.24.2-1+deb12u1'), '1.24.2');
    assert.equal(debianUpstreamVersion('2.6.0+dfsg-7'), '2.6.0');
    assert.equal(debianUpstreamVersion('1:2.2.4+ds-1'), '2.2.4');
    assert.deepEqual(debianPackagesFor('torch'), ['python3-torch', 'python3-setuptools']);
    assert.deepEqual(debianPackagesFor('numpy'), ['python3-numpy']);
  });

  test('add, list, check, persist: the host interpreter with a fake library at two versions', async () => {
    const file = join(scratch, 'add', 'environments.json');
    const v1 = fakeInterpreter('v1', '1.0');
    const v2 = fakeInterpreter('v2', '2.0.0');
    const registry = EnvironmentRegistry.load(file);
    assert.deepEqual(registry.list(), []);
    const e1 = await interpreterEnvironment('fakelib', '1.0', v1);
    assert.equal(e1.provider, 'interpreter');
    assert.equal(e1.lastCheck?.ok, true);
    assert.match(e1.pythonVersion ?? '', /^3\.\d+/);
    registry.put(e1);
    registry.put(await interpreterEnvironment('FakeLib', '2.0', v2)); // 2.0.0 is 2.0 under PEP 440
    registry.save();
    assert.ok(existsSync(file));
    assert.ok(!existsSync(`${file}.bak`), 'nothing to back up on the first save');

    const again = EnvironmentRegistry.load(file);
    assert.deepEqual(again.list().map((e) => [e.library, e.version]), [['fakelib', '1.0'], ['fakelib', '2.0']]);
    assert.deepEqual(again.pythonFor('fakelib', '2.0.0'), { argv: [v2] });
    assert.equal(again.pythonFor('fakelib', '3.0'), undefined);
    assert.deepEqual([...again.environmentMap(['fakelib']).get('fakelib')!.keys()], ['1.0', '2.0']);
    assert.equal(again.environmentMap(['numpy']).size, 0);

    const checks = await again.check();
    assert.deepEqual(checks.map((c) => c.check.ok), [true, true]);
    assert.equal(checks[1]!.check.found, '2.0.0');
    again.save();
    assert.ok(existsSync(`${file}.bak`), 'the previous file is kept');
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.schema, 'anachron-environments/1');
    assert.equal(saved.environments[0].lastCheck.ok, true);

    // Someone upgraded the library in place: the check says so.
    setFakeVersion('v2', '2.1');
    const mismatch = await checkEnvironment(again.find('fakelib', '2.0')!);
    assert.equal(mismatch.ok, false);
    assert.equal(mismatch.found, '2.1');
    assert.match(mismatch.error ?? '', /has fakelib 2\.1, not 2\.0/);
    setFakeVersion('v2', '2.0.0');

    // Registering the wrong version, or a library the interpreter lacks, fails and registers nothing.
    await assert.rejects(interpreterEnvironment('fakelib', '3.0', v1), (e: Error) => e instanceof EnvironmentError && /has fakelib 1\.0, not 3\.0/.test(e.message));
    await assert.rejects(interpreterEnvironment('otherlib', '1.0', v1), /otherlib does not import: ModuleNotFoundError/);
    await assert.rejects(interpreterEnvironment('fakelib', '1.0', join(scratch, 'nope')), /no interpreter at/);
    const broken = join(scratch, 'broken-python');
    writeFileSync(broken, '#!/bin/sh\necho "cannot start" >&2\nexit 7\n', { mode: 0o755 });
    await assert.rejects(interpreterEnvironment('fakelib', '1.0', broken), /did not answer \(exit 7\):\ncannot start/);

    assert.equal(again.remove('fakelib', '1.0')?.version, '1.0');
    assert.deepEqual(again.list().map((e) => e.version), ['2.0']);
  });

  test('a corrupt registry file: a clear error, the file untouched, a copy kept, no command overwrites it', async () => {
    const file = join(scratch, 'corrupt', 'environments.json');
    mkdirSync(join(scratch, 'corrupt'));
    const garbage = '{"schema": "anachron-environments/1", "environments": [ {"library": "numpy", "vers';
    writeFileSync(file, garbage);
    assert.throws(() => EnvironmentRegistry.load(file), (e: Error) => e instanceof RegistryError && e.message.includes(file) && /not valid/.test(e.message) && /left as it is/.test(e.message));
    assert.equal(readFileSync(file, 'utf8'), garbage);
    const copies = readdirSync(join(scratch, 'corrupt')).filter((n) => n.startsWith('environments.json.corrupt-'));
    assert.equal(copies.length, 1);
    assert.equal(readFileSync(join(scratch, 'corrupt', copies[0]!), 'utf8'), garbage);

    for (const args of [['list'], ['add', 'fakelib==1.0', '--python', fakeInterpreter('c', '1.0')], ['discover', '--cache', join(scratch, 'empty-cache')]]) {
      const r = await cli([...args, '--file', file]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /is not valid/);
    }
    assert.equal(readFileSync(file, 'utf8'), garbage, 'no command wrote over it');
    assert.equal(readdirSync(join(scratch, 'corrupt')).filter((n) => n.startsWith('environments.json.corrupt-')).length, 1, 'one copy, however often it is read');

    // Valid JSON of the wrong shape is refused the same way.
    writeFileSync(file, JSON.stringify({ schema: 'anachron-environments/1', environments: [{ library: 'numpy', version: '1.0', provider: 'interpreter', python: { argv: [] } }] }));
    assert.throws(() => EnvironmentRegistry.load(file), /python\.argv must be a non-empty array/);
  });

  test('venv: the commands (uv, or venv + pip), and a clear failure without an index', async () => {
    const dir = join(scratch, 'venv');
    const withUv = venvCommands({ dir, library: 'numpy', version: '1.24.2', uv: '/opt/uv', basePython: '/usr/bin/python3.11', indexUrl: 'https://example.org/simple' });
    assert.deepEqual(withUv.map((c) => c.argv), [
      ['/opt/uv', 'venv', '--python', '/usr/bin/python3.11', dir],
      ['/opt/uv', 'pip', 'install', '--python', join(dir, 'bin', 'python'), '--index-url', 'https://example.org/simple', 'numpy==1.24.2'],
    ]);
    const withPip = venvCommands({ dir, library: 'numpy', version: '1.24.2', uv: null });
    assert.deepEqual(withPip[0]!.argv, ['python3', '-m', 'venv', dir]);
    assert.equal(withPip[1]!.argv[0], join(dir, 'bin', 'python'));
    assert.deepEqual(withPip[1]!.argv.slice(1, 4), ['-m', 'pip', 'install']);
    assert.equal(withPip[1]!.argv.at(-1), 'numpy==1.24.2');

    await assert.rejects(venvEnvironment({ dir: join(scratch, 'not-a-venv'), library: 'numpy', version: '1.24.2' }), /is not a virtual environment .*--create/);
    const lines: string[] = [];
    // The index is asked what the release declares before anything is made: nothing is left behind.
    await assert.rejects(
      venvEnvironment({ dir, library: 'anachron-no-such-distribution', version: '1.0', create: true, uv: null, basePython: PYTHON, indexUrl: 'http://127.0.0.1:9/simple', onOutput: (l) => lines.push(l), timeoutMs: 120_000 }),
      (e: Error) => e instanceof EnvironmentError && /pip cannot find anachron-no-such-distribution==1\.0 on http:\/\/127\.0\.0\.1:9\/simple .*no package index reachable/.test(e.message),
    );
    assert.ok(lines.some((l) => l.includes('asking the package index')), lines.join('\n'));
    assert.equal(existsSync(dir), false);
  });

  test('Debian roots: discovered from the cache folder, probed once, dropped when gone', async () => {
    const cache = join(scratch, 'debian-cache');
    const makeRoot = (name: string, suite: string, ownVersion: string, debVersion: string) => {
      const root = join(cache, name);
      const site = join(root, 'usr', 'lib', 'python3', 'dist-packages');
      mkdirSync(join(site, 'fakelib'), { recursive: true });
      writeFileSync(join(site, 'fakelib', '__init__.py'), `__version__ = "${ownVersion}"\n`);
      writeFileSync(join(root, 'run-python'), `#!/bin/sh\nPYTHONPATH="${site}" exec ${PYTHON} "$@"\n`, { mode: 0o755 });
      writeFileSync(join(root, '.anachron-complete'), `python3\npython3-fakelib\npython3-setuptools\n\nsuite=${suite}\npython=3.x\ndeb=libc6 2.36-9 amd64\ndeb=python3-fakelib ${debVersion} amd64\n`);
      return root;
    };
    const old = makeRoot('bullseye-0123456789ab', 'bullseye', '1.7.0a0', '1.7.1-7');
    const fresh = makeRoot('sid-0123456789ab', 'sid', '2.0', '1:2.0+dfsg-1');
    mkdirSync(join(cache, 'apt')); // the script's apt folder, not a root
    mkdirSync(join(cache, 'trixie-ffffffffffff')); // unfinished: no stamp

    const file = join(scratch, 'discover', 'environments.json');
    const registry = EnvironmentRegistry.load(file);
    const first = await discoverDebianEnvironments(registry, { cache });
    assert.deepEqual(first.added.map((e) => [e.library, e.version, e.reportedVersion, e.debian?.suite]), [
      ['fakelib', '1.7.1', '1.7.0a0', 'bullseye'],
      ['fakelib', '2.0', undefined, 'sid'],
    ]);
    assert.equal(first.probed.length, 2);
    assert.ok(first.skipped.some((s) => s.root.endsWith('trixie-ffffffffffff')));
    assert.deepEqual(registry.pythonFor('fakelib', '1.7.1'), { argv: [join(old, 'run-python')] });
    assert.equal(registry.find('fakelib', '1.7.0a0')?.version, '1.7.1', 'found by the version it reports, too');
    assert.equal(registry.find('fakelib', '1.7.1')?.debian?.debianVersion, '1.7.1-7');
    registry.save();

    // The probes are cached in the registry file: nothing is run again while the stamps are unchanged.
    const reloaded = EnvironmentRegistry.load(file);
    const second = await discoverDebianEnvironments(reloaded, { cache });
    assert.deepEqual(second.probed, []);
    assert.equal(second.added.length, 2);
    const checks = await reloaded.check({ library: 'fakelib' });
    assert.deepEqual(checks.map((c) => c.check.ok), [true, true], JSON.stringify(checks));

    // An entry added by hand is not replaced by discovery.
    reloaded.put({ ...(await interpreterEnvironment('fakelib', '2.0', join(fresh, 'run-python'))) });
    const third = await discoverDebianEnvironments(reloaded, { cache });
    assert.ok(third.skipped.some((s) => s.version === '2.0' && /already registered \(interpreter/.test(s.reason)));
    assert.equal(reloaded.find('fakelib', '2.0')?.provider, 'interpreter');

    // A rebuilt root (new stamp) is probed again; a removed one takes its entries with it.
    writeFileSync(join(old, '.anachron-complete'), readFileSync(join(old, '.anachron-complete'), 'utf8') + 'deb=zlib1g 1.2 amd64\n');
    rmSync(fresh, { recursive: true });
    reloaded.remove('fakelib', '2.0');
    reloaded.put({ ...first.added[1]! });
    const fourth = await discoverDebianEnvironments(reloaded, { cache });
    assert.deepEqual(fourth.probed, [old]);
    assert.deepEqual(fourth.removed.map((e) => e.version), ['2.0']);
    assert.deepEqual(reloaded.list().map((e) => e.version), ['1.7.1']);
    assert.deepEqual(reloaded.debianProbeRoots(), [old]);
    const gone = await checkEnvironment(first.added[1]!);
    assert.match(gone.error ?? '', /is gone/);
  });

  test('anachron env list|add|check|remove|discover', async () => {
    const file = join(scratch, 'cli', 'environments.json');
    const v1 = fakeInterpreter('cli1', '1.0');
    const empty = await cli(['list', '--file', file]);
    assert.equal(empty.code, 0);
    assert.match(empty.stdout, /no environments registered/);

    const add = await cli(['add', 'fakelib==1.0', '--python', v1, '--file', file]);
    assert.equal(add.code, 0, add.stderr);
    assert.match(add.stdout, /^added fakelib 1\.0 \(interpreter, python 3\.\d+\.\d+\): /);
    const wrong = await cli(['add', 'fakelib==9.9', '--python', v1, '--file', file]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /has fakelib 1\.0, not 9\.9; nothing was registered/);
    assert.equal((await cli(['add', 'fakelib', '--python', v1, '--file', file])).code, 2);
    assert.equal((await cli(['add', 'fakelib==1.0', '--file', file])).code, 2);
    assert.equal((await cli(['add', 'fakelib==1.0', '--python', v1, '--debian', 'sid', '--file', file])).code, 2);

    const list = await cli(['list', '--file', file]);
    assert.match(list.stdout, /^library\s+version\s+provider\s+python\s+check\s+command\n/);
    assert.match(list.stdout, /fakelib\s+1\.0\s+interpreter\s+3\.\d+\.\d+\s+ok \d{4}-\d\d-\d\d\s+\S+python-cli1/);
    const json = JSON.parse((await cli(['list', '--json', '--file', file])).stdout);
    assert.equal(json[0].library, 'fakelib');
    assert.deepEqual(json[0].python, { argv: [v1] });

    const ok = await cli(['check', 'fakelib==1.0', '--file', file]);
    assert.equal(ok.code, 0);
    assert.match(ok.stdout, /^ok\s+fakelib 1\.0\s+1\.0 in python 3\./);
    setFakeVersion('cli1', '1.1');
    const bad = await cli(['check', '--file', file]);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /FAILED\s+fakelib 1\.0\s+.*has fakelib 1\.1, not 1\.0/);
    assert.match((await cli(['list', '--file', file])).stdout, /FAILED/);
    assert.equal((await cli(['check', 'numpy', '--file', file])).code, 2);

    const discover = await cli(['discover', '--cache', join(scratch, 'no-cache-here'), '--file', file]);
    assert.equal(discover.code, 0);
    assert.match(discover.stdout, /0 environment\(s\)/);
    assert.equal((await cli(['remove', 'fakelib==1.0', '--file', file])).code, 0);
    assert.equal((await cli(['remove', 'fakelib==1.0', '--file', file])).code, 2);
    assert.deepEqual(JSON.parse((await cli(['list', '--json', '--file', file])).stdout), []);
    assert.equal((await cli(['frobnicate', '--file', file])).code, 2);
    assert.equal((await cli(['--help'])).code, 0);
  });
});
