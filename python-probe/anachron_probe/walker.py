"""Walk a library's public modules and collect API records keyed by public import path."""
import functools
import importlib
import inspect
import os
import pkgutil
import re
import sys
import types

from .signatures import docstring_signature, from_inspect, inspect_signature, is_meaningless, signature_lines_consumed
from .stubs import StubIndex
from .text import doc_summary, error_text

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
        self.stubs = None
        self.root = None
        self._sig_cache = {}
        self._stub_cache = {}
        self._members_cache = {}
        self._doc_cache = {}
        self._xref_cache = {}
        self._xref_depth = 0
        self._keep = []  # keep objects alive while their id() is a cache key

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

    def _collect_module_guarded(self, module_name, module, public_path):
        staged = {}
        _, err = self.guard.run(self._collect_module, module_name, module, public_path, staged)
        if err:
            self.error(module_name if module_name == public_path else public_path, "collect: " + err)
            return
        for path in sorted(staged):
            self.records.setdefault(path, staged[path])

    def _collect_aliases(self):
        """Modules the root package exposes under another public name (numpy.emath -> numpy.lib.scimath,
        numpy.char -> numpy.core.defchararray) are walked under that name too. One level only."""
        aliases = []
        for path, rec in sorted(self.records.items()):
            if rec["kind"] != "module" or path in self.modules or path == rec["defined_in"]:
                continue
            if not is_public_module(path):
                continue
            parent, _, name = path.rpartition(".")
            if parent == self.library:
                aliases.append(path)
        for path in aliases:
            parent, _, name = path.rpartition(".")
            try:
                mod = getattr(self.module_objects[parent], name)
            except Exception:
                continue
            self._collect_module_guarded(_safe_getattr(mod, "__name__", path), mod, path)

    # -- public names --------------------------------------------------------------------------------------------

    def public_names(self, module_name, module, public_path):
        try:
            mdict = module.__dict__
        except Exception:
            mdict = {}
        all_ = mdict.get("__all__")
        if all_ is not None:
            try:
                entries = sorted(set(x for x in list(all_) if isinstance(x, str)))
            except Exception as e:
                self.error(public_path, "__all__: " + error_text(e))
                entries = None
            if entries is not None:
                out = []
                for name in entries:
                    try:
                        obj = getattr(module, name)
                    except AttributeError:
                        self.error(public_path, "unresolved __all__ entry: " + name)
                        continue
                    except Exception as e:
                        self.error(public_path, "__all__ entry %s: %s" % (name, error_text(e)))
                        continue
                    out.append((name, obj))
                return out
        try:
            names = dir(module)
        except Exception as e:
            self.error(public_path, "dir: " + error_text(e))
            names = list(mdict)
        out = []
        for name in sorted(set(n for n in names if isinstance(n, str))):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(module, name)
            except Exception:
                continue
            if self.is_library_object(obj):
                out.append((name, obj))
        return out

    def is_library_object(self, obj):
        if isinstance(obj, types.ModuleType):
            return self.in_library(_safe_getattr(obj, "__name__"))
        if is_constant(obj):
            return True
        return self.in_library(_safe_getattr(obj, "__module__"))

    # -- records -------------------------------------------------------------------------------------------------

    def _collect_module(self, module_name, module, public_path, staged):
        staged[public_path] = self.record(
            public_path, "module", module_name, None, self.doc_of(module, "module")
        )
        for name, obj in self.public_names(module_name, module, public_path):
            path = public_path + "." + name
            kind = classify(obj)
            if kind == "module":
                defined_in = _safe_getattr(obj, "__name__", module_name)
            else:
                defined_in = _safe_getattr(obj, "__module__")
                if not isinstance(defined_in, str):
                    defined_in = module_name
            sig = None
            if kind in ("function", "class"):
                sig = self.object_signature(obj, kind, public_path, name)
            staged[path] = self.record(path, kind, defined_in, sig, self.doc_of(obj, kind))
            if kind == "class":
                for rec in self.class_members(obj, public_path, name):
                    mpath = path + "." + rec["name"]
                    staged[mpath] = self.record(mpath, rec["kind"], rec["defined_in"], rec["signature"], rec["doc"])

    @staticmethod
    def record(path, kind, defined_in, signature, doc):
        return {"path": path, "kind": kind, "defined_in": defined_in, "signature": signature, "doc": doc}

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
            result = (dsig, fallback)
        self._sig_cache[key] = (target, result)
        return result

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

    def object_signature(self, obj, kind, public_module, name):
        sig, fallback = self._runtime_signature(obj, False)
        if sig is not None:
            return sig
        sig = self._xref_signature(obj, name.rsplit(".", 1)[-1])
        if sig is not None:
            return sig
        qualname = _safe_getattr(obj, "__qualname__") or _safe_getattr(obj, "__name__")
        candidates = [(public_module, [name])]
        candidates += self._defining_candidates(_safe_getattr(obj, "__module__"), qualname, ())
        if isinstance(qualname, str) and qualname != name:
            candidates.append((public_module, [qualname]))
        sig = self._stub_signature(candidates)
        return sig if sig is not None else fallback

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
        self._keep.append(cls)
        members = self._class_members(cls, public_module, class_name)
        self._members_cache[key] = (cls, members)
        return members

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
        return out

    def _method_signature(self, cls, name, raw, owner, public_module, class_name, cls_module, cls_qualname):
        if isinstance(raw, staticmethod):
            target, drop, doc_target = raw.__func__, False, raw.__func__
        elif isinstance(raw, classmethod):
            target, drop, doc_target = raw.__func__, True, raw.__func__
        elif isinstance(raw, types.ClassMethodDescriptorType):
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
        if sig is not None:
            return sig
        sig = self._xref_signature(doc_target, name)
        if sig is not None:
            return sig
        candidates = [(public_module, [class_name, name])]
        candidates += self._defining_candidates(cls_module, cls_qualname, (name,))
        if owner is not cls:
            candidates += self._defining_candidates(
                _safe_getattr(owner, "__module__"), _safe_getattr(owner, "__qualname__"), (name,)
            )
        sig = self._stub_signature(candidates)
        return sig if sig is not None else fallback


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
