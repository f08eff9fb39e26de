// A generated example corpus for API-C on numpy: small projects, one set per numpy version, each pinning its version
// in requirements.txt and written in the idioms of that version (np.trapz before 2.0 and np.trapezoid from 2.0,
// np.unique(equal_nan=…) from 1.24, np.percentile(method=…) from 1.22, np.cumulative_sum from 2.1 …). The code is
// written for this project; it exercises every part of the snippet builder: short files, classes longer than the
// prefix budget (class scope, method removal), long modules of functions (function scope) and long scripts (discard).
// Deterministic given the seed. Pure: returns file texts; tests and the CLI write or read them as they need.
import { seededRandom } from '../../../core/random.js';
import { compareVersions } from '../../../core/versions.js';
import { corpusFromFiles, type CorpusFile } from './corpus.js';

interface Idiom {
  /** Statements, one per line, indented by the generator; they read `values` (a float array) and assign `out`. */
  lines: string[];
  /** First version the idiom is written for (inclusive). */
  since?: string;
  /** First version it is no longer written for (exclusive). */
  before?: string;
}

const IDIOMS: readonly Idiom[] = [
  // version-specific
  { lines: ['out = np.trapz(values, dx=0.5)'], before: '2.0' },
  { lines: ['out = np.trapezoid(values, dx=0.5)'], since: '2.0' },
  { lines: ['mask = np.in1d(values, [0.0, 1.0], invert=True)', 'out = values[mask]'], before: '2.0' },
  { lines: ['mask = np.isin(values, [0.0, 1.0], invert=True)', 'out = values[mask]'] },
  { lines: ['out = np.unique(values, return_counts=True, equal_nan=False)'], since: '1.24' },
  { lines: ['out = np.unique(values, return_counts=True)'], before: '1.24' },
  { lines: ["out = np.percentile(values, [5, 95], method='nearest')"], since: '1.22' },
  { lines: ["out = np.percentile(values, [5, 95], interpolation='nearest')"], before: '1.22' },
  { lines: ["out = np.quantile(values, 0.5, method='median_unbiased')"], since: '1.22' },
  { lines: ['out = np.cumulative_sum(values, include_initial=True)'], since: '2.1' },
  { lines: ['out = np.cumsum(values)'] },
  { lines: ['out = np.concat([values, values[::-1]])'], since: '2.0' },
  { lines: ['out = np.concatenate([values, values[::-1]], axis=0)'] },
  { lines: ['first, second = np.unstack(np.stack([values, values]))', 'out = first - second'], since: '2.1' },
  { lines: ['out = np.isdtype(values.dtype, "real floating")'], since: '2.0' },
  { lines: ['out = np.vecdot(values, values)'], since: '2.0' },
  { lines: ['out = np.linalg.vector_norm(values, ord=2)'], since: '2.0' },
  { lines: ['out = np.linalg.norm(values, ord=2)'] },
  { lines: ['out = np.astype(values, np.float32, copy=False)'], since: '2.0' },
  { lines: ['out = np.asfarray(values)'], before: '2.0' },
  { lines: ['out = np.sort(values, stable=True)'], since: '2.0' },
  { lines: ["out = np.sort(values, kind='stable')"] },
  { lines: ['out = np.std(values, correction=1)'], since: '2.0' },
  { lines: ['out = np.std(values, ddof=1)'] },
  { lines: ['out = np.mat(np.eye(3))'], before: '2.0' },
  { lines: ['out = np.lib.stride_tricks.as_strided(values, shape=(2,), strides=(8,))'], before: '2.0' },
  { lines: ['out = np.lib.stride_tricks.sliding_window_view(values, 3)'], since: '1.20', before: '2.0' },
  { lines: ['out = np.round_(values, 2)'], before: '1.20' },
  { lines: ['out = np.msort(values)'], before: '1.20' },
  { lines: ['out = np.find_common_type([values.dtype], [])'], before: '2.0' },
  { lines: ['out = np.linalg.cross(np.ones(3), np.arange(3.0))'], since: '2.0' },
  { lines: ['out = np.strings.upper(np.array(["a", "b"]))'], since: '2.0' },
  { lines: ['out = np.char.upper(np.array(["a", "b"]))'] },
  // stable across the tracked versions
  { lines: ['out = np.linalg.solve(np.eye(2), values[:2])'] },
  { lines: ['w, v = np.linalg.eigh(np.diag(values[:3]))', 'out = w'] },
  { lines: ['u, s, vh = np.linalg.svd(np.outer(values, values), full_matrices=False)', 'out = s'] },
  { lines: ['out = np.linalg.lstsq(np.ones((values.size, 1)), values, rcond=None)[0]'] },
  { lines: ['coefficients = np.polyfit(np.arange(values.size), values, deg=2)', 'out = np.polyval(coefficients, 0.5)'] },
  { lines: ["out = np.convolve(values, np.ones(3) / 3, mode='same')"] },
  { lines: ['out = np.diff(values, n=1, prepend=0.0)'] },
  { lines: ['out = np.gradient(values, 0.1)'] },
  { lines: ["out = np.searchsorted(np.sort(values), 0.5, side='right')"] },
  { lines: ['out = np.isclose(values, 0.0, atol=1e-9)'] },
  { lines: ['out = np.allclose(values, values.copy(), rtol=1e-6)'] },
  { lines: ['out = np.median(values, axis=0, keepdims=True)'] },
  { lines: ['out = np.count_nonzero(values > 0.5)'] },
  { lines: ['out = np.argwhere(values > 0.5)'] },
  { lines: ['out = np.expand_dims(values, axis=0)'] },
  { lines: ['out = np.squeeze(values[None, :])'] },
  { lines: ['out = np.kron(np.eye(2), values[:2])'] },
  { lines: ['out = np.tile(values, (2, 1))'] },
  { lines: ['out = np.repeat(values, 2)'] },
  { lines: ['out = np.array_split(values, 3)'] },
  { lines: ["out = np.ma.masked_invalid(values, copy=True)"] },
  { lines: ['out = np.ma.masked_where(values < 0, values)'] },
  { lines: ["xx, yy = np.meshgrid(values, values, indexing='ij')", 'out = xx + yy'] },
  { lines: ['out = np.nan_to_num(values, nan=0.0, posinf=1.0)'] },
  { lines: ['out = np.moveaxis(np.atleast_3d(values), 0, -1)'] },
  { lines: ['out = np.broadcast_to(values, (2, values.size))'] },
  { lines: ['out = np.interp(0.5, np.linspace(0, 1, values.size), values)'] },
  { lines: ["out = np.einsum('i,i->', values, values)"] },
  { lines: ["out = np.pad(values, 2, mode='edge')"] },
  { lines: ['out = np.digitize(values, bins=[0.25, 0.5, 0.75])'] },
  { lines: ['out = np.lexsort((values, -values))'] },
  { lines: ['out = np.iinfo(np.int32).max'] },
  { lines: ['out = np.finfo(np.float64).eps'] },
  { lines: ['generator = np.random.Generator(np.random.PCG64(7))', 'out = generator.integers(0, 10, size=values.size)'] },
  { lines: ['out = np.random.permutation(values)'] },
  { lines: ['out = np.random.choice(values, size=2, replace=False)'] },
  // evolving signatures, called in a way every tracked version accepts
  { lines: ["out = np.where(values > 0.5, values, 0.0)"] },
  { lines: ['out = np.clip(values, 0.0, 1.0)'] },
  { lines: ['out = np.full((2, 2), values.mean())'] },
  { lines: ['out = np.mean(values, axis=0)'] },
  { lines: ["out = np.average(values, weights=np.ones_like(values))"] },
  { lines: ['out = np.nanmean(values)'] },
  { lines: ['out = np.bincount(np.abs(values).astype(int), minlength=4)'] },
  { lines: ['out = np.take_along_axis(values, np.argsort(values), axis=0)'] },
  { lines: ['out = np.fft.rfft(values, n=8)'] },
  { lines: ['out = np.fft.fftfreq(values.size, d=0.1)'] },
  { lines: ['out = np.histogram(values, bins=5, density=True)'] },
  { lines: ['out = np.linspace(values.min(), values.max(), num=5)'] },
  { lines: ['out = np.vstack([values, values])'] },
  { lines: ['out = np.reshape(values, (-1, 1))'] },
  { lines: ["with np.errstate(divide='ignore'):", '    out = np.log(values)'] },
];

const ADJECTIVES = ['smooth', 'robust', 'scaled', 'local', 'global', 'sparse', 'dense', 'signed', 'binned', 'windowed', 'masked', 'sorted'];
const NOUNS = ['profile', 'signal', 'series', 'spectrum', 'matrix', 'sample', 'feature', 'window', 'score', 'trend', 'weights', 'grid'];

function applies(idiom: Idiom, version: string): boolean {
  return (idiom.since === undefined || compareVersions(version, idiom.since) >= 0) && (idiom.before === undefined || compareVersions(version, idiom.before) < 0);
}

function indent(lines: readonly string[], by: string): string {
  return lines.map((l) => by + l).join('\n');
}

export interface ExampleCorpusOptions {
  /** numpy versions to write projects for (the projects pin them exactly). */
  versions: readonly string[];
  /** Projects per version (default 2). */
  projectsPerVersion?: number;
  seed?: number;
}

/** One project's writer: its idioms in a shuffled order (taken in turn, round and round), and fresh function names. */
class ProjectWriter {
  private readonly order: Idiom[];
  private next = 0;

  constructor(
    readonly random: () => number,
    idioms: readonly Idiom[],
  ) {
    this.order = [...idioms];
    for (let i = this.order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
    }
  }

  take(n: number): Idiom[] {
    return Array.from({ length: n }, () => this.order[this.next++ % this.order.length]!);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)]!;
  }

  /** A name not in `used` (added to it). */
  private name(used: Set<string>): string {
    for (;;) {
      const n = `${this.pick(ADJECTIVES)}_${this.pick(NOUNS)}`;
      if (!used.has(n)) {
        used.add(n);
        return n;
      }
    }
  }

  /** A function over `data` whose body is the idioms, indented by `pad`. */
  fn(used: Set<string>, body: Idiom[], pad: string): string {
    const f = this.name(used);
    return [
      `${pad}def ${f}(data, scale=1.0):`,
      `${pad}    """Return the ${f.replace('_', ' ')} of the data, scaled."""`,
      `${pad}    values = np.asarray(data, dtype=float) * scale`,
      ...body.map((i) => indent(i.lines, `${pad}    `)),
      `${pad}    return out`,
    ].join('\n');
  }
}

/** A short module: a few functions, well within the budget. */
function statsModule(w: ProjectWriter): string {
  const names = new Set<string>();
  return ['"""Summary statistics."""', 'import numpy as np', '', '', ...Array.from({ length: 4 }, () => w.fn(names, w.take(1), '') + '\n\n')].join('\n');
}

/** A long class: methods far from the call are removed first. */
function modelsModule(w: ProjectWriter): string {
  const names = new Set<string>();
  const methods = Array.from({ length: 14 }, () => {
    const decorated = w.random() < 0.3;
    const text = w.fn(names, w.take(2), '    ').replace('(data, scale=1.0)', '(self, data, scale=1.0)');
    return decorated ? `    @staticmethod\n${text.replace('(self, data, scale=1.0)', '(data, scale=1.0)')}` : text;
  });
  return [
    '"""Models built on numpy."""',
    'import math',
    'import numpy as np',
    'from numpy import linalg as la',
    'from numpy.random import default_rng',
    '',
    '',
    'class Estimator:',
    '    """Fits and scores arrays."""',
    '',
    '    def __init__(self, seed=0):',
    '        self.rng = default_rng(seed)',
    '        self.scale = math.sqrt(2.0)',
    '',
    methods.join('\n\n'),
    '',
    '    def residual(self, a, b):',
    '        return la.norm(np.subtract(a, b))',
    '',
  ].join('\n');
}

/** A long module of functions: late calls keep only their own function. Then a short class, which alone fits the budget. */
function pipelineModule(w: ProjectWriter): string {
  const names = new Set<string>();
  return [
    '"""Processing steps."""',
    'import numpy as np',
    'from numpy.fft import rfft, irfft',
    '',
    '',
    ...Array.from({ length: 16 }, () => w.fn(names, w.take(2), '') + '\n\n'),
    'def roundtrip(x):',
    '    return irfft(rfft(x))',
    '',
    '',
    'class Runner:',
    '    """Runs the steps in order."""',
    '',
    w.fn(names, w.take(2), '    ').replace('(data, scale=1.0)', '(self, data, scale=1.0)'),
    '',
  ].join('\n');
}

/** A long script at module level: calls beyond the budget have no scope to fall back on and are discarded. */
function exploreScript(w: ProjectWriter): string {
  const script = w.take(60).map((i, n) => `# step ${n + 1}\nvalues = np.linspace(0.0, 1.0, ${8 + n})\n${i.lines.join('\n')}\nprint(${n}, out)\n`);
  return ['import numpy as np', '', ...script].join('\n');
}

/** The example projects as files: `numpy-VERSION-K/requirements.txt` and its Python modules. */
export function exampleNumpyProjects(options: ExampleCorpusOptions): { path: string; text: string }[] {
  const random = seededRandom(options.seed ?? 1);
  const files: { path: string; text: string }[] = [];
  for (const version of options.versions) {
    const idioms = IDIOMS.filter((i) => applies(i, version));
    for (let k = 1; k <= (options.projectsPerVersion ?? 2); k++) {
      const root = `numpy-${version}-${k}`;
      const w = new ProjectWriter(random, idioms);
      files.push({ path: `${root}/requirements.txt`, text: `numpy==${version}\n` });
      files.push({ path: `${root}/src/stats.py`, text: statsModule(w) });
      files.push({ path: `${root}/src/models.py`, text: modelsModule(w) });
      files.push({ path: `${root}/src/pipeline.py`, text: pipelineModule(w) });
      files.push({ path: `${root}/scripts/explore.py`, text: exploreScript(w) });
    }
  }
  return files;
}

/** The example corpus with each project's pin, as the folder reader would find it. */
export function exampleNumpyCorpus(options: ExampleCorpusOptions): CorpusFile[] {
  const files = exampleNumpyProjects(options);
  return files
    .filter((f) => f.path.endsWith('.py'))
    .map((f) => {
      const version = /^numpy-(.+)-\d+\//.exec(f.path)![1]!;
      return corpusFromFiles([f], { numpy: version })[0]!;
    });
}
