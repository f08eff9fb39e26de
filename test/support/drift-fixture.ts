// A tiny fake library ("fakelib") at two "versions", each a folder on PYTHONPATH for the host's /usr/bin/python3, and
// drift tasks whose natural solutions touch what changed between them:
// - 1.0.0 has trapz and old_mean; 2.0.0 renamed trapz to trapezoid (trapz stays, with a DeprecationWarning) and
//   replaced old_mean by mean. So version-1 code soft-fails (area) or hard-fails (avg) on 2.0.0, and version-2 code
//   hard-fails on 1.0.0 (AttributeError).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunConfig } from '../../server/src/eval/suites.js';
import type { DriftTask, DriftTaskSet } from '../../server/src/eval/drift/tasks.js';

export const PYTHON = process.env.ANACHRON_SANDBOX_PYTHON ?? '/usr/bin/python3';
export const VERSIONS = ['1.0.0', '2.0.0'] as const;

const V1 = `__version__ = "1.0.0"

def trapz(y):
    return sum((a + b) / 2 for a, b in zip(y, y[1:]))

def old_mean(xs):
    return sum(xs) / len(xs)
`;

const V2 = `import warnings
__version__ = "2.0.0"

def trapezoid(y):
    return sum((a + b) / 2 for a, b in zip(y, y[1:]))

def trapz(y):
    warnings.warn("trapz is deprecated, use trapezoid", DeprecationWarning, stacklevel=2)
    return trapezoid(y)

def mean(xs):
    return sum(xs) / len(xs)
`;

/** A fakelib task whose natural solution returns fakelib.BEFORE(ARGUMENT) below 2 and fakelib.AFTER(ARGUMENT) from 2 on. */
function fakeTask(entryPoint: string, argument: string, category: string, prompt: string, check: string, before: string, after: string): DriftTask {
  const solution = (versions: string, api: string) => ({ versions, code: `import fakelib\n\ndef ${entryPoint}(${argument}):\n    return fakelib.${api}(${argument})\n` });
  return { id: `fakelib/${entryPoint}`, category, prompt, entryPoint, harness: `def check(candidate):\n    ${check}\n`, solutions: [solution('<2', before), solution('>=2', after)], apis: [`fakelib.${before}`] };
}

export const FAKE_TASKS: DriftTaskSet = {
  library: 'fakelib',
  distribution: 'fakelib',
  tasks: [
    fakeTask('area', 'y', 'renamed', 'Using {library} v{version}, write area(y) that integrates the samples y with the trapezoid rule (unit spacing). Implement area(y).', 'assert abs(candidate([0, 1, 2]) - 2.0) < 1e-9', 'trapz', 'trapezoid'),
    fakeTask('avg', 'xs', 'removed', 'Using {library} v{version}, write avg(xs) returning the mean of xs. Implement avg(xs).', 'assert candidate([1, 2, 3]) == 2', 'old_mean', 'mean'),
  ],
};

export interface DriftFixture {
  dir: string;
  taskFile: string;
  environments: Map<string, Map<string, { argv: string[]; env: Record<string, string> }>>;
  /** A drift run config over the fixture (task file and environments by path). */
  config(model: 'version-aware' | 'version-oblivious', extra?: Partial<NonNullable<RunConfig['drift']>>, name?: string): RunConfig;
  /** The same config as JSON written next to the fixture; returns its path. */
  writeConfig(file: string, config: RunConfig): string;
}

export function makeDriftFixture(): DriftFixture {
  const dir = mkdtempSync(join(tmpdir(), 'anachron-drift-'));
  for (const [version, source] of [['1.0.0', V1], ['2.0.0', V2]] as const) {
    mkdirSync(join(dir, `v${version}`, 'fakelib'), { recursive: true });
    writeFileSync(join(dir, `v${version}`, 'fakelib', '__init__.py'), source);
  }
  const taskFile = join(dir, 'fakelib.json');
  writeFileSync(taskFile, JSON.stringify(FAKE_TASKS, null, 2));
  const env = (v: string) => ({ argv: [PYTHON], env: { PYTHONPATH: join(dir, `v${v}`) } });
  const environments = new Map([['fakelib', new Map(VERSIONS.map((v) => [v, env(v)] as const))]]);
  return {
    dir,
    taskFile,
    environments,
    config: (model, extra = {}, name) => ({
      name: name ?? `fakelib ${model}`,
      suite: 'drift',
      libraries: ['fakelib'],
      versions: { fakelib: [...VERSIONS] },
      tasks: [],
      levels: [],
      model: { provider: 'builtin', model, temperature: 0.8, maxTokens: 1024 },
      seed: 1,
      concurrency: 4,
      drift: {
        taskFiles: [taskFile],
        samplesPerPrompt: 2,
        timeoutMs: 15_000,
        repairRounds: 2,
        executionConcurrency: 4,
        environments: { fakelib: Object.fromEntries(VERSIONS.map((v) => [v, env(v)])) },
        ...extra,
      },
    }),
    writeConfig: (file, config) => {
      const { tasks: _t, levels: _l, ...json } = config;
      writeFileSync(file, JSON.stringify(json, null, 2));
      return file;
    },
  };
}
