"""Walk a library's public modules and collect API records keyed by public import path."""
import ast
import functools
import importlib
import inspect
import os
import pkgutil
import re
import sys
import textwrap
import types

from .signatures import (
    docstring_signature,
    from_inspect,
    inspect_signature,
    VAR_KEYWORD,
    VAR_POSITIONAL,
    is_meaningless,
    with_open_keywords,
    make_param,
    make_signature,
    numpydoc_returns,
    reconcile_docstring_stub,
    signature_lines_consumed,
)
from .stubs import StubIndex
from .runtime_forwarding import forwarded_keywords
from .renamed_keywords import keyword_variables
from .served_names import served_names_of
from .text import REMOVAL_NOTE_TABLES
from .text import doc_summary, error_text

# Python 3.7+ (dict.fromkeys's type); the probe also runs in 3.6 venvs, where the type is the same object's
_CLASS_METHOD_DESCRIPTOR = getattr(types, "ClassMethodDescriptorType", type(dict.__dict__["fromkeys"]))

TEST_COMPONENTS = frozenset(("tests", "test", "conftest", "setup"))
CONSTANT_TYPES = (int, float, complex, str, bytes, bool, type(None))
CALLABLE_KINDS = ("function", "class", "method")

_PROPERTY_TYPES = [property, types.GetSetDescriptorType, types.MemberDescriptorType]
if hasattr(functools, "cached_property"):
    _PROPERTY_TYPES.append(functools.cached_property)
if hasattr(types, "DynamicClassAttribute"):
    _PROPERTY_TYPES.append(types.DynamicClassAttribute)
_PROPERTY_TYPES = tuple(_PROPERTY_TYPES)
_EXTENSION_SUFFIXES = (".so", ".pyd", ".dylib")

_type_dict = type.__dict__["__dict__"].__get__

# Docstring cross-references to a callable of the same name: "Please see `ndarray.sum`", "possesses ... all the
# attributes of the ndarray class" (numpy scalar methods).
_XREF_BACKTICK = re.compile(r"`~?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
_XREF_CLASS = re.compile(r"attributes\s+of\s+(?:the\s+)?`?([A-Za-z_][A-Za-z0-9_.]*)`?\s+class")


def is_public_module(name):
    for part in name.split("."):
        if not part or part.startswith("_") or part in TEST_COMPONENTS:
            return False
    return True


def is_constant(value, depth=0):
    t = type(value)
    if t in CONSTANT_TYPES:
        return True
    if t is tuple and depth < 4:
        return all(is_constant(v, depth + 1) for v in value)
    return False


def _safe_getattr(obj, name, default=None):
    try:
        return getattr(obj, name, default)
    except Exception:
        return default


def _class_dict(cls):
    try:
        return _type_dict(cls)
    except Exception:
        try:
            return vars(cls)
        except Exception:
            return {}


def _mro(cls):
    try:
        mro = type.__dict__["__mro__"].__get__(cls)
        return tuple(mro)
    except Exception:
        return (cls,)


def _has_get(obj):
    try:
        return any("__get__" in _class_dict(k) for k in _mro(type(obj)))
    except Exception:
        return False


def _is_data_descriptor(obj):
    try:
        return any(("__set__" in _class_dict(k) or "__delete__" in _class_dict(k)) for k in _mro(type(obj)))
    except Exception:
        return False


def classify(obj):
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class"
    try:
        if callable(obj):
            return "function"
    except Exception:
        pass
    return "attribute"


def member_kind(raw):
    if isinstance(raw, (staticmethod, classmethod)):
        return "method"
    if isinstance(raw, type):
        return "class"
    if isinstance(raw, _PROPERTY_TYPES):
        return "property"
    if inspect.isroutine(raw):
        return "method"
    try:
        is_callable = callable(raw)
    except Exception:
        is_callable = False
    if is_callable:
        return "method"
    # other data descriptors behave like properties
    try:
        tdicts = [_class_dict(k) for k in _mro(type(raw))]
        if any("__get__" in d for d in tdicts) and any(("__set__" in d or "__delete__" in d) for d in tdicts):
            return "property"
    except Exception:
        pass
    return "attribute"


def _builtin_base_docs(cls):
    docs = []
    for base in _mro(cls)[1:]:
        if _safe_getattr(base, "__module__") == "builtins":
            d = _class_dict(base).get("__doc__")
            if isinstance(d, str):
                docs.append(d)
    return docs


class Probe(object):
    def __init__(self, library, guard):
        self.library = library
        self.guard = guard
        self.records = {}
        self.modules = {}  # name -> imported (bool)
        self.module_objects = {}
        self.errors = set()
        self.removal_notes = {}  # path -> the library's own note on a removed name (see REMOVAL_NOTE_TABLES)
        self.stubs = None
        self.root = None
        self._sig_cache = {}
        self._stub_cache = {}
        self._members_cache = {}
        self._members_open = set()  # ids of the classes whose members are being walked (accessors of accessors)
        self._doc_cache = {}
        self._xref_cache = {}
        self._xref_depth = 0
        self._keep = []  # keep objects alive while their id() is a cache key
        self._exported = None  # id -> object: what some module's __all__ exports while naming no module of its own
        self._owner_modules = {}  # class name -> library extension module defining it (None: not found)
        self._extension_index = None  # id -> [(extension module, name)] of the classes and builtins they hold
        self._numpydoc_cache = {}  # docstring -> numpydoc Returns type or None
        self._all_exported = None  # id -> object: everything the __all__ of some module of the library lists
        self._walked_classes = {}  # id -> (class, first public path): classes whose members are recorded, exported
        self._unwalked_classes = []  # (path, class, public module, name): classes under names not exported

    # -- helpers -------------------------------------------------------------------------------------------------

    def in_library(self, module_name):
        return isinstance(module_name, str) and (
            module_name == self.library or module_name.startswith(self.library + ".")
        )

    def error(self, module, text):
        self.errors.add((module, text))

    def _import(self, name):
        """import_module after seeding the global random generators, so that module-level random values
        (numpy.ma.bench builds its default arguments with numpy.random) are the same on every run."""
        _reseed()
        return importlib.import_module(name)

    # -- modules -------------------------------------------------------------------------------------------------

    def run(self):
        root, err = self.guard.run(self._import, self.library)
        if root is None:
            self.modules[self.library] = False
            self.error(self.library, err or "ImportError: import returned nothing")
            return False
        self.root = root
        path = _safe_getattr(root, "__path__")
        if path is not None:
            try:
                dirs = list(path)
            except Exception:
                dirs = []
            self.stubs = StubIndex(self.library, dirs, True)
        else:
            f = _safe_getattr(root, "__file__")
            self.stubs = StubIndex(self.library, [os.path.dirname(f)] if isinstance(f, str) else [], False)
        self.modules[self.library] = True
        self.module_objects[self.library] = root
        self._discover(root)
        for name in sorted(n for n, ok in self.modules.items() if ok):
            self._collect_module_guarded(name, self.module_objects[name], name)
        self._collect_aliases()
        self._walk_unexported_classes()
        for mod, text in sorted(self.stubs.errors.items()):
            self.error(mod, "stub: " + text)
        return True

    def _discover(self, root):
        queue = [root]
        while queue:
            pkg = queue.pop(0)
            pkg_name = _safe_getattr(pkg, "__name__")
            path = _safe_getattr(pkg, "__path__")
            if path is None or not isinstance(pkg_name, str):
                continue
            try:
                found = sorted(set(name for _, name, _ in pkgutil.iter_modules(list(path), pkg_name + ".")))
            except Exception as e:
                self.error(pkg_name, "walk: " + error_text(e))
                continue
            for name in found:
                if not is_public_module(name) or name in self.modules:
                    continue
                mod, err = self.guard.run(self._import, name)
                if mod is None:
                    self.modules[name] = False
                    self.error(name, err or "ImportError: import returned nothing")
                    continue
                self.modules[name] = True
                self.module_objects[name] = mod
                if _safe_getattr(mod, "__path__") is not None:
                    queue.append(mod)

    def _collect_module_guarded(self, module_name, module, public_path, exported=True):
        staged = {}
        classes = []
        _, err = self.guard.run(self._collect_module, module_name, module, public_path, staged, exported, classes)
        if err:
            self.error(module_name if module_name == public_path else public_path, "collect: " + err)
            return
        keep_collected(self, staged, classes, public_path)

    def _collect_aliases(self):
        """Modules the root package exposes under another public name (numpy.emath -> numpy.lib.scimath,
        numpy.char -> numpy.core.defchararray) are walked under that name too, and so are private submodules a
        package shows under a public name (numpy.testing.extbuild -> numpy.testing._private.extbuild). One level
        only; not a module under its own descendant's name (torch.torch)."""
        for path, _, exported in module_aliases(self.records, self.modules, self.library, self.walks_alias):
            parent, _, name = path.rpartition(".")
            try:
                mod = getattr(self.module_objects[parent], name)
            except Exception:
                continue
            self._collect_module_guarded(_safe_getattr(mod, "__name__", path), mod, path, exported)

    def walks_alias(self, path, target):
        """Whether the module ``target``, shown under the other public name ``path``, is walked there too."""
        parent = path.rpartition(".")[0]
        return parent == self.library or _public_prefix(target) == parent

    # -- public names --------------------------------------------------------------------------------------------

    def public_names(self, module_name, module, public_path):
        """[(name, object, exported)] sorted by name: the ``__all__`` entries (exported), then every other name of
        ``dir(module)`` without a leading underscore (not exported). Without ``__all__``, the names that are
        submodules of the library, objects of the library or plain constants are the exported ones."""
        try:
            mdict = module.__dict__
        except Exception:
            mdict = {}
        all_ = mdict.get("__all__")
        out = []
        listed = None
        if all_ is not None:
            try:
                entries = sorted(set(x for x in list(all_) if isinstance(x, str)))
            except Exception as e:
                self.error(public_path, "__all__: " + error_text(e))
                entries = None
            if entries is not None:
                listed = set(entries)
                for name in entries:
                    try:
                        obj = getattr(module, name)
                    except AttributeError:
                        self.error(public_path, "unresolved __all__ entry: " + name)
                        continue
                    except Exception as e:
                        self.error(public_path, "__all__ entry %s: %s" % (name, error_text(e)))
                        continue
                    out.append((name, obj, True))
        try:
            # a module's own __dir__ can hide names its namespace holds (scipy 1.10 lists only __all__, while
            # scipy.array, deprecated, still works): what the namespace holds counts too
            names = list(dir(module)) + list(mdict)
        except Exception as e:
            self.error(public_path, "dir: " + error_text(e))
            names = list(mdict)
        # Names a module serves through __getattr__ with a DeprecationWarning (numpy's np.int in 1.20-1.23, np.bool8
        # in 1.24) still work at this version: dir() does not list them, __deprecated_attrs__ does.
        deprecated = mdict.get("__deprecated_attrs__")
        if isinstance(deprecated, dict):
            names = list(names) + [n for n in deprecated if isinstance(n, str)]
        names = list(names) + served_names_of(module)  # np.chararray in numpy 2: served, deprecated, not in dir()
        for table in REMOVAL_NOTE_TABLES:
            notes = mdict.get(table)
            if isinstance(notes, dict):
                for name, note in notes.items():
                    if isinstance(name, str) and isinstance(note, str):
                        self.removal_notes.setdefault(public_path + "." + name, note.strip())
        for name in sorted(set(n for n in names if isinstance(n, str))):
            if name.startswith("_") or (listed is not None and name in listed):
                continue
            try:
                obj = getattr(module, name)
            except Exception:
                continue
            out.append((name, obj, listed is None and self.is_library_object(obj)))
        out.sort(key=lambda t: t[0])
        return out

    def is_foreign(self, obj, exported):
        """An object from outside the library (a stdlib module, a builtin, a third-party object): recorded as an
        opaque attribute. Modules by their name; anything its own module outside the library holds under its
        name (``int``, ``pathlib.Path``, ``numpy.asarray`` seen from scipy); and, for names not exported, what
        today's rules would not count as the library's."""
        if isinstance(obj, types.ModuleType):
            return not self.in_library(_safe_getattr(obj, "__name__"))
        if self._held_outside(obj):
            return True
        if exported or isinstance(obj, type):
            # A class whose __module__ does not hold it (a C type without a module in its name, a class made
            # by make_dataclass) is the library's.
            return False
        # Not exported here: the library's by today's rules, or exported by some module of the library (numpy's
        # ufuncs name no module: numpy.abs is numpy.absolute).
        return not (self.is_library_object(obj) or id(obj) in self._exported_anywhere())

    def _exported_anywhere(self):
        """id -> object for every object some imported module of the library lists in its ``__all__``."""
        if self._all_exported is None:
            found = {}
            for name in sorted(n for n, ok in self.modules.items() if ok):
                mod = self.module_objects.get(name)
                try:
                    mdict = mod.__dict__
                    all_ = mdict.get("__all__")
                    entries = sorted(set(x for x in list(all_) if isinstance(x, str))) if all_ is not None else []
                except Exception:
                    continue
                for entry in entries:
                    try:
                        obj = mdict.get(entry)
                    except Exception:
                        obj = None
                    if obj is not None and not is_constant(obj):
                        found[id(obj)] = obj
            self._all_exported = found
        return self._all_exported

    def _held_outside(self, obj):
        """``obj.__module__`` is a loaded module outside the library that holds ``obj`` under its qualified name."""
        module = _safe_getattr(obj, "__module__")
        if not isinstance(module, str) or self.in_library(module):
            return False
        home = sys.modules.get(module)
        if home is None:
            return False
        qualname = _safe_getattr(obj, "__qualname__")
        if not isinstance(qualname, str):
            qualname = _safe_getattr(obj, "__name__")
        if not isinstance(qualname, str) or not qualname:
            return False
        target = home
        for i, part in enumerate(qualname.split(".")):
            try:
                d = _safe_getattr(target, "__dict__") if i == 0 else _class_dict(target)
                target = d.get(part) if d is not None else None
            except Exception:
                return False
            if target is None:
                return False
        return target is obj

    def is_library_object(self, obj):
        if isinstance(obj, types.ModuleType):
            return self.in_library(_safe_getattr(obj, "__name__"))
        if is_constant(obj):
            return True
        module = _safe_getattr(obj, "__module__")
        if module is None and not isinstance(obj, type):
            # Builtins that name no module (torch 1.x C functions: torch.nn.functional.conv2d is torch.conv2d,
            # __module__ None) belong to the library when one of its modules exports them in __all__.
            return id(obj) in self._exported_objects()
        return self.in_library(module)

    def _exported_objects(self):
        if self._exported is None:
            exported = {}
            for name in sorted(n for n, ok in self.modules.items() if ok):
                mod = self.module_objects.get(name)
                try:
                    all_ = mod.__dict__.get("__all__")
                    entries = sorted(set(x for x in list(all_) if isinstance(x, str))) if all_ is not None else []
                except Exception:
                    entries = []
                for entry in entries:
                    try:
                        obj = mod.__dict__[entry] if entry in mod.__dict__ else None
                    except Exception:
                        obj = None
                    if obj is not None and callable(obj) and _safe_getattr(obj, "__module__", 0) is None:
                        exported[id(obj)] = obj
            self._exported = exported
        return self._exported

    # -- records -------------------------------------------------------------------------------------------------

    def _walk_unexported_classes(self):
        """Members of the classes found under names that are not exported. A class's members are recorded under
        every exported path that shows it (as before) and under at most one path that is not exported, when no
        exported one shows it (the shortest, then the first in order); every other unexported record of the class
        names as ``members_at`` the path where they are (the shortest exported one, else that one). torch.Tensor
        is imported, not exported, by some hundred torch modules: 600 members each."""
        for path, cls, public_module, name, rec in unexported_classes_to_walk(self):
            members, err = self.guard.run(self.class_members, cls, public_module, name)
            if err:
                self.error(public_module, "collect: %s: %s" % (name, err))
                continue
            for m in members:
                mpath = path + "." + m["name"]
                if mpath not in self.records:
                    self.records[mpath] = self.record(
                        mpath, m["kind"], m["defined_in"], m["signature"], m["doc"], rec["exported"]
                    )

    def _collect_module(self, module_name, module, public_path, staged, module_exported=True, classes=None):
        staged[public_path] = self.record(
            public_path, "module", module_name, None, self.doc_of(module, "module"), module_exported
        )
        for name, obj, exported in self.public_names(module_name, module, public_path):
            path = public_path + "." + name
            kind = classify(obj)
            if kind == "module":
                defined_in = _safe_getattr(obj, "__name__", module_name)
            else:
                defined_in = _safe_getattr(obj, "__module__")
            if not isinstance(defined_in, str):
                defined_in = module_name
            if self.is_foreign(obj, exported):
                # Opaque: no signature, no doc, members never walked (the checker reports nothing past it).
                staged[path] = self.record(path, "attribute", defined_in, None, None, exported)
                continue
            sig = None
            if kind in ("function", "class"):
                sig = self.object_signature(obj, kind, public_path, name)
            staged[path] = self.record(path, kind, defined_in, sig, self.doc_of(obj, kind), exported)
            if kind == "class":
                if classes is not None:
                    classes.append((path, obj, exported))
                if not exported:
                    continue  # members later, see _walk_unexported_classes
                for rec in self.class_members(obj, public_path, name):
                    mpath = path + "." + rec["name"]
                    staged[mpath] = self.record(
                        mpath, rec["kind"], rec["defined_in"], rec["signature"], rec["doc"], exported
                    )

    @staticmethod
    def record(path, kind, defined_in, signature, doc, exported):
        return {
            "path": path,
            "kind": kind,
            "defined_in": defined_in,
            "signature": signature,
            "doc": doc,
            "exported": exported,
        }

    def doc_of(self, obj, kind, raw=None):
        key = (id(obj), kind)
        if key in self._doc_cache:
            return self._doc_cache[key][1]
        doc = None
        try:
            if kind == "module":
                doc = _safe_getattr(obj, "__doc__")
            elif kind == "class":
                doc = _safe_getattr(obj, "__doc__")
                if isinstance(doc, str) and doc in _builtin_base_docs(obj):
                    doc = None
            else:
                doc = _safe_getattr(obj, "__doc__")
                if not inspect.isroutine(obj) and not isinstance(obj, (staticmethod, classmethod, property)):
                    tdoc = _safe_getattr(type(obj), "__doc__")
                    if isinstance(doc, str) and doc == tdoc:
                        doc = None
            summary = doc_summary(doc, signature_lines_consumed)
        except Exception:
            summary = None
        self._keep.append(obj)
        self._doc_cache[key] = (obj, summary)
        return summary

    # -- signatures ----------------------------------------------------------------------------------------------

    def _runtime_signature(self, target, drop_self, doc_target=None):
        """inspect, then docstring. Returns (signature or None, meaningless inspect signature or None)."""
        key = (id(target), drop_self, id(doc_target))
        cached = self._sig_cache.get(key)
        if cached is not None:
            return cached[1]
        self._keep.append((target, doc_target))
        result = (None, None)
        sig = inspect_signature(target)
        fallback = None
        if sig is not None:
            try:
                converted = from_inspect(sig, drop_self)
            except Exception:
                converted = None
            if converted is not None:
                converted = _with_legacy_keyword(target, converted)
                converted = self._with_forwarded_keywords(target, converted)
                if not is_meaningless(converted["parameters"]):
                    result = (converted, None)
                else:
                    fallback = converted
        if result[0] is None:
            doc = _safe_getattr(doc_target if doc_target is not None else target, "__doc__")
            dsig = docstring_signature(doc, drop_self)
            if dsig is None:
                # functools.wraps: the wrapper takes what the wrapped callable takes (inspect follows __wrapped__
                # too, but fails on builtins and ufuncs; their docstrings say it).
                dsig = _wrapped_docstring_signature(doc_target if doc_target is not None else target, drop_self)
            result = (with_open_keywords(dsig, fallback), fallback)
        self._sig_cache[key] = (target, result)
        return result

    def _with_forwarded_keywords(self, target, converted):
        """The keywords a ``**kwargs`` that only goes on to this library's callables accepts (runtime_forwarding.py),
        as its parameter's ``keywords`` list."""
        params = converted["parameters"]
        if not params or params[-1]["kind"] != "var_keyword":
            return converted
        active = self.__dict__.setdefault("_closing_keywords", set())
        try:
            keywords = forwarded_keywords(target, params, self.in_library, lambda obj: self._runtime_signature(obj, False)[0], active)
        except Exception:  # a callee's attribute lookup that runs code and fails: the keywords stay open
            keywords = None
        if keywords is None:
            return converted
        return dict(converted, parameters=params[:-1] + [dict(params[-1], keywords=keywords)])

    def _stub_signature(self, candidates):
        for module_name, parts in candidates:
            key = (module_name, tuple(parts))
            if key not in self._stub_cache:
                try:
                    self._stub_cache[key] = self.stubs.signature(module_name, parts)
                except RecursionError:
                    self._stub_cache[key] = None
            sig = self._stub_cache[key]
            if sig is not None:
                return sig
        return None

    def _defining_candidates(self, obj_module, qualname, tail):
        """Stub lookups for something defined in ``obj_module`` under ``qualname``."""
        out = []
        if not (self.in_library(obj_module) and isinstance(qualname, str)) or "<" in qualname:
            return out
        parts = qualname.split(".") + list(tail)
        out.append((obj_module, parts))
        if self._is_extension(obj_module):
            for stub_mod in self.stubs.directory_stubs(obj_module):
                if stub_mod != obj_module:
                    out.append((stub_mod, parts))
        return out

    def _is_extension(self, module_name):
        mod = sys.modules.get(module_name)
        if mod is None:
            return True  # e.g. torch._C._VariableFunctions: created from C, not a file
        f = _safe_getattr(mod, "__file__")
        if not isinstance(f, str):
            return True
        return f.endswith(_EXTENSION_SUFFIXES) or any(f.endswith(s) for s in _machinery_suffixes())

    def _with_extension_stub(self, sig, extension_candidates):
        """After inspect failed: the stub of the C extension module defining the callable, reconciled with the
        docstring signature ``sig`` if there is one. Returns a signature or None."""
        if sig is not None and sig["source"] == "inspect":
            return sig
        stub = self._stub_signature(extension_candidates) if extension_candidates else None
        if sig is None:
            return stub
        return reconcile_docstring_stub(sig, stub) if stub is not None else sig

    def _extension_candidates(self, module_name, qualname, tail):
        if isinstance(module_name, str) and self.in_library(module_name) and self._is_extension(module_name):
            return self._defining_candidates(module_name, qualname, tail)
        return []

    def object_signature(self, obj, kind, public_module, name):
        sig, fallback = self._runtime_signature(obj, False)
        qualname = _safe_getattr(obj, "__qualname__") or _safe_getattr(obj, "__name__")
        if sig is None or sig["source"] != "inspect":
            ext = self._extension_candidates(_safe_getattr(obj, "__module__"), qualname, ())
            ext += self._owner_candidates(obj, qualname)
            sig = self._with_extension_stub(sig, ext)
        candidates = None
        if sig is None:
            sig = self._xref_signature(obj, name.rsplit(".", 1)[-1])
        if sig is None:
            candidates = self._object_stub_candidates(obj, public_module, name, qualname)
            sig = self._stub_signature(candidates)
        if sig is None:
            sig = fallback
        if kind == "class":
            return sig
        return self._complete_returns(
            sig, fallback, obj, lambda: candidates or self._object_stub_candidates(obj, public_module, name, qualname)
        )

    def _object_stub_candidates(self, obj, public_module, name, qualname):
        candidates = [(public_module, [name])]
        candidates += self._defining_candidates(_safe_getattr(obj, "__module__"), qualname, ())
        if isinstance(qualname, str) and qualname != name:
            candidates.append((public_module, [qualname]))
        candidates += self._owner_candidates(obj, qualname)
        for module_name, attr in self._extension_homes(obj):
            candidates.append((module_name, [attr]))
            candidates += [(m, [attr]) for m in self.stubs.directory_stubs(module_name) if m != module_name]
        return candidates

    def _complete_returns(self, sig, fallback, doc_target, candidates):
        """The return type when the signature that won does not state one: the return annotation inspect gave
        (with a ``(*args, **kwargs)`` signature), the matching stub's, the docstring's numpydoc Returns section.
        ``candidates``: a function giving the stub lookups."""
        if sig is not None and sig["returns"] is not None:
            return sig
        returns = None
        if sig is not None:
            returns = fallback["returns"] if fallback is not None else None
            if returns is None:
                stub = self._stub_signature(candidates())
                returns = stub["returns"] if stub is not None else None
        if returns is None:
            doc = _safe_getattr(doc_target, "__doc__")
            if isinstance(doc, str):
                if doc not in self._numpydoc_cache:
                    try:
                        self._numpydoc_cache[doc] = numpydoc_returns(doc)
                    except Exception:
                        self._numpydoc_cache[doc] = None
                returns = self._numpydoc_cache[doc]
        if returns is None:
            return sig
        if sig is None:
            # Nothing says what it takes (numpy 1.19's Cython default_rng: no signature line, no stub), its
            # docstring says what it returns: parameters unknown, written (*args, **kwargs).
            return make_signature(
                [make_param("args", VAR_POSITIONAL), make_param("kwargs", VAR_KEYWORD)], returns, "docstring"
            )
        return make_signature(sig["parameters"], returns, sig["source"])

    def _extension_homes(self, obj):
        """Where library extension modules hold ``obj`` itself: [(module, name)]. For C classes and builtins whose
        __module__ names a Python module (torch.device, torch.Graph: 'torch'; their stubs are in torch/_C/)."""
        if isinstance(obj, types.FunctionType):
            return []
        if self._extension_index is None:
            index = {}
            for name in sorted(n for n in list(sys.modules) if self.in_library(n)):
                mod = sys.modules.get(name)
                if not _is_extension_file(mod):
                    continue
                try:
                    items = sorted((kv for kv in mod.__dict__.items() if isinstance(kv[0], str)), key=lambda kv: kv[0])
                except Exception:
                    continue
                for k, v in items:
                    if isinstance(v, (type, types.BuiltinFunctionType)):
                        index.setdefault(id(v), []).append((name, k))
                        self._keep.append(v)
            self._extension_index = index
        return self._extension_index.get(id(obj), [])

    def _owner_candidates(self, obj, qualname):
        """Stub lookups for a builtin whose __module__ does not say where it is defined, found through the class its
        __qualname__ names (torch.add: __module__ 'torch' or None, __qualname__ '_VariableFunctionsClass.add', a
        class of the extension module torch._C): that module's stubs, and every stub of its folder under the
        builtin's own name (torch/_C/_VariableFunctions.pyi: ``def add``)."""
        if isinstance(obj, (types.FunctionType, type)) or not isinstance(qualname, str):
            return []
        if "." not in qualname or "<" in qualname:
            return []
        owner, last = qualname.split(".", 1)[0], qualname.rsplit(".", 1)[1]
        module_name = self._extension_owner(owner)
        if module_name is None:
            return []
        out = self._defining_candidates(module_name, qualname, ())
        for stub_mod in self.stubs.directory_stubs(module_name):
            out.append((stub_mod, [last]))
        return out

    def _extension_owner(self, class_name):
        if class_name in self._owner_modules:
            return self._owner_modules[class_name]
        found = None
        for name in sorted(n for n in list(sys.modules) if self.in_library(n)):
            mod = sys.modules.get(name)
            if not _is_extension_file(mod):
                continue
            try:
                cls = mod.__dict__.get(class_name)
            except Exception:
                cls = None
            if isinstance(cls, type):
                cmod = _safe_getattr(cls, "__module__")
                found = cmod if self.in_library(cmod) else name
                break
        self._owner_modules[class_name] = found
        return found

    def _xref_signature(self, doc_obj, name):
        """Signature of a same-named callable the docstring points to (one level, never recursive)."""
        if self._xref_depth > 0:
            return None
        key = (id(doc_obj), name)
        if key in self._xref_cache:
            return self._xref_cache[key][1]
        doc = _safe_getattr(doc_obj, "__doc__")
        refs = []
        if isinstance(doc, str):
            for m in _XREF_BACKTICK.finditer(doc):
                if m.group(1).rsplit(".", 1)[1] == name:
                    refs.append(m.group(1))
            for m in _XREF_CLASS.finditer(doc):
                refs.append(m.group(1) + "." + name)
        sig = None
        self._xref_depth += 1
        try:
            for ref in refs:
                sig = self._ref_signature(ref, doc_obj)
                if sig is not None:
                    break
        finally:
            self._xref_depth -= 1
        self._keep.append(doc_obj)
        self._xref_cache[key] = (doc_obj, sig)
        return sig

    def _ref_signature(self, ref, doc_obj):
        parts = ref.split(".")
        if parts[0] == self.library:
            parts = parts[1:]
        if not parts:
            return None
        container = self.root
        try:
            for p in parts[:-1]:
                container = getattr(container, p)
        except Exception:
            return None
        last = parts[-1]
        if isinstance(container, type):
            for k in _mro(container):
                d = _class_dict(k)
                if last in d:
                    raw = d[last]
                    if raw is doc_obj or _unwrap_method(raw) is doc_obj or member_kind(raw) != "method":
                        return None
                    if not self.in_library(_safe_getattr(k, "__module__")):
                        return None
                    cmod = _safe_getattr(container, "__module__")
                    cq = _safe_getattr(container, "__qualname__")
                    if not isinstance(cmod, str) or not isinstance(cq, str):
                        return None
                    return self._method_signature(container, last, raw, k, cmod, cq, cmod, cq)
            return None
        if not isinstance(container, types.ModuleType):
            return None
        try:
            target = getattr(container, last)
        except Exception:
            return None
        kind = classify(target)
        if target is doc_obj or kind not in ("function", "class"):
            return None
        if not self.in_library(_safe_getattr(target, "__module__")):
            return None
        return self.object_signature(target, kind, container.__name__, last)

    def class_members(self, cls, public_module, class_name):
        key = id(cls)
        cached = self._members_cache.get(key)
        if cached is not None:
            return cached[1]
        if key in self._members_open:
            return []  # an accessor that leads back to a class being walked
        self._keep.append(cls)
        self._members_open.add(key)
        try:
            members = self._class_members(cls, public_module, class_name)
        finally:
            self._members_open.discard(key)
        self._members_cache[key] = (cls, members)
        return members

    def accessor_class(self, cls, name, raw):
        """The class an accessor stands for: a library descriptor without __set__ or __delete__ that, read on the
        class, gives a library class of its own (pandas' CachedAccessor: Series.str is StringMethods, DataFrame.plot
        PlotAccessor, each instance's accessor an instance of it). None for anything else."""
        if isinstance(raw, (type, staticmethod, classmethod) + _PROPERTY_TYPES):
            return None
        # the descriptor's own class is the library's (functions, builtins and C descriptors are not)
        if not self.in_library(_safe_getattr(type(raw), "__module__")):
            return None
        if not _has_get(raw) or _is_data_descriptor(raw):
            return None
        try:
            value = getattr(cls, name)
        except Exception:
            return None
        if not isinstance(value, type) or value is type(raw) or value is cls:
            return None
        return value if self.in_library(_safe_getattr(value, "__module__")) else None

    def accessor_members(self, accessor, public_module, class_name, name):
        """The members of an accessor's class as members of the class that has the accessor (Series.str.lower)."""
        members = self.class_members(accessor, public_module, class_name + "." + name)
        return [dict(m, name=name + "." + m["name"]) for m in members]

    def _class_members(self, cls, public_module, class_name):
        try:
            names = dir(cls)
        except Exception:
            names = list(_class_dict(cls))
        mro = _mro(cls)
        cls_module = _safe_getattr(cls, "__module__")
        cls_qualname = _safe_getattr(cls, "__qualname__")
        out = []
        for name in sorted(set(n for n in names if isinstance(n, str))):
            if name.startswith("_"):
                continue
            owner = None
            raw = None
            for k in mro:
                d = _class_dict(k)
                try:
                    if name in d:
                        owner, raw = k, d[name]
                        break
                except Exception:
                    continue
            if owner is None:
                try:
                    raw = inspect.getattr_static(cls, name)
                    owner = cls
                except Exception:
                    continue
            owner_module = _safe_getattr(owner, "__module__")
            if owner is not cls and not self.in_library(owner_module):
                continue
            kind = member_kind(raw)
            accessor = self.accessor_class(cls, name, raw) if kind in ("method", "attribute") else None
            if accessor is not None:
                kind = "attribute"  # inspect calls any descriptor without __set__ a routine; this one is no callable
            sig = None
            if kind == "method":
                sig = self._method_signature(cls, name, raw, owner, public_module, class_name, cls_module, cls_qualname)
            elif kind == "class":
                sig = self.object_signature(raw, "class", public_module, class_name + "." + name)
            out.append(
                {
                    "name": name,
                    "kind": kind,
                    "defined_in": owner_module if isinstance(owner_module, str) else public_module,
                    "signature": sig,
                    "doc": self.doc_of(_unwrap_method(raw), "class" if kind == "class" else kind),
                }
            )
            if accessor is not None:
                out.extend(self.accessor_members(accessor, public_module, class_name, name))
        return out

    def _method_signature(self, cls, name, raw, owner, public_module, class_name, cls_module, cls_qualname):
        if isinstance(raw, staticmethod):
            target, drop, doc_target = raw.__func__, False, raw.__func__
        elif isinstance(raw, classmethod):
            target, drop, doc_target = raw.__func__, True, raw.__func__
        elif isinstance(raw, _CLASS_METHOD_DESCRIPTOR):
            try:
                target = getattr(cls, name)  # bound to the class: inspect drops cls itself
            except Exception:
                target = raw
            drop, doc_target = target is raw, raw
        elif isinstance(raw, types.BuiltinFunctionType) or not _has_get(raw):
            target, drop, doc_target = raw, False, raw
        else:
            target, drop, doc_target = raw, True, raw
        sig, fallback = self._runtime_signature(target, drop, doc_target)
        if sig is None or sig["source"] != "inspect":
            ext = self._extension_candidates(cls_module, cls_qualname, (name,))
            if owner is not cls:
                ext += self._extension_candidates(
                    _safe_getattr(owner, "__module__"), _safe_getattr(owner, "__qualname__"), (name,)
                )
            sig = self._with_extension_stub(sig, ext)
        candidates = []

        def stub_candidates():
            if not candidates:
                candidates.extend(self._method_stub_candidates(cls, name, owner, public_module, class_name,
                                                                cls_module, cls_qualname))
            return candidates

        if sig is None:
            sig = self._xref_signature(doc_target, name)
        if sig is None:
            sig = self._stub_signature(stub_candidates())
        if sig is None:
            sig = fallback
        return self._complete_returns(sig, fallback, doc_target, stub_candidates)

    def _method_stub_candidates(self, cls, name, owner, public_module, class_name, cls_module, cls_qualname):
        candidates = [(public_module, [class_name, name])]
        candidates += self._defining_candidates(cls_module, cls_qualname, (name,))
        if owner is not cls:
            candidates += self._defining_candidates(
                _safe_getattr(owner, "__module__"), _safe_getattr(owner, "__qualname__"), (name,)
            )
        for k in (cls, owner) if owner is not cls else (cls,):
            for module_name, attr in self._extension_homes(k):
                candidates.append((module_name, [attr, name]))
                candidates += [(m, [attr, name]) for m in self.stubs.directory_stubs(module_name) if m != module_name]
        return candidates


def module_aliases(records, walked, library, walks=None):
    """(path, real module, exported) of each module record to walk again under its own path: a public path of the
    root package (numpy.emath -> numpy.lib.scimath) or of the public part of the real module's name
    (numpy.testing.extbuild -> numpy.testing._private.extbuild), not walked yet and not under its own name or a
    descendant's. The static extractor's collector picks its aliases by the same rule; ``walks(path, real)``, when
    given, replaces the rule on the parent (the standard-library probe's: what a package lists in ``__all__``)."""
    aliases = []
    for path, rec in sorted(records.items()):
        target = rec["defined_in"]
        if rec["kind"] != "module" or path in walked or path == target:
            continue
        if not is_public_module(path) or path.startswith(target + "."):
            continue
        parent = path.rpartition(".")[0]
        if walks(path, target) if walks else (parent == library or _public_prefix(target) == parent):
            aliases.append((path, target, rec["exported"]))
    return aliases


def unexported_classes_to_walk(owner):
    """(path, class, public module, name, record) of each class seen unexported whose members are still to walk, in
    path order: one path per class (the shortest) unless an exported path already has them, and paths also seen
    exported; every other record of such a class names where the members are as ``members_at``. The static
    extractor's collector walks its classes by the same rule."""
    pending = []
    by_class = {}
    for path, cls, public_module, name in sorted(owner._unwalked_classes, key=lambda t: t[0]):
        rec = owner.records.get(path)
        if rec is None or rec["kind"] != "class":
            continue
        if rec["exported"]:  # the same path also seen exported
            pending.append((path, cls, public_module, name, rec))
            continue
        by_class.setdefault(id(cls), []).append((path, cls, public_module, name, rec))
    for key, items in by_class.items():
        home = owner._walked_classes.get(key)
        if home is None:
            first = min(items, key=lambda t: _path_order(t[0]))
            pending.append(first)
            home = (first[1], first[0])
        for item in items:
            if item[0] != home[1]:
                owner.records[item[0]] = dict(item[4], members_at=home[1])
    return sorted(pending, key=lambda t: t[0])


def keep_collected(owner, staged, classes, public_path):
    """What one module's collection found, kept in ``owner``'s records (the runtime probe, or the static extractor's
    collector, which keeps its records by the same rules): each class it saw is walked under its shortest exported
    path (one seen only unexported waits in ``_unwalked_classes``) unless a record already there stands; a staged
    record is kept where there is none yet, and an exported one replaces an unexported one."""
    for path, cls, walked in classes:
        old = owner.records.get(path)
        if old is not None and not (walked and not old["exported"]):
            continue  # the record already there stands
        if walked:
            key = id(cls)
            if key not in owner._walked_classes or _path_order(path) < _path_order(owner._walked_classes[key][1]):
                owner._walked_classes[key] = (cls, path)
        else:
            owner._unwalked_classes.append((path, cls, public_path, path[len(public_path) + 1:]))
    for path in sorted(staged):
        rec = staged[path]
        old = owner.records.get(path)
        if old is None:
            owner.records[path] = rec
        elif rec["exported"] and not old["exported"]:
            # The same path seen again, exported this time (a submodule: an unexported attribute of its
            # parent, and a public module of its own; torch.multiprocessing.spawn, a function of the package
            # and a module): the exported record replaces the other.
            owner.records[path] = rec


def _path_order(path):
    """Shortest first, then alphabetical: where a class's members are recorded once (``members_at``)."""
    return (path.count("."), path)


def _public_prefix(module_name):
    """``numpy.testing._private.extbuild`` -> ``numpy.testing``: the components before the first private one."""
    out = []
    for part in module_name.split("."):
        if part.startswith("_"):
            break
        out.append(part)
    return ".".join(out)


def _reseed():
    try:
        import random

        random.seed(0)
    except Exception:
        pass
    nprandom = sys.modules.get("numpy.random")
    seed = getattr(nprandom, "seed", None) if nprandom is not None else None
    if callable(seed):
        try:
            seed(0)
        except Exception:
            pass


def _unwrap_method(raw):
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__
    return raw


_SUFFIXES = None


def _machinery_suffixes():
    global _SUFFIXES
    if _SUFFIXES is None:
        try:
            import importlib.machinery

            _SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        except Exception:
            _SUFFIXES = ()
    return _SUFFIXES


def _with_legacy_keyword(target, converted):
    """Old keywords a renaming decorator's wrapper still takes (renamed_keywords.py): pandas ``deprecate_kwarg``,
    matplotlib ``_api.rename_parameter``, scipy ``_rename_parameter``/``_transition_to_rng``. ``inspect`` follows
    ``__wrapped__`` (or an outer decorator's ``__signature__`` computed that way) and misses them. Along the
    ``__wrapped__`` chain (of ``__init__`` for a class), a wrapper whose source looks up one of its closure's
    variables in its ``**kwargs`` takes that variable's value as a keyword."""
    params = converted["parameters"]
    names = set(p["name"] for p in params)
    extra = []
    obj = target.__dict__.get("__init__") if isinstance(target, type) else target
    for _hop in range(10):
        code = getattr(obj, "__code__", None)
        if code is None:
            break
        # functools.wraps copied the wrapped function's names; the code object is still the wrapper's
        for var in _kwargs_lookups(code):
            try:
                value = obj.__closure__[code.co_freevars.index(var)].cell_contents
            except Exception:
                continue
            if isinstance(value, str) and value.isidentifier() and value not in names:
                names.add(value)
                extra.append({"name": value, "kind": "keyword_only", "default": "None"})
        obj = getattr(obj, "__wrapped__", None)
    if not extra:
        return converted
    at = len(params) - 1 if params and params[-1]["kind"] == "var_keyword" else len(params)
    return dict(converted, parameters=params[:at] + extra + params[at:])


_KWARGS_LOOKUPS = {}


def _kwargs_lookups(code):
    """Closure variables a function (its code object) looks up in its ``**kwargs``: read from its source once."""
    if not (code.co_flags & inspect.CO_VARKEYWORDS) or not code.co_freevars:
        return ()
    key = (code.co_filename, code.co_firstlineno, code.co_name)
    if key not in _KWARGS_LOOKUPS:
        found = ()
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(code)))
            defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if defs:
                found = tuple(v for v in keyword_variables(defs[0]) if v in code.co_freevars)
        except (OSError, TypeError, SyntaxError, ValueError, IndexError):
            pass
        _KWARGS_LOOKUPS[key] = found
    return _KWARGS_LOOKUPS[key]


def _wrapped_docstring_signature(obj, drop_self):
    """Docstring signature of what ``obj`` wraps (its ``__wrapped__`` chain, as set by functools.wraps)."""
    seen = set()
    for _ in range(8):
        try:
            inner = inspect.getattr_static(obj, "__wrapped__")
        except Exception:
            return None
        if id(inner) in seen or inner is obj:
            return None
        seen.add(id(obj))
        obj = inner
        sig = docstring_signature(_safe_getattr(obj, "__doc__"), drop_self)
        if sig is not None:
            return sig
    return None


def _is_extension_file(mod):
    """A module loaded from a compiled extension file (.so, .pyd, ...)."""
    f = _safe_getattr(mod, "__file__")
    return isinstance(f, str) and (f.endswith(_EXTENSION_SUFFIXES) or f.endswith(_machinery_suffixes()))
