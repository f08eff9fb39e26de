// Reading an interpreter's installed distributions: a real interpreter with a small distribution written here.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { installedPins, readInstalledVersions } from '../server/src/environments/installed-versions.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';

describe('installed versions', () => {
  test('reads the distributions an interpreter sees, with normalised names', async () => {
    const root = mkdtempSync(join(tmpdir(), 'anachron-installed-'));
    const site = join(root, 'site');
    mkdirSync(join(site, 'Toy_Lib-2.5.1.dist-info'), { recursive: true });
    writeFileSync(join(site, 'Toy_Lib-2.5.1.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: Toy_Lib\nVersion: 2.5.1\n');
    const wrapper = join(root, 'python');
    writeFileSync(wrapper, `#!/bin/sh\nPYTHONPATH="${site}" exec ${PYTHON} "$@"\n`);
    chmodSync(wrapper, 0o755);
    const versions = await readInstalledVersions(wrapper);
    assert.equal(versions.get('toy-lib'), '2.5.1');
    const [pin] = installedPins(new Map([['toy-lib', '2.5.1']]), wrapper);
    assert.deepEqual({ ...pin, origin: pin!.origin.file.startsWith('interpreter ') }, { distribution: 'toy-lib', kind: 'installed', specifier: '==2.5.1', exactVersion: '2.5.1', origin: true });
  });

  test('a missing interpreter is a clear error', async () => {
    await assert.rejects(readInstalledVersions('/nonexistent/python3'), /cannot read installed packages with \/nonexistent\/python3/);
  });
});
