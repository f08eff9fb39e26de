"""numpy: the C extension's functions, classes and ufuncs as the source records them.

- ``add_newdoc(module, name, doc)`` calls (``_add_newdocs.py``): docstrings of C functions and classes, and of
  class attributes (``(name, doc)`` tuples). A documented attribute whose docstring starts with a call signature
  is a method, otherwise a property.
- ufuncs: ``code_generators/generate_umath.py`` (``defdict``: name -> ``Ufunc(nin, nout, ...)``), their
  docstrings from ``code_generators/ufunc_docstrings.py``, C aliases from ``umathmodule.c``; the first docstring
  line is the one numpy's ``_internal._ufunc_doc_signature_formatter`` of that release writes, or the
  ``__signature__`` of ``_ufunc_inspect_signature_builder`` where the release has one.
- scalar types: ``_type_aliases.py`` builds ``allTypes`` from the C ``typeinfo``; this emulates it for
  CPython on Linux x86-64 (LP64) from the alias tables in that file.
- ``extend_all(module)`` (core/numeric.py) appends a module's ``__all__``.
- ``numpy/version.py`` is written by setup.py from a template string: the template is read from setup.py.
"""
import ast
import inspect
import re

from ...signatures import docstring_signature, make_param, make_signature, POSITIONAL_ONLY, \
    POSITIONAL_OR_KEYWORD, KEYWORD_ONLY, UNKNOWN_DEFAULT
from ..cparsers import PARSER_SOURCE
from ...ast_names import dotted_name
from ..interp import AllList, Raise, Return
from ..values import (
    ClassValue, CompiledValue, ConstValue, ContainerValue, ExternalValue, FunctionValue, ModuleValue, PartialValue,
    UnknownValue
)
from . import Knowledge

# C typeinfo on LP64 Linux x86-64 (numpy 1.x names): name -> (type char, bits, kind char)
_TYPEINFO_1X = [
    ("bool", "?", 8, "b"), ("byte", "b", 8, "i"), ("ubyte", "B", 8, "u"), ("short", "h", 16, "i"),
    ("ushort", "H", 16, "u"), ("int", "i", 32, "i"), ("uint", "I", 32, "u"), ("long", "l", 64, "i"),
    ("ulong", "L", 64, "u"), ("longlong", "q", 64, "i"), ("ulonglong", "Q", 64, "u"), ("half", "e", 16, "f"),
    ("float", "f", 32, "f"), ("double", "d", 64, "f"), ("longdouble", "g", 128, "f"),
    ("cfloat", "F", 64, "c"), ("cdouble", "D", 128, "c"), ("clongdouble", "G", 256, "c"),
    ("object", "O", 64, "O"), ("string", "S", 0, "S"), ("unicode", "U", 0, "U"), ("void", "V", 0, "V"),
    ("datetime", "M", 64, "M"), ("timedelta", "m", 64, "m"), ("intp", "p", 64, "i"), ("uintp", "P", 64, "u"),
]
_ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
             "complexfloating", "flexible", "character"]
_KIND_NAME = {"b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex", "S": "bytes", "U": "str",
              "V": "void", "O": "object", "M": "datetime", "m": "timedelta"}
# numpy 2.x typeinfo keys on LP64 Linux (NPY_<TYPE>_name / _alias of npy_common.h, plus intp/uintp):
# key -> (class __name__, kind char)
_TYPEINFO_2X = [
    ("bool", "bool", "b"), ("float16", "float16", "f"), ("float32", "float32", "f"), ("float64", "float64", "f"),
    ("longdouble", "longdouble", "f"), ("complex64", "complex64", "c"), ("complex128", "complex128", "c"),
    ("clongdouble", "clongdouble", "c"), ("bytes_", "bytes_", "S"), ("str_", "str_", "U"), ("void", "void", "V"),
    ("object_", "object_", "O"), ("datetime64", "datetime64", "M"), ("timedelta64", "timedelta64", "m"),
    ("int8", "int8", "i"), ("byte", "int8", "i"), ("uint8", "uint8", "u"), ("ubyte", "uint8", "u"),
    ("int16", "int16", "i"), ("short", "int16", "i"), ("uint16", "uint16", "u"), ("ushort", "uint16", "u"),
    ("int32", "int32", "i"), ("intc", "int32", "i"), ("uint32", "uint32", "u"), ("uintc", "uint32", "u"),
    ("int64", "int64", "i"), ("long", "int64", "i"), ("uint64", "uint64", "u"), ("ulong", "uint64", "u"),
    ("longlong", "longlong", "i"), ("ulonglong", "ulonglong", "u"), ("intp", "int64", "i"), ("uintp", "uint64", "u"),
]
# The Python class behind each C type name (the runtime's scalar class), and its numpy base class.
_CANONICAL_1X = {
    "bool": "bool_", "byte": "byte", "ubyte": "ubyte", "short": "short", "ushort": "ushort", "int": "intc",
    "uint": "uintc", "long": "int_", "ulong": "uint", "longlong": "longlong", "ulonglong": "ulonglong",
    "half": "float16", "float": "float32", "double": "float64", "longdouble": "float128", "cfloat": "complex64",
    "cdouble": "complex128", "clongdouble": "complex256", "object": "object_", "string": "bytes_",
    "unicode": "str_", "void": "void", "datetime": "datetime64", "timedelta": "timedelta64", "intp": "int_",
    "uintp": "uint",
}
_BASES = {
    "number": "generic", "integer": "number", "signedinteger": "integer", "unsignedinteger": "integer",
    "inexact": "number", "floating": "inexact", "complexfloating": "inexact", "flexible": "generic",
    "character": "flexible",
}
# numpy scalar classes that also derive from a Python builtin (Python 3)
_PYTHON_BASES = {"float64": "float", "complex128": "complex", "str_": "str", "bytes_": "bytes"}
_KIND_BASE = {"b": "generic", "i": "signedinteger", "u": "unsignedinteger", "f": "floating",
              "c": "complexfloating", "S": "character", "U": "character", "V": "flexible", "O": "generic",
              "M": "generic", "m": "signedinteger"}


class NumpyKnowledge(Knowledge):
    def __init__(self, extractor):
        Knowledge.__init__(self, extractor)
        files = set(extractor.files)
        # numpy 1.26.1+ also has a numpy/_core shim package (for pickles of numpy 2): the real core holds the code
        self.core = "numpy._core" if "numpy/_core/_add_newdocs.py" in files else "numpy.core"
        self.core_dir = self.core.replace(".", "/")
        self.docs = {}  # (module, name) -> doc
        self.member_docs = {}  # (module, class) -> {attr: doc}
        self.doc_by_name = {}  # name -> doc (first registration)
        self.members_by_name = {}
        self._ufuncs = None
        self._scalar_classes = {}
        self._scalar_kind = {}
        self._scalar_aliases = {}  # class name -> names bound to it in allTypes
        self.doc_seq = []
        self._c_aliases = None

    # -- generated files ---------------------------------------------------------------------------------

    def generated_module(self, name):
        x = self.x
        if name == "numpy.__config__":
            t = Knowledge.generated_module(self, name)
            if t is not None:
                return t
            text = self._config_template()
            if text is not None:
                x.note(name, "generated at build time: functions read from numpy.distutils' generator")
                return ("generated", text)
        return Knowledge.generated_module(self, name)

    def _config_template(self):
        x = self.x
        path = "numpy/distutils/misc_util.py"
        text = x.read_text(path) if path in x.files else None
        if not text:
            return None
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return None
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and fn.name == "generate_config_py":
                chunks = []
                for node in ast.walk(fn):
                    if isinstance(node, ast.Constant) and isinstance(node.value, str) and "def " in node.value:
                        chunks.append(_dedent(node.value))
                out = []
                for c in chunks:
                    try:
                        ast.parse(c)
                    except SyntaxError:
                        continue
                    out.append(c)
                if out:
                    return "\n".join(out)
        return None

    # -- interpreter hooks -------------------------------------------------------------------------------

    def call_statement(self, interp, func, call, scope):
        name = None
        if isinstance(func, FunctionValue):
            name = func.name
        elif isinstance(func, CompiledValue):
            name = func.name
        if name == "add_newdoc" and len(call.args) >= 3:
            self._record_newdoc(interp, call, scope)
            return True
        if name == "_array_method_doc" and len(call.args) >= 3:
            self._record_array_method_doc(interp, call, scope)
            return True
        if name == "add_newdoc_for_scalar_type" and len(call.args) >= 3:
            try:
                tname = interp.eval(call.args[0], scope)
                second = interp.eval(call.args[1], scope)
                doc = interp.eval(call.args[2], scope)
            except (Raise, Return):
                return True
            if isinstance(tname, ConstValue) and isinstance(tname.value, str):
                d = doc.value if isinstance(doc, ConstValue) and isinstance(doc.value, str) else None
                if isinstance(second, ConstValue) and isinstance(second.value, str) and \
                        second.value.startswith("(") and d is not None:
                    # numpy >= 2.4: (name, text_signature, doc) -> an Argument Clinic docstring
                    d = "%s%s\n--\n\n%s" % (tname.value, second.value, d.strip())
                self._add_doc(self.core + ".numerictypes", tname.value, d)
            return True
        if name == "extend_all" and len(call.args) == 1 and scope.is_module:
            mod = interp.eval(call.args[0], scope)
            all_ = scope.module.all_ or AllList([], True)
            if isinstance(mod, ModuleValue) and mod.library:
                st = self.x.modules.get(mod.name)
                if st is not None and st.all_ is not None:
                    existing = set(all_.items)
                    for a in st.all_.items:
                        if a not in existing:
                            all_.items.append(a)
                            existing.add(a)
                    if not st.all_.complete:
                        all_.complete = False
                    scope.module.all_ = all_
                    return True
            all_.complete = False
            scope.module.all_ = all_
            return True
        return False

    def _record_newdoc(self, interp, call, scope):
        try:
            place = interp.eval(call.args[0], scope)
            obj = interp.eval(call.args[1], scope)
            doc = interp.eval(call.args[2], scope)
        except (Raise, Return):
            return
        if not (isinstance(place, ConstValue) and isinstance(obj, ConstValue)):
            return
        if not isinstance(place.value, str) or not isinstance(obj.value, str):
            return
        place, obj = place.value, obj.value
        if isinstance(doc, ConstValue) and isinstance(doc.value, str) and doc.known:
            self._add_doc(place, obj, doc.value)
        elif isinstance(doc, ConstValue) and isinstance(doc.value, tuple) and len(doc.value) == 2:
            self._add_member_doc(place, obj, doc.value[0], doc.value[1])
        elif isinstance(doc, ContainerValue) and doc.items is not None:
            for item in doc.items:
                if isinstance(item, ConstValue) and isinstance(item.value, tuple) and len(item.value) == 2:
                    self._add_member_doc(place, obj, item.value[0], item.value[1])
        elif isinstance(doc, ContainerValue) and doc.type_name == "tuple" and doc.items and len(doc.items) == 2:
            a, d = doc.items
            if isinstance(a, ConstValue) and isinstance(a.value, str):
                self._add_member_doc(place, obj, a.value, d.value if isinstance(d, ConstValue) and d.known else None)
        else:
            self._add_doc(place, obj, None)

    def _record_array_method_doc(self, interp, call, scope):
        """numpy >= 2.4 documents the methods ndarray and generic share through a helper,
        ``_array_method_doc(name, params, doc)``, which calls add_newdoc twice from inside its body with an
        Argument Clinic docstring ``name($self, /, params)\\n--\\n\\ndoc`` (the interpreter does not run helper
        bodies, so the helper's effect is reproduced here)."""
        try:
            name = interp.eval(call.args[0], scope)
            params = interp.eval(call.args[1], scope)
            doc = interp.eval(call.args[2], scope)
        except (Raise, Return):
            return
        if not (isinstance(name, ConstValue) and isinstance(name.value, str)):
            return
        params = params.value if isinstance(params, ConstValue) and isinstance(params.value, str) else None
        text = doc.value if isinstance(doc, ConstValue) and isinstance(doc.value, str) and doc.known else ""
        if params is None:
            self._add_member_doc(self.core + ".multiarray", "ndarray", name.value, None)
            self._add_member_doc(self.core + ".numerictypes", "generic", name.value, None)
            return
        if "/" not in params:
            params = "/, %s" % params if params else "/"
        signature = "%s(self, %s)\n--\n\n" % (name.value, params)
        self._add_member_doc(self.core + ".multiarray", "ndarray", name.value, signature + inspect.cleandoc(text))
        self._add_member_doc(self.core + ".numerictypes", "generic", name.value,
                             signature + "Scalar method identical to `ndarray.%s`." % name.value)

    def _add_doc(self, place, name, doc):
        self.doc_seq.append((place, name, doc))
        self.docs.setdefault((place, name), doc)
        if name not in self.doc_by_name or self.doc_by_name[name] is None:
            self.doc_by_name[name] = doc

    def _add_member_doc(self, place, cls, attr, doc):
        if not isinstance(attr, str):
            return
        self.member_docs.setdefault((place, cls), {}).setdefault(attr, doc if isinstance(doc, str) else None)
        d = self.members_by_name.setdefault(cls, {})
        d.setdefault(attr, doc if isinstance(doc, str) else None)
        self.docs.setdefault((place, cls), None)
        self.doc_by_name.setdefault(cls, None)

    def function_decorator(self, interp, value, decv, dec, scope):
        # array_function_from_c_func_and_dispatcher(c_func): the C function, documented by the dispatcher's
        # docstring (docs_from_dispatcher=True), published under ``module``.
        if isinstance(dec, ast.Call) and isinstance(decv, PartialValue) and isinstance(decv.func, FunctionValue):
            if decv.func.name == "array_function_from_dispatcher" and isinstance(value, FunctionValue):
                from ..sigs import function_doc

                doc = function_doc(value)
                sig = docstring_signature(doc, False)
                if sig is None:
                    sig = self.x.sigs.function_signature(value, False)
                value.wrapped_signature = sig
                mod = None
                node = scope.module.ns.get(dotted_name(dec.func) or "")
                for kw in self._partial_keywords(decv):
                    if kw[0] == "module":
                        mod = kw[1]
                value.module_override = mod or "numpy"
                return value
        return None

    def _partial_keywords(self, pv):
        out = []
        for k, v in getattr(pv, "kw_values", {}).items():
            if isinstance(v, ConstValue) and isinstance(v.value, str):
                out.append((k, v.value))
        return out

    def module_loaded(self, state):
        if state.name == self.core + "._type_aliases":
            self._emulate_type_aliases(state)

    # -- scalar types ------------------------------------------------------------------------------------

    def scalar_class(self, name):
        v = self._scalar_classes.get(name)
        if v is None:
            v = CompiledValue(self.core + ".multiarray", name, "class", defined_in="numpy")
            v.scalar = True
            self._scalar_classes[name] = v
        return v

    def _emulate_type_aliases(self, state):
        text = state.text or ""
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return
        if "c_names_dict" in text and "_aliases" in text:
            return self._emulate_type_aliases_2x(state, text, tree)
        if "_concrete_typeinfo" not in text or "_set_up_aliases" not in text:
            self.x.note(state.name, "allTypes/sctypeDict come from the C typeinfo; this release's "
                                    "_type_aliases.py is not emulated")
            return
        lists = _literal_assignments(tree)
        int_ctypes = lists.get("_int_ctypes") or ["long", "longlong", "int", "short", "byte"]
        uint_ctypes = ["u" + t for t in int_ctypes]
        type_pairs = lists.get("type_pairs") or []
        to_remove = lists.get("to_remove") or []
        attrs_to_remove = lists.get("attrs_to_remove") or []
        skip_zero = bool(re.search(r"if\s+bit\s*!=\s*0\s+and\s+base\s*!=\s*['\"]bool['\"]", text))
        all_types = {}
        canonical = {}
        for name, char, bits, kind in _TYPEINFO_1X:
            canonical[name] = _CANONICAL_1X[name]
            all_types[name] = canonical[name]
        for name in _ABSTRACT:
            all_types[name] = name
        for name, char, bits, kind in _TYPEINFO_1X:
            if name in int_ctypes or name in uint_ctypes:
                continue
            base = _KIND_NAME[kind]
            bit = 0 if base == "object" else bits
            myname = "%s%d" % (base, bit)
            if name in ("longdouble", "clongdouble") and myname in all_types:
                continue
            if skip_zero and (bit == 0 or base == "bool"):
                continue
            all_types[myname] = canonical[name]
        seen_bits = set()
        bits_of = dict((n, b) for n, c, b, k in _TYPEINFO_1X)
        for i_ctype, u_ctype in zip(int_ctypes, uint_ctypes):
            bits = bits_of.get(i_ctype)
            if bits is None:
                continue
            if bits not in seen_bits:
                all_types["int%d" % bits] = canonical[i_ctype]
                all_types["uint%d" % bits] = canonical.get(u_ctype, u_ctype)
            seen_bits.add(bits)
        for pair in type_pairs:
            if isinstance(pair, tuple) and len(pair) == 2 and pair[1] in all_types:
                all_types[pair[0]] = all_types[pair[1]]
        for t in list(to_remove) + list(attrs_to_remove):
            all_types.pop(t, None)
        values = {}
        for k, cls in all_types.items():
            values[k] = self.scalar_class(cls)
            self._scalar_aliases.setdefault(cls, set()).add(k)
        d = ContainerValue("dict", None, sorted(all_types), True)
        d.values = values
        state.bind("allTypes", d)
        for k, v in values.items():
            self.x.modules  # keep
        self.x.note(state.name, "allTypes emulated for CPython on Linux x86-64 (C typeinfo is not in Python source)")

    def _emulate_type_aliases_2x(self, state, text, tree):
        lists = _literal_assignments(tree)
        abstract = lists.get("_abstract_type_names") or set(_ABSTRACT)
        aliases = lists.get("_aliases") or {}
        all_types = {}
        for a in sorted(abstract):
            all_types[a] = a
        for k, canon, kind in _TYPEINFO_2X:
            all_types[k] = canon
            self._scalar_kind[canon] = kind
        for k, v in (aliases.items() if isinstance(aliases, dict) else []):
            if v in all_types:
                all_types[k] = all_types[v]
        if "extended_prec_name" in text:
            for base, full in (("float", "longdouble"), ("complex", "clongdouble")):
                n = "%s%d" % (base, 128 if base == "float" else 256)
                if n not in all_types:
                    all_types[n] = all_types[full]
        values = dict((k, self.scalar_class(c)) for k, c in all_types.items())
        for k, c in all_types.items():
            self._scalar_aliases.setdefault(c, set()).add(k)
        d = ContainerValue("dict", None, sorted(all_types), True)
        d.values = values
        state.bind("allTypes", d)
        self.x.note(state.name, "allTypes emulated for CPython on Linux x86-64 (C typeinfo is not in Python source)")

    # -- compiled names ----------------------------------------------------------------------------------

    def registered_names(self, module):
        """numpy.dtypes' classes the C init passes to its ``_add_dtype_helper`` as a static type
        (``PyObject_CallFunction(add_dtype_helper, "Os", (PyObject *)&PyArray_StringDType, NULL)``), named by the
        type's ``tp_name`` ("numpy.dtypes.StringDType"): the compiled class _multiarray_umath has under that name.
        numpy 2.0's dtypes.pyi does not declare StringDType; 2.1's does."""
        if module != "numpy.dtypes":
            return {}
        if getattr(self, "_registered", None) is None:
            self._registered = {}
            x = self.x
            folder = self.core_dir + "/src/multiarray/"
            texts = [x.read_text(f) or "" for f in sorted(x.files) if f.startswith(folder) and f.endswith(".c")]
            passed = set()
            for text in texts:
                passed.update(re.findall(r"\badd_dtype_helper\s*,\s*\"O\w*\"\s*,\s*\(\s*PyObject\s*\*\s*\)\s*&\s*(\w+)", text))
            for var in sorted(passed):
                for text in texts:
                    m = re.search(r"\b%s\s*=\s*\{[^;]*?\.tp_name\s*=\s*\"numpy\.dtypes\.(\w+)\"" % re.escape(var), text)
                    if m is None:
                        continue
                    v = x.module_getattr(self.core + "._multiarray_umath", m.group(1))
                    if isinstance(v, CompiledValue) and v.obj_kind == "class":
                        self._registered[m.group(1)] = v
                    break
        return self._registered

    def _umath_modules(self):
        return (self.core + "._multiarray_umath", self.core + ".umath", self.core + ".multiarray",
                "numpy.core._multiarray_umath", "numpy.core.umath")

    def describe_compiled(self, module, name):
        if not self.x.in_library(module):
            return None
        ufuncs = self.ufuncs()
        if name in ufuncs and module in self._umath_modules():
            return self._ufunc_value(module, name)
        aliases = self.c_aliases()
        if name in aliases and aliases[name] in ufuncs and module in self._umath_modules():
            return self._ufunc_value(module, aliases[name], alias=name)
        if name in self._scalar_classes:
            return self._scalar_classes[name]
        base = Knowledge.describe_compiled(self, module, name)
        if base is None and module in self._umath_modules() and name in self._umath_init_names():
            base = CompiledValue(module, name, self._umath_init_names()[name])
        if base is not None:
            base.lazy = True  # docstrings from add_newdoc come later
            return base
        if name in self.doc_by_name or name in self.members_by_name:
            v = CompiledValue(module, name)
            v.lazy = True
            return v
        return None

    def finalize(self):
        self._removed_array_attributes()
        for (module, name), v in list(self._compiled.items()):
            if getattr(v, "lazy", False) or (v.obj_kind is None and not getattr(v, "ufunc", False)):
                self._fill(v)
        for name, v in self._scalar_classes.items():
            self._fill_scalar(v)

    def _removed_array_attributes(self):
        """ndarray attributes numpy keeps only to raise AttributeError with a removal note (2.0's ``ptp``,
        ``itemset``, ``newbyteorder``): the getter's message is recorded as the note, so the name counts as absent
        although ``dir(ndarray)`` lists it."""
        x = self.x
        for path in ("numpy/_core/src/multiarray/getset.c", "numpy/core/src/multiarray/getset.c"):
            text = x.read_text(path) if path in x.files else None
            if text:
                break
        else:
            return
        raising = {}
        for m in _RAISING_GETTER.finditer(text):
            message = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
            if "removed" in message:
                raising[m.group(1)] = message
        table = re.search(r"array_getsetlist\[\]\s*=\s*\{(.*?)\n\};", text, re.S)
        for name, getter in re.findall(r'\{\s*"(\w+)",\s*\(getter\)\s*(\w+)', table.group(1) if table else ""):
            if getter in raising:
                x.removal_notes.setdefault("numpy.ndarray." + name, raising[getter])

    def _fill(self, v):
        name = v.name
        doc = self.doc_by_name.get(name)
        members = self.members_by_name.get(name)
        if doc is not None or v.doc is None:
            v.doc = doc
        if v.obj_kind == "function" and members is None:
            if doc is not None and v.signature is None:
                v.signature = None
            return
        if members:
            v.obj_kind = "class"
            v.members = dict((m, self._member_entry(d)) for m, d in members.items())
        elif doc is not None:
            first = doc.strip().split("\n", 1)[0]
            v.obj_kind = "function"
            if re.match(r"^[A-Z][A-Za-z]*\(", first) and name[:1].isupper():
                v.obj_kind = "class"
        elif name.isupper() or name in ("typeinfo", "tracemalloc_domain", "error"):
            v.obj_kind = "attribute" if name != "error" else "class"
        else:
            v.obj_kind = None

    def _member_entry(self, doc):
        if doc is None:
            return ("property", None, None)
        text = doc.strip()
        sig = docstring_signature(text, True)
        if sig is not None:
            return ("method", sig, doc)
        return ("property", None, doc)

    def _fill_scalar(self, v):
        name = v.name
        base = None
        if name in _BASES:
            base = self.scalar_class(_BASES[name])
        elif name in self._scalar_kind:
            base = self.scalar_class(_KIND_BASE[self._scalar_kind[name]])
        else:
            for tname, char, bits, kind in _TYPEINFO_1X:
                if _CANONICAL_1X[tname] == name:
                    base = self.scalar_class(_KIND_BASE[kind])
                    break
        v.bases = [base] if base is not None else []
        py_base = _PYTHON_BASES.get(name)
        if py_base is not None:
            from .. import stdlib as _stdlib

            v.bases.append(_stdlib.external_value("builtins." + py_base))
        names = set([name]) | self._scalar_aliases.get(name, set())
        doc = None
        for place, n, d in self.doc_seq:  # add_newdoc sets __doc__ on the class: the last call wins
            if n in names and d is not None and place.endswith("numerictypes"):
                doc = d
        v.doc = doc or self.doc_by_name.get(name)
        members = self.members_by_name.get(name)
        v.members = dict((m, self._member_entry(d)) for m, d in members.items()) if members else {}
        # inspect.signature(cls): a __text_signature__ of the class (numpy >= 2.4 documents one), else a
        # builtin base's (float, complex), else object's () when the class has no tp_new (abstract types)
        text_sig = _clinic_signature(v.doc)
        if text_sig is not None:
            v.signature = text_sig
        elif py_base in ("float", "complex"):
            import builtins
            import inspect as _inspect
            from ...signatures import from_inspect

            try:
                v.signature = from_inspect(_inspect.signature(getattr(builtins, py_base)))
            except (TypeError, ValueError):
                pass
        elif name in _ABSTRACT:
            v.signature = make_signature([], None, "inspect")

    def compiled_names(self, module):
        names = list(Knowledge.compiled_names(self, module))
        if module in self._umath_modules():
            names.extend(self.ufuncs())
            names.extend(self.c_aliases())
            names.extend(self._umath_init_names())
        for (place, name) in self.docs:
            if place == module:
                names.append(name)
        return sorted(set(names))

    # -- ufuncs ------------------------------------------------------------------------------------------

    def ufuncs(self):
        if self._ufuncs is not None:
            return self._ufuncs
        self._ufuncs = {}
        x = self.x
        gen = self.core_dir + "/code_generators/generate_umath.py"
        text = x.read_text(gen) if gen in x.files else None
        if not text:
            return self._ufuncs
        try:
            tree = x.parse_file(gen)
        except SyntaxError as e:
            x.note(self.core, "generate_umath.py: SyntaxError %s" % e.msg)
            return self._ufuncs
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "defdict" for t in node.targets):
                if isinstance(node.value, ast.Dict):
                    for k, v in zip(node.value.keys, node.value.values):
                        if not (isinstance(k, ast.Constant) and isinstance(v, ast.Call)):
                            continue
                        if len(v.args) < 2:
                            continue
                        try:
                            nin = ast.literal_eval(v.args[0])
                            nout = ast.literal_eval(v.args[1])
                        except Exception:
                            continue
                        gsig = None
                        for kw in v.keywords:
                            if kw.arg == "signature":
                                try:
                                    gsig = ast.literal_eval(kw.value)
                                except Exception:
                                    gsig = None
                        self._ufuncs[k.value] = (nin, nout, gsig)
        docs_path = self.core_dir + "/code_generators/ufunc_docstrings.py"
        dtext = x.read_text(docs_path) if docs_path in x.files else None
        self._ufunc_docs = {}
        if dtext:
            try:
                dtree = x.parse_file(docs_path)
            except SyntaxError:
                dtree = None
            if dtree is not None:
                for node in ast.walk(dtree):
                    if isinstance(node, ast.Call) and dotted_name(node.func) == "add_newdoc" and len(node.args) >= 3:
                        n, d = node.args[1], node.args[2]
                        if isinstance(n, ast.Constant) and isinstance(d, ast.Constant) and isinstance(d.value, str):
                            self._ufunc_docs[n.value] = d.value
        self._formatter = self._formatter_kind()
        self._gufunc_keywords = self._gufunc_c_keywords()
        return self._ufuncs

    def _formatter_kind(self):
        x = self.x
        path = self.core_dir + "/_internal.py"
        text = x.read_text(path) if path in x.files else ""
        if "_ufunc_inspect_signature_builder" in (text or ""):
            return "inspect"
        fm = re.search(r"def _ufunc_doc_signature_formatter.*?(?=\ndef |\Z)", text or "", re.S)
        body = fm.group(0) if fm else ""
        return ("doc", "extobj" in body, "axes, axis" in body)

    def _gufunc_c_keywords(self):
        """The keywords ``ufunc.__call__`` of a generalized ufunc parses where the release's docstring formatter
        leaves some out (numpy 1.16-1.20 write no ``axes, axis`` although gufuncs take them since 1.15): the
        ``kwnames`` table of ``ufunc_object.c`` less ``where`` (its converter slot is NULL for a gufunc, which
        refuses it). None where the formatter lists them or the table does not read."""
        if self._formatter == "inspect" or self._formatter[2]:
            return None
        x = self.x
        path = self.core_dir + "/src/umath/ufunc_object.c"
        text = x.read_text(path) if path in x.files else None
        table = re.findall(r"\bkwnames\[(\d+)\]\s*=\s*npy_um_str_(\w+)\s*;", text or "")
        names = [n for i, (index, n) in enumerate(table) if int(index) == i]
        if len(names) != len(table) or "axes" not in names:
            return None
        return [n for n in names if n != "where"]

    def _umath_init_names(self):
        """What umath's init (called from _multiarray_umath's) adds: pi, e, ERR_*, PINF, ..."""
        if getattr(self, "_umath_init", None) is None:
            from ..cmodules import init_names

            x = self.x
            self._umath_init = {}
            # _multiarray_umath's init calls into these files (umath's constants, typeinfo, scalar types)
            for rel in ("/src/umath/umathmodule.c", "/src/multiarray/arraytypes.c.src", "/src/multiarray/typeinfo.c",
                        "/src/multiarray/multiarraymodule.c"):
                path = self.core_dir + rel
                text = x.read_text(path) if path in x.files else None
                if text:
                    for n, k in init_names(text).items():
                        self._umath_init.setdefault(n, k)
        return self._umath_init

    def c_aliases(self):
        if self._c_aliases is not None:
            return self._c_aliases
        self._c_aliases = {}
        x = self.x
        path = self.core_dir + "/src/umath/umathmodule.c"
        text = x.read_text(path) if path in x.files else None
        if not text:
            return self._c_aliases
        var = {}
        pat = re.compile(r"(\w+)\s*=\s*PyDict_GetItemString\(\s*d\s*,\s*\"(\w+)\"\s*\)"
                         r"|PyDict_SetItemString\(\s*d\s*,\s*\"(\w+)\"\s*,\s*(\w+)\s*\)")
        for m in pat.finditer(text):
            if m.group(1):
                var[m.group(1)] = m.group(2)
            elif m.group(4) in var:
                self._c_aliases[m.group(3)] = var[m.group(4)]
        for m in re.finditer(r"PyDict_SetItemString\(\s*d\s*,\s*\"(\w+)\"\s*,\s*PyDict_GetItemString\(\s*d\s*,\s*\"(\w+)\"\s*\)", text):
            self._c_aliases[m.group(1)] = m.group(2)
        return self._c_aliases

    def _ufunc_value(self, module, name, alias=None):
        nin, nout, gsig = self._ufuncs[name]
        doc = self._ufunc_docs.get(name)
        kind = self._formatter
        if kind == "inspect":
            sig = _ufunc_inspect_signature(nin, nout, gsig)
            first = None
        else:
            _, extobj, axes = kind
            first = _ufunc_doc_line(name, nin, nout, gsig is not None, extobj, axes)
            sig = docstring_signature(first)
            if gsig is not None and self._gufunc_keywords and sig is not None:
                sig = _parsed_gufunc_signature(sig, self._gufunc_keywords)
        full_doc = (first + "\n\n" + doc) if (first and doc) else (doc or first)
        # ufuncs carry ``__module__`` (= 'numpy') from numpy 2.0 on; before, they had none
        v = CompiledValue(module, alias or name, "function", sig, full_doc,
                          defined_in="numpy" if self.core == "numpy._core" else None)
        if self.core != "numpy._core":
            v.no_module = True
        v.ufunc = True
        return v


def _ufunc_inspect_signature(nin, nout, gsig):
    """numpy >= 2.4 ``_ufunc_inspect_signature_builder``."""
    params = []
    if nin == 1:
        params.append(make_param("x", POSITIONAL_ONLY))
    else:
        params.extend(make_param("x%d" % i, POSITIONAL_ONLY) for i in range(1, nin + 1))
    params.append(make_param("out", POSITIONAL_OR_KEYWORD, "None" if nout == 1 else repr((None,) * nout)))
    if gsig is None:
        params.append(make_param("where", KEYWORD_ONLY, "True"))
    else:
        params.append(make_param("axes", KEYWORD_ONLY, "<no value>"))
        params.append(make_param("axis", KEYWORD_ONLY, "<no value>"))
        params.append(make_param("keepdims", KEYWORD_ONLY, "False"))
    for n, d in (("casting", "'same_kind'"), ("order", "'K'"), ("dtype", "None"), ("subok", "True"),
                 ("signature", "None")):
        params.append(make_param(n, KEYWORD_ONLY, d))
    return make_signature(params, None, "inspect")


def _parsed_gufunc_signature(doc_sig, keywords):
    """A gufunc's signature as its C keyword table gives it: the docstring's positional part and defaults, every
    keyword of the table after it (source ``parser``: the whole list of what the call accepts)."""
    params = list(doc_sig["parameters"])
    named = set(p["name"] for p in params)
    params += [make_param(k, KEYWORD_ONLY, UNKNOWN_DEFAULT) for k in keywords if k not in named]
    return make_signature(params, doc_sig.get("returns"), PARSER_SOURCE)


def _clinic_signature(doc):
    """``name(params)\n--\n\n``: the ``__text_signature__`` CPython's inspect reads."""
    if not doc:
        return None
    lines = doc.strip().splitlines()
    if len(lines) < 2 or lines[1].strip() != "--":
        return None
    sig = docstring_signature(lines[0])
    if sig is not None:
        sig = dict(sig)
        sig["source"] = "inspect"
    return sig


def _ufunc_doc_line(name, nin, nout, gufunc, extobj, axes):
    in_args = "x" if nin == 1 else ", ".join("x%d" % (i + 1) for i in range(nin))
    if nout == 0:
        out_args = ", /, out=()"
    elif nout == 1:
        out_args = ", /, out=None"
    else:
        out_args = "[, %s], / [, out=%r]" % (", ".join("out%d" % (i + 1) for i in range(nout)), (None,) * nout)
    kwargs = ", casting='same_kind', order='K', dtype=None, subok=True"
    opt = ["signature"] + (["extobj"] if extobj else [])
    if not gufunc:
        kwargs = ", where=True" + kwargs + "[, " + ", ".join(opt) + "]"
    else:
        if axes:
            opt += ["axes", "axis"]
        kwargs = kwargs + "[, " + ", ".join(opt) + "]"
    return "%s(%s%s, *%s)" % (name, in_args, out_args, kwargs)


# A C function whose whole body raises AttributeError: static PyObject *name(...) { PyErr_SetString(
# PyExc_AttributeError, "..." "..."); return NULL; }
_RAISING_GETTER = re.compile(
    r'static\s+PyObject\s*\*\s*(\w+)\((?:[^()]|\([^()]*\))*\)\s*\{\s*PyErr_SetString\(\s*PyExc_AttributeError\s*,'
    r'((?:\s*"(?:[^"\\]|\\.)*")+)\s*\)\s*;\s*return\s+NULL\s*;\s*\}')


def _literal_assignments(tree):
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out.setdefault(node.targets[0].id, ast.literal_eval(node.value))
            except Exception:
                pass
    return out


def _dedent(text):
    import textwrap

    return textwrap.dedent(text).strip("\n") + "\n"
