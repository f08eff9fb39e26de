// The runtime probe runs inside each release's venv, on the Python of the release's time (networkx 2.0 on 3.6,
// 2.2-2.3 on 3.7): what it parses must not need a newer ast (3.8's posonlyargs). Runs with every pyenv Python
// older than 3.8 the machine has; skipped where it has none.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { writePackage } from './support/project.js';

const PROBE = join(__dirname, '..', 'python-probe');
const versions = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
const old = existsSync(versions) ? readdirSync(versions).filter((v) => /^3\.[67]\.\d+$/.test(v)).map((v) => join(versions, v, 'bin', 'python3')).filter(existsSync) : [];

describe('the probe on Pythons before 3.8', () => {
  test('a docstring signature is read (the runtime probe reads them in every module it walks)', { skip: old.length === 0 ? 'no Python 3.6 or 3.7 here' : false }, () => {
    for (const python of old) {
      const code = 'import json\nfrom anachron_probe.signatures import docstring_signature\nprint(json.dumps(docstring_signature("read_graphml(path, node_type=str, *args)\\n\\nRead a graph.")))';
      const r = spawnSync(python, ['-c', code], { cwd: PROBE, encoding: 'utf8' });
      assert.equal(r.status, 0, `${python}: ${r.stderr}`);
      const sig = JSON.parse(r.stdout) as { parameters: { name: string; kind: string }[] };
      assert.deepEqual(sig.parameters.map((p) => `${p.kind}:${p.name}`), ['positional_or_keyword:path', 'positional_or_keyword:node_type', 'var_positional:args'], python);
    }
  });

  test('the runtime probe walks a library with classes and docstring signatures, with no error', { skip: old.length === 0 ? 'no Python 3.6 or 3.7 here' : false }, () => {
    const root = writePackage('oldlib', `\
class Graph(object):
    @classmethod
    def from_edges(cls, edges):
        return cls()
    def add_edge(self, u, v, **attr):
        pass

def read(*args):
    """read(path, node_type=str, *args)

    Read a graph."""
`, 'anachron-old-pythons-');
    try {
      for (const python of old) {
        const r = spawnSync(python, [join(PROBE, 'probe.py'), 'oldlib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root, PYTHONDONTWRITEBYTECODE: '1' } });
        assert.equal(r.status, 0, `${python}: ${r.stderr}`);
        const s = JSON.parse(r.stdout) as { errors: unknown[]; apis: { path: string; signature: { parameters: { name: string }[] } | null }[] };
        assert.deepEqual(s.errors, [], python);
        const names = (p: string) => s.apis.find((a) => a.path === p)?.signature?.parameters.map((x) => x.name).join(',');
        assert.equal(names('oldlib.Graph.from_edges'), 'edges', python);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
