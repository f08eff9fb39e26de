// The keywords a compiled module's C functions parse (python-probe/anachron_probe/static/cparsers.py), read by the
// static extractor from a small C extension written here and never built: PyArg_ParseTupleAndKeywords with its
// kwlist and format, numpy-style npy_parse_arguments, a type's tp_new and tp_methods; functions whose parser does
// not read whole keep their docstring signature.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';

const PYTHON = process.env.ANACHRON_PYTHON ?? 'python3';
const STATIC = join(__dirname, '..', 'python-probe', 'static.py');
const work = mkdtempSync(join(tmpdir(), 'anachron-cparsers-'));
after(() => rmSync(work, { recursive: true, force: true }));

const C_SOURCE = String.raw`
#include <Python.h>

PyDoc_STRVAR(make_doc, "make(shape, dtype=None)\n\nA new thing.");
PyDoc_STRVAR(legacy_doc, "legacy(a, b=0)\n\nOld style.");
PyDoc_STRVAR(opaque_doc, "opaque(x, y=1)\n\nFormat from a macro.");
PyDoc_STRVAR(tail_doc, "tail(x, extra=None)\n\nParses its keywords after an offset.");
PyDoc_STRVAR(plain_doc, "plain(x, y)\n\nNo keywords parsed.");

static PyObject *
make(PyObject *NPY_UNUSED(self), PyObject *const *args, Py_ssize_t len_args, PyObject *kwnames)
{
    PyObject *shape, *dtype = NULL, *like = NULL;
    NPY_PREPARE_ARGPARSER;
    /* the docstring above leaves like= out */
    if (npy_parse_arguments("make", args, len_args, kwnames,
            "shape", NULL, &shape,
            "|dtype", NULL, &dtype,
            "$like", NULL, &like,
            NULL, NULL, NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *legacy(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *a;
    int b = 0, strict = 0;
    static char *kwlist[] = {"", "b", "strict", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|i$p:legacy", kwlist, &a, &b, &strict)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

#define OPAQUE_FORMAT "O|O:opaque"
static PyObject *
opaque(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *x, *y = NULL;
    static char *kwlist[] = {"x", "z", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, OPAQUE_FORMAT, kwlist, &x, &y)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
tail(PyObject *self, PyObject *const *args, Py_ssize_t len_args, PyObject *kwnames)
{
    PyObject *extra = NULL;
    NPY_PREPARE_ARGPARSER;
    if (npy_parse_arguments("tail", args + 1, len_args - 1, kwnames,
            "$extra", NULL, &extra,
            NULL, NULL, NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
plain(PyObject *self, PyObject *args)
{
    PyObject *x, *y;
    if (!PyArg_ParseTuple(args, "OO:plain", &x, &y)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
thing_new(PyTypeObject *subtype, PyObject *args, PyObject *kwds)
{
    PyObject *size, *fill = NULL, *metadata = NULL;
    static char *kwlist[] = {"size", "fill", "metadata", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO!:Thing", kwlist, &size, &fill, &PyDict_Type, &metadata)) {
        return NULL;
    }
    return subtype->tp_alloc(subtype, 0);
}

static PyTypeObject ThingType = {
    /* the C type behind cparslib.Thing */
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cparslib._core.Thing",
    .tp_basicsize = sizeof(PyObject),
    .tp_new = thing_new,
};

/* registered into cparslib.kinds at import: only kinds.pyi declares the class */
static PyObject *stringish_new(PyTypeObject *subtype, PyObject *args, PyObject *kwds) {
    int coerce = 1; PyObject *na_object = NULL;
    static char *kwargs_strs[] = {"coerce", "na_object", NULL};
    return PyArg_ParseTupleAndKeywords(args, kwds, "|$pO:Stringish", kwargs_strs, &coerce, &na_object) ? subtype->tp_alloc(subtype, 0) : NULL;
}
static PyTypeObject StringishType = {PyVarObject_HEAD_INIT(NULL, 0) .tp_name = "cparslib.kinds.Stringish", .tp_new = stringish_new};

static PyMethodDef core_methods[] = {
    {"make", (PyCFunction)make, METH_FASTCALL | METH_KEYWORDS, make_doc},
    {"legacy", (PyCFunction)legacy, METH_VARARGS | METH_KEYWORDS, legacy_doc},
    {"opaque", (PyCFunction)opaque, METH_VARARGS | METH_KEYWORDS, opaque_doc},
    {"tail", (PyCFunction)tail, METH_FASTCALL | METH_KEYWORDS, tail_doc},
    {"plain", (PyCFunction)plain, METH_VARARGS, plain_doc},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef coremodule = {
    PyModuleDef_HEAD_INIT, "_core", NULL, -1, core_methods
};

PyMODINIT_FUNC
PyInit__core(void)
{
    PyObject *m = PyModule_Create(&coremodule);
    PyModule_AddObject(m, "Thing", (PyObject *)&ThingType);
    return m;
}
`;

interface Param { name: string; kind: string; default: string | null }
interface Api { path: string; kind: string; signature: { parameters: Param[]; source: string } | null }

function staticSurface(): Map<string, Api> {
  const root = mkdtempSync(join(work, 'src-'));
  const files: Record<string, string> = {
    'meson.build': "project('cparslib', 'c')\n",
    'cparslib/meson.build': "py.extension_module('_core', '_core.c')\n",
    'cparslib/__init__.py': '"""A library with a C core."""\nfrom ._core import make, legacy, opaque, tail, plain, Thing\n__version__ = "1.0"\n',
    'cparslib/_core.c': C_SOURCE,
    // numpy.dtypes' shape: the module fills itself at import, its stub declares the class with __new__(cls, /)
    'cparslib/kinds.py': '"""Kinds the C core registers at import."""\n__all__ = []\n\n\ndef _register(kind):\n    from cparslib import kinds\n    setattr(kinds, kind.__name__, kind)\n    __all__.append(kind.__name__)\n',
    'cparslib/kinds.pyi': '__all__ = ["Stringish"]\n\n\nclass Stringish:\n    def __new__(cls, /) -> Stringish: ...\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const r = spawnSync(PYTHON, [STATIC, 'cparslib', '--source', root, '--version', '1.0'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return new Map((JSON.parse(r.stdout) as { apis: Api[] }).apis.map((a) => [a.path, a]));
}

const shape = (a: Api | undefined) => a?.signature ? `${a.signature.source}: ${a.signature.parameters.map((p) => `${p.name}/${p.kind}${p.default === null ? '' : `=${p.default}`}`).join(', ')}` : null;

describe('static extraction reads the keywords C argument parsers take', () => {
  const surface = staticSurface();

  test('npy_parse_arguments: required, optional (|) and keyword-only ($) names; defaults from the docstring', () => {
    assert.equal(shape(surface.get('cparslib.make')), 'parser: shape/positional_or_keyword, dtype/positional_or_keyword=None, like/keyword_only=...');
  });

  test("PyArg_ParseTupleAndKeywords: the kwlist paired with the format's units; \"\" is positional-only", () => {
    assert.equal(shape(surface.get('cparslib.legacy')), 'parser: a/positional_only, b/positional_or_keyword=0, strict/keyword_only=...');
  });

  test("a type's tp_new is its class's constructor", () => {
    assert.equal(surface.get('cparslib.Thing')?.kind, 'class');
    assert.equal(shape(surface.get('cparslib.Thing')), 'parser: size/positional_or_keyword, fill/positional_or_keyword=..., metadata/positional_or_keyword=...');
  });

  test("a class only a stub declares takes its C type's constructor keywords, not the stub's __new__(cls, /)", () => {
    assert.equal(shape(surface.get('cparslib.kinds.Stringish')), 'parser: coerce/keyword_only=..., na_object/keyword_only=...');
  });

  test('a parser that does not read whole leaves the docstring signature: a format from a macro, arguments from an offset, no keyword parser', () => {
    assert.equal(shape(surface.get('cparslib.opaque')), 'docstring: x/positional_or_keyword, y/positional_or_keyword=1');
    assert.equal(shape(surface.get('cparslib.tail')), 'docstring: x/positional_or_keyword, extra/positional_or_keyword=None');
    assert.equal(shape(surface.get('cparslib.plain')), 'docstring: x/positional_or_keyword, y/positional_or_keyword');
  });
});
