// Gated (ANACHRON_GATED=1): registers Debian bookworm's and sid's numpy through the Debian provider (builds the roots
// with scripts/debian-python.sh when they are not in ${ANACHRON_ENV_CACHE:-~/.cache/anachron/debian}: needs the Debian
// mirror, ~100 MB each) and runs the same samples in both sandboxed: numpy 1.24.2 has np.trapz and not np.trapezoid,
// numpy 2.4.6 the other way round; a deprecated alias is a soft-fail where it still exists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { debianEnvironment } from '../../server/src/environments/providers.js';
import { executeSample } from '../../server/src/environments/sandbox.js';

const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = GATED ? false : 'set ANACHRON_GATED=1 to run samples in Debian bookworm and sid numpy environments';

const HARNESS = 'import numpy as np\ndef check(candidate):\n    assert abs(float(candidate([0.0, 1.0, 2.0])) - 2.0) < 1e-9\n';

test('one sample, two Debian numpy environments', { skip: SKIP, timeout: 30 * 60_000 }, async () => {
  const old = await debianEnvironment('numpy', '1.24.2', 'bookworm', { onOutput: (l) => process.stderr.write(`  ${l}\n`) });
  const current = await debianEnvironment('numpy', '2.4.6', 'sid', { onOutput: (l) => process.stderr.write(`  ${l}\n`) });
  assert.equal(old.pythonVersion, '3.11.2');
  assert.match(current.pythonVersion ?? '', /^3\.14/);

  const run = (python: typeof old.python, code: string) => executeSample({ python, code, harness: HARNESS, entryPoint: 'area', library: 'numpy' });
  const trapz = 'import numpy as np\ndef area(y):\n    return np.trapz(y)\n';
  const trapezoid = 'import numpy as np\ndef area(y):\n    return np.trapezoid(y)\n';

  const a = await run(old.python, trapz);
  assert.equal(a.outcome, 'pass', JSON.stringify(a));
  assert.equal(a.python, '3.11.2');
  const b = await run(current.python, trapz);
  assert.equal(b.outcome, 'hard-fail');
  assert.equal(b.errorType, 'AttributeError');
  assert.match(b.message ?? '', /trapz/);
  const c = await run(old.python, trapezoid);
  assert.equal(c.errorType, 'AttributeError');
  const d = await run(current.python, trapezoid);
  assert.equal(d.outcome, 'pass', JSON.stringify(d));

  // np.bool8: a deprecated alias in 1.24 (soft-fail), gone in 2.x (hard-fail).
  const bool8 = 'import numpy as np\ndef area(y):\n    return float(np.bool8(True)) * 2.0\n';
  const e = await run(old.python, bool8);
  assert.equal(e.outcome, 'soft-fail', JSON.stringify(e));
  assert.equal(e.warnings[0]?.category, 'DeprecationWarning');
  assert.equal(e.warnings[0]?.fromLibrary, true);
  assert.equal((await run(current.python, bool8)).errorType, 'AttributeError');

  for (const r of [a, b, c, d, e]) {
    assert.ok(r.isolation.includes('bubblewrap') && r.isolation.includes('audit-hook') && r.isolation.includes('rlimits'), r.isolation.join(','));
    assert.ok(r.durationMs < 30_000);
  }
});
