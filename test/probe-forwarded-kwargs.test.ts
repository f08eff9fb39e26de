// Keywords forwarded through **kwargs (issue 19, class 3; python-probe forwarded_kwargs.py): where a function only
// reads keywords out of its **kwargs by name and hands the rest to callables of the same library, both readers, the
// runtime probe and the static extractor, record on that parameter the keywords it accepts; where anything is
// unclear (the dictionary used otherwise, a callee of another library, an instance's method, a cycle) nothing, so
// the **kwargs still takes anything. A package written here, read by both.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { writeProject } from './support/project.js';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const PROBE = join(__dirname, '..', 'python-probe');

const CORE = `\
import json


class Line:
    def __init__(self, xdata, ydata, *, color=None, linewidth=1.0, label=""):
        self.color = color

    def set(self, **kwargs):
        return Line.__init__(self, 0, 0, **kwargs)


def _style(marker="o", size=3):
    return marker


def plot(x, y, fmt="-", **kwargs):
    return Line(x, y, **kwargs)


def scatter(x, y, **kwargs):
    scale = kwargs.pop("scale", 1.0)
    if "alpha" in kwargs:
        kwargs["alpha"] = float(kwargs["alpha"])
    marker = _style(**kwargs) if kwargs else None
    return scale, marker


def chained(a, b=2, **rest):
    return plot(a, b, **rest)


def popper(**options):
    options.pop("x", None)
    return chained(1, **options)


def twice(kind, **kw):
    if kind:
        return _style(**kw)
    return Line(0, 0, **kw)


def kept(**kwargs):
    return dict(kwargs)


def only_read(path, **kwargs):
    return kwargs.get("encoding")


def elsewhere(x, **kw):
    return json.dumps(x, **kw)


def local_callee(**kw):
    make = Line
    return make(0, 0, **kw)


def computed_key(name, **kw):
    kw.pop(name, None)
    return _style(**kw)


def nested(**kw):
    def inner():
        return _style(**kw)
    return inner()


def cycle_a(**kw):
    return cycle_b(**kw)


def cycle_b(**kw):
    return cycle_a(**kw)


def to_open(**kw):
    return kept(**kw)


def star_wrapper(*args, **kwargs):
    return Line(*args, **kwargs)


def lead_then_star(x, *args, **kwargs):
    return Line(x, *args, **kwargs)
`;

const NAMES = ['Line', 'plot', 'scatter', 'chained', 'popper', 'twice', 'kept', 'only_read', 'elsewhere', 'local_callee', 'computed_key', 'nested', 'cycle_a', 'cycle_b', 'to_open', 'star_wrapper', 'lead_then_star'];

/** Path -> the keywords its **kwargs accepts (null: not resolved, takes anything). */
const EXPECTED: [string, string[] | null, string][] = [
  ['fwlib.plot', ['color', 'label', 'linewidth'], "Line's keyword parameters, less the two its call binds positionally"],
  ['fwlib.scatter', ['alpha', 'marker', 'scale', 'size'], 'what it pops and tests for, and what the helper takes'],
  ['fwlib.chained', ['color', 'fmt', 'label', 'linewidth'], 'through plot to Line: plot\'s fmt= and Line\'s keywords'],
  ['fwlib.popper', ['b', 'color', 'fmt', 'label', 'linewidth', 'x'], 'two hops, and the key it pops'],
  ['fwlib.twice', ['color', 'label', 'linewidth', 'marker', 'size'], 'the union over both branches'],
  ['fwlib.Line.set', ['color', 'label', 'linewidth'], 'a method through its class by name (self, xdata, ydata bound by the call)'],
  ['fwlib.star_wrapper', ['color', 'label', 'linewidth', 'xdata', 'ydata'], 'with *args forwarded too, xdata= and ydata= may come by name'],
  ['fwlib.lead_then_star', ['color', 'label', 'linewidth', 'ydata'], 'the positional before *args binds xdata'],
  ['fwlib.kept', null, 'the dictionary is kept: anything goes'],
  ['fwlib.only_read', null, 'only read, never forwarded: the others may be ignored silently'],
  ['fwlib.elsewhere', null, "another library's callee"],
  ['fwlib.local_callee', null, 'a callee bound in the function'],
  ['fwlib.computed_key', null, 'a key that is not a literal'],
  ['fwlib.nested', null, 'read by a nested function'],
  ['fwlib.cycle_a', null, 'a cycle'],
  ['fwlib.cycle_b', null, 'a cycle'],
  ['fwlib.to_open', null, "a callee whose own **kwargs is open"],
];

type Param = { name: string; kind: string; keywords?: string[] };

function read(label: 'runtime' | 'static'): Map<string, Param[]> {
  const root = writeProject({
    'fwlib/__init__.py': `from ._core import ${NAMES.join(', ')}\n__all__ = ${JSON.stringify(NAMES)}\n__version__ = "1.0"\n`,
    'fwlib/_core.py': CORE,
  }, `anachron-forwarded-${label}-`);
  const r = label === 'runtime'
    ? spawnSync(PYTHON, [join(PROBE, 'probe.py'), 'fwlib'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: root } })
    : spawnSync(PYTHON, [join(PROBE, 'static.py'), 'fwlib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const apis = (JSON.parse(r.stdout) as { apis: { path: string; signature: { parameters: Param[] } | null }[] }).apis;
  return new Map(apis.map((a) => [a.path, a.signature?.parameters ?? []]));
}

for (const label of ['runtime', 'static'] as const) {
  describe(`the ${label} reader`, () => {
    const surface = read(label);
    for (const [path, keywords, why] of EXPECTED) {
      test(`${path}: ${keywords ? keywords.join(', ') : 'open'} (${why})`, () => {
        const kwargs = surface.get(path)?.find((p) => p.kind === 'var_keyword');
        assert.ok(kwargs, `${path} has a **kwargs`);
        assert.deepEqual(kwargs.keywords ?? null, keywords);
      });
    }
  });
}
