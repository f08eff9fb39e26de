// Synthetic samples for exercising the run machinery (tests, the harness bench, smoke runs) before and apart from the
// dataset builder: every task and level, rendered with the real prompt contract, deterministic given a seed.
import { BENCH_LEVELS, NAME_PLACEHOLDER, renderPrompt, type LibEvoBenchSample, type PromptSpec } from './prompt-contract.js';
import { seededRandom } from '../../core/random.js';

const WORDS = ['array', 'axis', 'mean', 'norm', 'sum', 'integrate', 'matrix', 'vector', 'sort', 'index', 'shape', 'reshape', 'window', 'filter', 'signal', 'random'];

export function syntheticSamples(count: number, options: { seed?: number; library?: string; versions?: string[] } = {}): LibEvoBenchSample[] {
  const random = seededRandom(options.seed ?? 7);
  const library = options.library ?? 'synthlib';
  const versions = options.versions ?? ['1.0.0', '1.5.0', '2.0.0'];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const out: LibEvoBenchSample[] = [];
  for (let i = 0; i < count; i++) {
    const version = pick(versions);
    const module = `${library}.${pick(['core', 'linalg', 'signal', 'stats'])}`;
    const name = `${pick(WORDS)}_${pick(WORDS)}_${i}`;
    const api = `${module}.${name}`;
    const evolving = random() < 0.4;
    const description = `Compute the ${pick(WORDS)} of the ${pick(WORDS)} along an axis (sample ${i}); see ${NAME_PLACEHOLDER}.`;
    const kind = i % 6;
    let spec: PromptSpec;
    let level: LibEvoBenchSample['level'] = null;
    if (kind === 0) spec = { task: 'API-I', library, version, module, description };
    else if (kind === 1) spec = { task: 'SR', library, version, api };
    else {
      level = BENCH_LEVELS[kind - 2]!;
      const prefix = `import ${library} as sl\n\nvalues = [1, 2, 3]  # sample ${i}\nresult = `;
      const suffix = `\nprint(result)\n`;
      spec = {
        task: 'API-C',
        level,
        library,
        prefix,
        suffix,
        ...(level === 'L2' || level === 'L3' ? { version } : {}),
        ...(level === 'L1' || level === 'L2' ? { description } : {}),
        ...(level === 'L3' ? { api } : {}),
      };
    }
    out.push({
      id: `${spec.task}${level ? `@${level}` : ''}:${api}@${version}#${i}`,
      task: spec.task,
      level,
      library,
      version,
      api,
      evolving,
      prompt: renderPrompt(spec),
      groundTruth: spec.task === 'SR' ? { api, signature: `${name}(values, axis=None)` } : { api },
    });
  }
  return out;
}
