// Gated (ANACHRON_GATED=1): every checked fact of Python's history (test/fixtures/facts/python.tsv) asked of the real
// interpreters this machine has: pyenv builds (${PYENV_ROOT:-~/.pyenv}/versions/3.M.*) and the Debian roots of
// scripts/debian-python.sh (${ANACHRON_ENV_CACHE:-~/.cache/anachron/debian}), each at its own minor. A fact is
// checked at the minor it names and the one before, wherever the machine has an interpreter of that minor: the name
// must resolve (import + getattr, deprecation warnings ignored) exactly where the fact says, and a keyword must be in
// inspect.signature where that can read the callable.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { appears, previousMinor, readPythonFacts } from '../support/python-facts.js';

const GATED = process.env.ANACHRON_GATED === '1';
const SKIP = GATED ? false : 'set ANACHRON_GATED=1 to ask the facts of the real interpreters on this machine';

/** minor -> interpreter commands (several per minor where both pyenv and Debian have one). */
function interpreters(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (command: string) => {
    try {
      const minor = execFileSync(command, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8', timeout: 30_000 }).trim();
      out.set(minor, [...(out.get(minor) ?? []), command]);
    } catch {
      // not runnable here
    }
  };
  const pyenv = join(process.env.PYENV_ROOT ?? join(homedir(), '.pyenv'), 'versions');
  if (existsSync(pyenv)) for (const v of readdirSync(pyenv)) if (/^3\.\d+\.\d+$/.test(v)) add(join(pyenv, v, 'bin', 'python3'));
  const debian = process.env.ANACHRON_ENV_CACHE ?? join(homedir(), '.cache', 'anachron', 'debian');
  if (existsSync(debian)) for (const d of readdirSync(debian)) if (existsSync(join(debian, d, 'run-python'))) add(join(debian, d, 'run-python'));
  return out;
}

const DEBIAN_SPLIT = ['distutils', 'lib2to3', 'tkinter', 'venv', 'ensurepip'];

/** Asks one interpreter about every fact: [present (null: cannot tell), keyword accepted or null when inspect cannot tell]. */
const ASK = `
import importlib, inspect, json, sys, warnings
warnings.simplefilter("ignore")
# Debian ships these in packages of their own (python3-distutils, python3-lib2to3, python3-tk, python3-venv): a
# root without them cannot say whether the minor has them.
split = set(json.loads(sys.argv[2]))
out = []
for api, keyword in json.loads(sys.argv[1]):
    parts = api.split(".")
    obj, found = None, False
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            if i == 1 and parts[0] in split:
                found = None
            continue
        except Exception:
            continue
        try:
            for name in parts[i:]:
                obj = getattr(obj, name)
            found = True
        except AttributeError:
            found = False
        break
    takes = None
    if found and keyword:
        try:
            ps = inspect.signature(obj).parameters.values()
            takes = any(p.kind == p.VAR_KEYWORD or (p.name == keyword and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)) for p in ps)
        except (TypeError, ValueError):
            takes = None
    out.append([found, takes])
print(json.dumps(out))
`;

test('the facts hold in the real interpreters of every minor this machine has', { skip: SKIP, timeout: 10 * 60_000 }, () => {
  const facts = readPythonFacts();
  const byMinor = interpreters();
  assert.ok(byMinor.size > 0, 'no Python interpreter found (pyenv or Debian roots)');
  const query = JSON.stringify(facts.map((f) => [f.api, f.parameter]));
  const answers = new Map<string, [boolean | null, boolean | null][]>();
  for (const [minor, commands] of byMinor) {
    for (const command of commands) {
      const split = command.endsWith('run-python') ? DEBIAN_SPLIT : [];
      answers.set(`${minor} ${command}`, JSON.parse(execFileSync(command, ['-I', '-c', ASK, query, JSON.stringify(split)], { encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 24 })));
    }
  }
  let checked = 0;
  const wrong: string[] = [];
  facts.forEach((fact, i) => {
    for (const [key, answer] of answers) {
      const minor = key.split(' ')[0]!;
      const after = minor === fact.version;
      if (!after && minor !== previousMinor(fact.version)) continue;
      const [found, takes] = answer[i]!;
      const holds = found === null ? null : fact.parameter ? (found ? takes : false) : found;
      if (holds === null) continue; // inspect cannot read this callable here
      checked++;
      if (holds !== (after ? appears(fact) : !appears(fact))) wrong.push(`${fact.api}${fact.parameter ? `(${fact.parameter}=)` : ''} ${fact.change} in ${fact.version}: ${holds ? 'holds' : 'does not hold'} at ${key}`);
    }
  });
  process.stderr.write(`  ${checked} (fact, interpreter) checks on ${[...answers.keys()].join('; ')}\n`);
  assert.deepEqual(wrong, []);
});
