// Gated (ANACHRON_GATED=1): builds Debian bookworm's python3 + python3-numpy with scripts/debian-python.sh (needs the
// Debian mirror, ~100 MB in ${ANACHRON_ENV_CACHE:-~/.cache/anachron/debian}) and probes the real numpy 1.24.2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const REPO_ROOT = join(__dirname, '..', '..');
const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = GATED ? false : 'set ANACHRON_GATED=1 to build a Debian bookworm environment and probe real numpy';

interface Param { name: string; kind: string; default: string | null }
interface Api {
  path: string; kind: string; defined_in: string;
  signature: { parameters: Param[]; returns: string | null; source: string } | null; doc: string | null;
}
interface Surface {
  schema: string; library: string; version: string; python: string; provenance: Record<string, string>;
  apis: Api[]; stats: { apis: number; callables: number; callables_with_signature: number };
}

test('probe of Debian bookworm numpy 1.24.2', { skip: SKIP, timeout: 20 * 60_000 }, () => {
  const env = spawnSync('bash', [join(REPO_ROOT, 'scripts', 'debian-python.sh'), 'bookworm', 'python3-numpy'], {
    cwd: REPO_ROOT, encoding: 'utf8', timeout: 15 * 60_000,
  });
  assert.equal(env.status, 0, env.stderr);
  const python = env.stdout.trim().split('\n').pop() ?? '';
  assert.match(python, /run-python$/);

  const run = () => spawnSync(python, [join(REPO_ROOT, 'python-probe', 'probe.py'), 'numpy', '--provenance', 'debian_suite=bookworm'], {
    cwd: REPO_ROOT, encoding: 'utf8', timeout: 5 * 60_000, maxBuffer: 256 * 1024 * 1024,
  });
  const r = run();
  assert.equal(r.status, 0, r.stderr);
  const s = JSON.parse(r.stdout) as Surface;
  assert.equal(s.schema, 'anachron-surface/1');
  assert.equal(s.library, 'numpy');
  assert.equal(s.version, '1.24.2');
  assert.equal(s.python, '3.11.2');
  assert.deepEqual(s.provenance, { debian_suite: 'bookworm' });
  assert.ok(s.stats.apis >= 1500, `only ${s.stats.apis} APIs`);
  assert.equal(s.stats.apis, s.apis.length);
  const coverage = s.stats.callables_with_signature / s.stats.callables;
  assert.ok(coverage >= 0.85, `only ${(100 * coverage).toFixed(1)}% of callables have a signature`);

  const byPath = new Map(s.apis.map((a) => [a.path, a]));
  assert.equal(byPath.has('numpy.trapezoid'), false, 'numpy.trapezoid is new in numpy 2.0');
  assert.equal(byPath.get('numpy.trapz')?.kind, 'function');
  assert.equal(byPath.get('numpy.float_')?.kind, 'class');
  assert.equal(byPath.get('numpy.fft')?.kind, 'module');

  const add = byPath.get('numpy.add');
  assert.equal(add?.kind, 'function');
  const addParams = new Map((add?.signature?.parameters ?? []).map((p) => [p.name, p]));
  assert.equal(addParams.get('where')?.kind, 'keyword_only');
  assert.equal(addParams.get('dtype')?.kind, 'keyword_only');
  assert.equal(addParams.get('x1')?.kind, 'positional_only');

  const integers = byPath.get('numpy.random.Generator.integers');
  assert.equal(integers?.kind, 'method');
  const endpoint = integers?.signature?.parameters.find((p) => p.name === 'endpoint');
  assert.ok(endpoint, 'Generator.integers has an endpoint parameter');
  assert.equal(endpoint.default, 'False');
  assert.equal(integers?.signature?.parameters[0]?.name, 'low', 'self is not part of a method signature');

  // Deterministic: a second run gives the same bytes.
  const again = run();
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stdout, r.stdout);
});
