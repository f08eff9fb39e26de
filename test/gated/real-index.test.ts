// Gated (ANACHRON_GATED=1, and the package index this machine's pip is configured for must answer): version columns
// of real releases fetched through that configuration (pip.conf, PIP_INDEX_URL, netrc… as they are here) into a
// store of the test's own, then real code checked with them: requests 2.31.0, attrs 23.1.0, pandas 1.5.3 and 2.0.3
// (DataFrame.append was removed in 2.0, DataFrame.map added in 2.1).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCliAsync } from '../support/cli.js';

const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = GATED ? false : 'set ANACHRON_GATED=1 to fetch real releases from the package index pip is configured for';

describe('real releases from the configured package index', { skip: SKIP, timeout: 30 * 60_000 }, () => {
  // ANACHRON_REAL_INDEX_HOME keeps the downloads and columns between runs (a column made before is not made again).
  const kept = process.env.ANACHRON_REAL_INDEX_HOME;
  const home = kept ?? mkdtempSync(join(tmpdir(), 'anachron-real-index-'));
  const env = { ANACHRON_USER_MATRICES: join(home, 'matrices'), ANACHRON_CACHE: join(home, 'cache'), ANACHRON_OFFLINE: '' };
  const projects: string[] = [];
  after(() => {
    for (const p of projects) rmSync(p, { recursive: true, force: true });
    if (!kept) rmSync(home, { recursive: true, force: true });
  });

  test('fetch requests, attrs and two pandas releases, then check real code at each pin', async (t) => {
    const fetched = await runCliAsync(['matrix', 'fetch', 'requests==2.31.0', 'attrs==23.1.0', 'pandas==1.5.3', 'pandas==2.0.3', '--no-newest'], undefined, env);
    if (fetched.code !== 0 && /unreachable|no answer|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/.test(fetched.stderr)) return t.skip(`the configured index does not answer: ${fetched.stderr.split('\n').find((l) => /anachron: /.test(l))}`);
    assert.equal(fetched.code, 0, fetched.stderr);
    for (const column of ['requests 2.31.0', 'attrs 23.1.0', 'pandas 1.5.3', 'pandas 2.0.3']) assert.match(fetched.stdout, new RegExp(`^${column}: `, 'm'));
    // attrs 23 ships two packages, `attrs` re-exporting `attr`'s names (some from attr._next_gen): both are columns,
    // `attrs`'s names read through `attr` from the same wheel.
    assert.match(fetched.stdout, /^attrs 23\.1\.0: attr, attrs from /m);
    assert.doesNotMatch(fetched.stderr, /left out/);

    const dir = mkdtempSync(join(tmpdir(), 'anachron-real-project-'));
    projects.push(dir);
    writeFileSync(join(dir, 'requirements.txt'), 'requests==2.31.0\nattrs==23.1.0\npandas==2.0.3\n');
    writeFileSync(
      join(dir, 'app.py'),
      [
        'import attr',
        'import attrs',
        'import pandas as pd',
        'import requests',
        '',
        '@attr.define',
        'class Point:',
        '    x: int',
        '',
        '@attrs.define(slots=True, frozen=True)',
        'class Line:',
        '    a: Point = attrs.field(factory=Point)',
        '',
        'pairs = attrs.asdict(Line(), recurse=True)',
        'r = requests.get("https://example.org", timeout=3)',
        'frame = pd.DataFrame({"a": [1]})',
        'both = frame.append(frame)',
        'mapped = frame.map(str)',
        'pd.read_csv("x.csv", dtype_backend="pyarrow")',
        '',
      ].join('\n'),
    );
    const at = async (pin: string) => {
      const r = await runCliAsync(['check', '.', '--pin', pin, '--format', 'json'], dir, env);
      const report = JSON.parse(r.stdout) as { findings: { api: string; parameter: string | null }[]; coverage: { library: string; state: string }[] };
      return { apis: report.findings.map((f) => `${f.api}${f.parameter ? `(${f.parameter}=)` : ''}`).sort(), coverage: report.coverage.map((e) => `${e.library} ${e.state}`) };
    };
    const modern = await at('pandas==2.0.3');
    assert.deepEqual(modern.coverage, ['attr checked', 'attrs checked', 'pandas checked', 'requests checked']);
    assert.ok(modern.apis.includes('pandas.DataFrame.append'), JSON.stringify(modern.apis));
    assert.ok(modern.apis.includes('pandas.DataFrame.map'), JSON.stringify(modern.apis));
    assert.ok(!modern.apis.some((a) => a.startsWith('requests') || a.startsWith('attr')), JSON.stringify(modern.apis));
    const older = await at('pandas==1.5.3');
    assert.ok(!older.apis.includes('pandas.DataFrame.append'), JSON.stringify(older.apis));
    assert.ok(older.apis.includes('pandas.read_csv(dtype_backend=)'), JSON.stringify(older.apis));
  });
});
