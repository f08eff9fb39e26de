// Seeded generators of hostile projects for test/hostile/generated.test.ts: manifests of every format built from
// pieces an attacker or a broken tool would write (includes of devices, of the process's environment, of files
// outside the project and of themselves; FIFOs; symlink loops; specifiers that allow nothing or are no PEP 440;
// control characters, lone CRs, NULs; deep nesting; long lines) and Python code of pathological shapes (deep
// nesting, long attribute chains, syntax errors). Deterministic for a seed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface HostileCase {
  /** The project's folder. */
  dir: string;
  /** The Python file whose pins are read (it exists unless the case is about a missing one). */
  file: string;
  /** What was generated, in words, to name a failing case. */
  recipe: string[];
}

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, max: number) => Math.floor(random() * max);

/** Lines a requirements file (or a conda pip list) may hold; `outside` is a file outside the project holding a secret. */
function requirementLine(random: Random, outside: string): string {
  const name = pick(random, ['numpy', 'scipy', 'pandas', 'NumPy', 'numpy[extra]', 'a'.repeat(int(random, 3000) + 1), '', '-', 'numpy\u0000', 'ñumpy']);
  const version = pick(random, ['1.24.2', 'v1.24.2', '0!1.24.2', '1.24.2+local', '1!2', '', '9'.repeat(int(random, 400) + 1), '1.*', '2.0rc1', '1..2', '\u001b[2J']);
  return pick(random, [
    () => `${name}==${version}`,
    () => `${name}>=2.0,<1.0`,
    () => `${name}<0`,
    () => `${name}~=${version}`,
    () => `${name}==${version}; python_version < "3.12"`,
    () => `${name}==${version} ; python_version >= "3.12" and sys_platform == "${'x'.repeat(int(random, 200))}"`,
    () => `${name} @ https://example.invalid/${name}.whl`,
    () => `-r ${pick(random, ['/dev/zero', '/dev/urandom', '/proc/self/environ', '/proc/self/mem', '/etc/shadow', outside, '../../../../../../../etc/passwd', 'fifo.txt', 'requirements.txt', 'missing.txt', 'loop/loop/loop/r.txt', 'chain0.txt', ''])}`,
    () => `-c ${pick(random, ['constraints.txt', '/dev/zero', outside, 'fifo.txt'])}`,
    () => `--requirement=${pick(random, ['chain0.txt', 'linked.txt', '/proc/self/cmdline'])}`,
    () => `-e ./${name}`,
    () => `# ${'\u0000\u0007\u001b'.repeat(int(random, 50))}`,
    () => `${name}==${version} \\`,
    () => `${'\t \u00a0'.repeat(int(random, 5))}${name}`,
    () => String.fromCharCode(...Array.from({ length: int(random, 80) }, () => int(random, 0x3000))),
  ])();
}

function tomlText(random: Random): string {
  return pick(random, [
    () => `[project\nname = "x"\ndependencies = ["numpy==1.24.2"]\n`,
    () => `[project]\nname = "x"\ndependencies = [${Array.from({ length: int(random, 20) }, () => `"${pick(random, ['numpy==1.24.2', 'numpy>=2,<1', 'numpy==v1.2', 'x'.repeat(300)])}"`).join(', ')}]\nrequires-python = "${pick(random, ['>=3.8', '>=4', '3.x', ''])}"\n`,
    () => `[project]\ndependencies = ["numpy==1.24.2"]\nx = ${'['.repeat(int(random, 3000) + 1)}${']'.repeat(int(random, 3000) + 1)}\n`,
    () => `[tool.anachron]\nassume = { numpy = "${pick(random, ['1.24.2', 'v1', '', '\u0000'])}" }\nprecedence = ${pick(random, ['["lock"]', '"x"', '[1, 2]', '{}'])}\n`,
    () => `[tool.poetry.dependencies]\npython = "^3.9"\nnumpy = "${pick(random, ['^1.24', '~1.2', '*', '>=2,<1', '^', ''])}"\n`,
    () => `[dependency-groups]\na = [{include-group = "b"}]\nb = [{include-group = "a"}, "numpy==1.24.2"]\n`,
    () => `[project]\r\nname = "x"\rdependencies = ["numpy==1.24.2"]\r`,
  ])();
}

function lockText(random: Random): string {
  const n = int(random, 30);
  return Array.from({ length: n }, (_, i) => `[[package]]\nname = "${pick(random, ['numpy', 'scipy', `p${i}`, ''])}"\nversion = "${pick(random, ['1.24.2', 'v1.24.2', '', 'x.y'])}"\n`).join('\n') + (random() < 0.3 ? `x = ${'{a = '.repeat(int(random, 12_000))}1${'}'.repeat(int(random, 12_000))}\n` : '');
}

function pipfileLockText(random: Random): string {
  const entry = () => `"${pick(random, ['numpy', 'scipy', '', 'x'.repeat(300)])}": {"version": "${pick(random, ['==1.24.2', '==v1.24.2', '>=2,<1', '', '\\u0000'])}"}`;
  const deep = random() < 0.3 ? `, "x": ${'['.repeat(int(random, 12_000))}${']'.repeat(int(random, 12_000))}` : '';
  return `{"default": {${Array.from({ length: int(random, 10) }, entry).join(', ')}}${deep}${random() < 0.2 ? ',' : '}'}`;
}

function condaText(random: Random, outside: string): string {
  const deps = Array.from({ length: int(random, 8) }, () => pick(random, ['numpy=1.24', 'numpy>=2,<1', 'python=3.11', 'scipy=*', 'numpy 1.24.*']));
  const pip = random() < 0.6 ? `  - pip:\n${Array.from({ length: int(random, 5) + 1 }, () => `    - ${requirementLine(random, outside)}`).join('\n')}\n` : '';
  const deep = random() < 0.2 ? `nested: ${'['.repeat(int(random, 12_000))}${']'.repeat(int(random, 12_000))}\n` : '';
  return `name: env\ndependencies:\n${deps.map((d) => `  - ${d}`).join('\n')}\n${pip}${deep}${random() < 0.2 ? 'a: &a [*a]\n' : ''}`;
}

function setupCfgText(random: Random): string {
  return `[metadata]\nname = x\n\n[options]\ninstall_requires = ${pick(random, ['file: requirements.txt', 'file: /dev/zero', 'file: /proc/self/environ', 'file: ../../../../etc/shadow', 'numpy==1.24.2', 'file: chain0.txt'])}\n`;
}

/** Python code of a pathological shape (each bounded so one case stays small on disk). */
export function hostileCode(random: Random): string {
  const depth = int(random, 4000) + 1;
  return pick(random, [
    () => `import numpy as np\ny = ${'np.sum('.repeat(depth)}1${')'.repeat(depth)}\n`,
    () => `import numpy as np\ny = np.${Array(depth).fill(pick(random, ['a', 'linalg', 'trapezoid'])).join('.')}\n`,
    () => `import numpy as np\n${'if x:\n'.split('\n')[0]}${Array.from({ length: Math.min(depth, 90) }, (_, i) => `${' '.repeat(i)}if x:`).join('\n')}\n${' '.repeat(Math.min(depth, 90))}np.trapezoid([1])\n`,
    () => `import numpy as np\nx = ${'['.repeat(depth)}${']'.repeat(depth)}\nnp.trapezoid([1])\n`,
    () => `import numpy as np\r\rnp.trapezoid([1])\r`,
    () => `import numpy as np\n${'np.trapezoid(\n'.repeat(int(random, 200))}`,
    () => `from numpy import ${Array.from({ length: int(random, 2000) + 1 }, (_, i) => `n${i}`).join(', ')}\n`,
    () => `import numpy as np\ns = "${'\u0000\u001b'.repeat(int(random, 100))}"\nnp.unique([1], equal_nan=True)\n`,
    () => `\ufeffimport numpy as np\nlambda: ${'lambda: '.repeat(Math.min(depth, 500))}np.trapezoid\n`,
  ])();
}

function mkfifo(path: string): void {
  spawnSync('mkfifo', [path]);
}

/** A hostile project under `dir` (which must not exist yet). `outside` holds a secret no result may quote. */
export function hostileProject(random: Random, dir: string, outside: string): HostileCase {
  const recipe: string[] = [];
  mkdirSync(join(dir, 'pkg'), { recursive: true });
  const file = join(dir, 'pkg', 'a.py');
  const where = random() < 0.5 ? dir : join(dir, 'pkg');
  const formats = ['requirements.txt', 'pyproject.toml', 'setup.cfg', 'environment.yml', 'poetry.lock', 'uv.lock', 'Pipfile', 'Pipfile.lock', '.python-version', 'constraints.txt'];
  for (const name of formats) {
    if (random() < 0.55) continue;
    const path = join(where, name);
    const kind = random();
    if (kind < 0.08) {
      mkfifo(path);
      recipe.push(`${name}: FIFO`);
      continue;
    }
    if (kind < 0.14) {
      symlinkSync(pick(random, ['/dev/zero', '/proc/self/environ', outside, name]), path);
      recipe.push(`${name}: symlink`);
      continue;
    }
    let text: string;
    if (name === 'requirements.txt' || name === 'constraints.txt') text = Array.from({ length: int(random, 40) + 1 }, () => requirementLine(random, outside)).join(pick(random, ['\n', '\r\n', '\r']));
    else if (name === 'pyproject.toml') text = tomlText(random);
    else if (name === 'setup.cfg') text = setupCfgText(random);
    else if (name === 'environment.yml') text = condaText(random, outside);
    else if (name === 'poetry.lock' || name === 'uv.lock') text = lockText(random);
    else if (name === 'Pipfile.lock') text = pipfileLockText(random);
    else if (name === 'Pipfile') text = `[packages]\nnumpy = "${pick(random, ['==1.24.2', '>=2,<1', '*', '==v1', ''])}"\n`;
    else text = pick(random, ['3.11', '3.x', 'pypy3.9', '\u0000', 'system', '9'.repeat(500)]);
    writeFileSync(path, text);
    recipe.push(`${name}: ${text.length} chars`);
  }
  // Helpers the includes may name: a FIFO, a link back, a chain of includes, a symlink loop.
  mkfifo(join(where, 'fifo.txt'));
  symlinkSync(outside, join(where, 'linked.txt'));
  const chain = int(random, 80);
  for (let i = 0; i < chain; i++) writeFileSync(join(where, `chain${i}.txt`), `scipy==1.${i}.0\n-r chain${i + 1}.txt\n`);
  mkdirSync(join(where, 'loop'), { recursive: true });
  symlinkSync('..', join(where, 'loop', 'loop'));
  recipe.push(`chain of ${chain}`);
  if (random() < 0.9) writeFileSync(file, hostileCode(random));
  return { dir, file, recipe };
}
