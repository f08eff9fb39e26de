"""Turn the evaluated modules into surface records, with the runtime walker's rules (walker.py): public names
from ``__all__`` or from the namespace, members of classes, aliases of modules one level below the root."""
import ast
import inspect

from ..served_names import absolute_module, forwarded_modules, served_names
from ..text import doc_summary, REMOVAL_NOTE_TABLES
from ..signatures import signature_lines_consumed, from_inspect
from .. import walker as _runtime_walker
from ..walker import keep_collected, module_aliases, unexported_classes_to_walk  # the runtime walker's rules, shared
from . import stdlib
from .sigs import function_doc
from .values import (
    BoundMethodValue, ClassValue, CompiledValue, ConstValue, ContainerValue, ExternalValue, FunctionValue,
    InstanceValue, ModuleValue, PartialValue, UnknownValue, is_constant_value
)

_PROPERTY_DECORATED = ("property",)


def _summary(doc):
    try:
        return doc_summary(doc, signature_lines_consumed)
    except Exception:
        return None


class Collector(object):
    def __init__(self, extractor):
        self.x = extractor
        self.records = {}
        self.modules = {}
        self.errors = set()
        self._members_cache = {}
        self._members_open = set()  # ids of the classes whose members are being walked (accessors of accessors)

    def collect(self):
        x = self.x
        names = [x.library] + list(getattr(x, "walked", []))
        self._walked_classes = {}  # id(class) -> (class, shortest exported path where its members were walked)
        self._unwalked_classes = []  # (path, class, public module, name) of classes under unexported names
        self._exported_ids = None
        for name in names:
            st = x.modules.get(name)
            ok = st is not None and st.status == "done"
            self.modules[name] = ok
            if not ok:
                err = (st.error if st is not None else None) or "ImportError: module could not be read"
                self.errors.add((name, err))
        for name in sorted(n for n, ok in self.modules.items() if ok):
            try:
                self.collect_module(name, name)
            except RecursionError:
                self.errors.add((name, "static reader: recursion while collecting"))
            except Exception as e:  # a defect of the reader: record it, keep the other modules
                self.errors.add((name, "static reader: %s: %s" % (type(e).__name__, e)))
        self.collect_aliases()
        self.walk_unexported_classes()
        for mod, text in sorted(x.stubs.errors.items()):
            self.errors.add((mod, "stub: " + text))
        return self.records, self.modules, self.errors

    # -- names -----------------------------------------------------------------------------------------------

    def public_names(self, st, public_path):
        """[(name, value, exported)] sorted by name: the ``__all__`` entries (exported), then the other names the
        module binds without a leading underscore (not exported); without ``__all__``, the library's objects,
        submodules and constants are the exported ones."""
        x = self.x
        out = []
        listed = None
        if st.all_ is not None:
            items = set(st.all_.items)
            if not st.all_.complete or getattr(st, "dynamic", False):
                extra = x.stub_all(st.name)
                if extra is not None:
                    x.note(public_path, "__all__ is built at run time: completed from the shipped stub")
                    items |= set(extra)
                    st.all_.complete = True
                    st.all_.problems = []
            for problem in st.all_.problems:
                x.note(public_path, problem)
            if st.all_.complete:
                listed = items
            else:
                x.note(public_path, "__all__ only partly resolved: the module's own names count as exported")
            for name in sorted(items):
                v = x.module_getattr(st.name, name)
                if v is None:
                    self.errors.add((public_path, "unresolved __all__ entry: " + name))
                    continue
                out.append((name, v, True))
        have = set(n for n, _, _ in out)
        for name, v in self.dir_names(st):
            if name in have:
                continue
            exported = listed is None and (self.is_library_object(v) or (
                isinstance(v, CompiledValue) and v.module_attr() is None and id(v) in self.exported_ids()))
            out.append((name, v, exported))
        out.sort(key=lambda t: t[0])
        return out

    def dir_names(self, st):
        """(name, value) of every name ``dir(module)`` would list without a leading underscore."""
        x = self.x
        names = list(st.ns)
        if st.dir_fn is not None:
            v = x.interp.call_function_body(st.dir_fn, [])
            strs = x.interp.strings_of(v) if v is not None else None
            if strs is not None:
                # __dir__ may list lazy names the namespace lacks, and hide names it holds (scipy 1.10's
                # deprecated numpy aliases): both work as attributes
                names = names + list(strs)
        if st.kind in ("compiled", "generated", "stub") or st.open_sources:
            names += [n for n in x.knowledge.compiled_names(st.name) if n not in st.ns]
        if getattr(st, "dynamic", False):
            names += list(x.knowledge.registered_names(st.name))
        # names served through __getattr__ with a DeprecationWarning: __deprecated_attrs__ lists them (numpy)
        if st.getattr_fn is not None and getattr(st.getattr_fn, "node", None) is not None:
            names += served_names(st.getattr_fn.node)  # as the runtime walk reads them (served_names.py)
            for target in forwarded_modules(st.getattr_fn.node):
                names += self.forwarded_names(st, target)
        dep = st.ns.get("__deprecated_attrs__")
        if isinstance(dep, ContainerValue) and dep.type_name == "dict" and dep.keys is not None:
            names += [k for k in dep.keys if isinstance(k, str)]
        for table in REMOVAL_NOTE_TABLES:
            notes = st.ns.get(table)
            for name, note in (getattr(notes, "values", None) or {}).items() if isinstance(notes, ContainerValue) else ():
                if isinstance(name, str) and isinstance(note, ConstValue) and note.known and isinstance(note.value, str):
                    x.removal_notes.setdefault(st.name + "." + name, note.value.strip())
        out = []
        for name in sorted(set(names)):
            if name.startswith("_") or name in st.stub_hidden:
                continue
            v = x.module_getattr(st.name, name)
            if v is None or (isinstance(v, UnknownValue) and getattr(v, "declared", None) is not None):
                continue
            out.append((name, v))
        return out

    def forwarded_names(self, st, target):
        """The public names of the library module ``st``'s ``__getattr__`` forwards to (numpy 2's
        ``numpy.linalg.linalg`` -> ``numpy.linalg._linalg``), as that module's own ``dir`` gives them."""
        x = self.x
        if target[0] == "global":
            v = st.ns.get(target[1])
            name = v.name if isinstance(v, ModuleValue) else None
        else:
            package = st.name if st.is_package else st.name.rpartition(".")[0]
            name, attr = absolute_module(target, package)
            if attr is not None:
                if x.module_exists(name + "." + attr):
                    name = name + "." + attr
                else:
                    v = x.module_getattr(name, attr)
                    name = v.name if isinstance(v, ModuleValue) else None
        active = self.__dict__.setdefault("_forwarding", set())
        if not name or name == st.name or not x.in_library(name) or name in active:
            return []
        target_state = x.load(name)
        if target_state is None or target_state.status != "done":
            return []
        active.add(name)
        try:
            return [n for n, _ in self.dir_names(target_state)]
        finally:
            active.discard(name)

    def is_library_object(self, v):
        x = self.x
        if isinstance(v, ModuleValue):
            return v.library
        if isinstance(v, ConstValue) or is_constant_value(v):
            return True
        m = v.module_attr()
        return isinstance(m, str) and x.in_library(m)

    def is_foreign(self, v, exported):
        """From outside the library (a module, an object its own module holds, a builtin): an opaque attribute."""
        if isinstance(v, ModuleValue):
            return not v.library
        if isinstance(v, ExternalValue):
            return True
        if exported or isinstance(v, ClassValue) or (isinstance(v, CompiledValue) and v.obj_kind == "class"):
            return False
        return not (self.is_library_object(v) or id(v) in self.exported_ids())

    def exported_ids(self):
        """Values some module of the library lists in its ``__all__`` (ufuncs name no module)."""
        if self._exported_ids is None:
            found = {}
            for name in sorted(n for n, ok in self.modules.items() if ok):
                st = self.x.modules.get(name)
                if st is None or st.all_ is None:
                    continue
                for entry in st.all_.items:
                    v = st.ns.get(entry)
                    if v is not None and not isinstance(v, ConstValue):
                        found[id(v)] = v
            self._exported_ids = found
        return self._exported_ids

    # -- records ---------------------------------------------------------------------------------------------

    def record(self, path, kind, defined_in, signature, doc, exported=True):
        return {"path": path, "kind": kind, "defined_in": defined_in, "signature": signature, "doc": doc,
                "exported": exported}

    def collect_module(self, module_name, public_path, module_exported=True):
        x = self.x
        st = x.modules[module_name]
        staged = {}
        classes = []
        doc = st.doc
        bound = st.ns.get("__doc__")
        if isinstance(bound, ConstValue) and bound.known and isinstance(bound.value, str):
            doc = bound.value
        staged[public_path] = self.record(public_path, "module", module_name, None, _summary(doc), module_exported)
        for name, v, exported in self.public_names(st, public_path):
            path = public_path + "." + name
            kind = self.kind_of(v)
            if kind == "module":
                defined_in = v.name if isinstance(v, ModuleValue) else module_name
            else:
                defined_in = self.defined_in(v) or module_name
            if self.is_foreign(v, exported):
                staged[path] = self.record(path, "attribute", defined_in, None, None, exported)
                continue
            sig = None
            if kind in ("function", "class"):
                sig = x.sigs.value_signature(v, kind, public_path, name)
            staged[path] = self.record(path, kind, defined_in, sig, self.doc_of(v, kind), exported)
            if kind == "class":
                classes.append((path, v, exported))
                if not exported:
                    continue  # members later: walk_unexported_classes
                for rec in self.class_members(v, public_path, name):
                    mpath = path + "." + rec["name"]
                    staged[mpath] = self.record(mpath, rec["kind"], rec["defined_in"], rec["signature"], rec["doc"],
                                                exported)
        keep_collected(self, staged, classes, public_path)

    def walk_unexported_classes(self):
        """A class seen only under names that are not exported gets its members once (the shortest such path);
        its other records name that path (or the exported one where the members are) as ``members_at``."""
        for path, cls, public_module, name, rec in unexported_classes_to_walk(self):
            for m in self.class_members(cls, public_module, name):
                mpath = path + "." + m["name"]
                if mpath not in self.records:
                    self.records[mpath] = self.record(mpath, m["kind"], m["defined_in"], m["signature"], m["doc"],
                                                      rec["exported"])

    def collect_aliases(self):
        """Modules the root package shows under another public name (numpy.emath), and private submodules a
        package shows under a public name, are walked under that name too; one level only."""
        x = self.x
        for path, real, exported in module_aliases(self.records, self.modules, x.library):
            if real in x.modules and x.modules[real].status == "done":
                self.collect_module(real, path, exported)
            elif not x.in_library(real):
                self.collect_external_module(real, path)

    def collect_external_module(self, real, public_path):
        """A module of another library under a public name of this one (read from a given surface)."""
        surf = self.x.external.get(real.split(".")[0])
        if surf is None or (surf.record(real) is None and not surf.children.get(real)):
            return
        staged = {}
        rec = surf.record(real)
        staged[public_path] = self.record(public_path, "module", real, None, rec.get("doc") if rec else None)
        allowed = set(surf.alls[real]) if real in surf.alls else None
        for r in surf.subtree(real):
            tail = r["path"][len(real) + 1:]
            if allowed is not None and tail.split(".")[0] not in allowed:
                continue
            p = public_path + r["path"][len(real):]
            staged[p] = self.record(p, r["kind"], r.get("defined_in"), r.get("signature"), r.get("doc"),
                                    r.get("exported", True))
        for p in sorted(staged):
            self.records.setdefault(p, staged[p])

    def kind_of(self, v):
        if isinstance(v, InstanceValue):
            if isinstance(v.cls, ClassValue):
                if self.x.class_member(v.cls, "__call__") is not None:
                    return "function"
                return "attribute"
            if isinstance(v.cls, ExternalValue):
                obj = getattr(v.cls, "obj", None)
                if obj is not None and callable(getattr(obj, "__call__", None)) and hasattr(obj, "__call__") \
                        and "__call__" in _safe_dict_chain(obj):
                    return "function"
            if isinstance(v.cls, CompiledValue):
                return "attribute"
            return "attribute"
        return v.kind()

    def defined_in(self, v):
        if isinstance(v, ExternalValue) and getattr(v, "record", None) is not None:
            return v.record.get("defined_in")
        if isinstance(v, ExternalValue):
            obj = getattr(v, "obj", None)
            if obj is not None:
                m = getattr(obj, "__module__", None)
                if isinstance(m, str):
                    return m
                return None
            return None
        if isinstance(v, (ConstValue, ContainerValue, UnknownValue)):
            return None
        if isinstance(v, InstanceValue):
            return v.module_attr()
        m = v.module_attr()
        return m if isinstance(m, str) else None

    def doc_of(self, v, kind):
        if isinstance(v, FunctionValue):
            if isinstance(v.wrapped_signature, tuple):
                return _summary(function_doc(v.wrapped_signature[1])) or _summary(function_doc(v))
            return _summary(function_doc(v))
        if isinstance(v, ClassValue):
            return _summary(v.doc)
        if isinstance(v, ModuleValue):
            if v.library:
                st = self.x.modules.get(v.name)
                return _summary(st.doc) if st is not None else None
            try:
                return _summary(getattr(stdlib._resolve(v.name), "__doc__", None))
            except LookupError:
                return None
        if isinstance(v, CompiledValue):
            return _summary(v.doc)
        if isinstance(v, BoundMethodValue):
            return _summary(function_doc(v.func)) if isinstance(v.func, FunctionValue) else None
        if isinstance(v, ExternalValue) and getattr(v, "record", None) is not None:
            return v.record.get("doc")
        if isinstance(v, ExternalValue):
            obj = getattr(v, "obj", None)
            if obj is not None and kind in ("function", "class", "module"):
                return _summary(getattr(obj, "__doc__", None))
            return None
        if isinstance(v, PartialValue):
            return _summary("partial(func, *args, **keywords) - new function with partial application\n"
                            "    of the given arguments and keywords.\n")
        return None

    # -- class members ---------------------------------------------------------------------------------------

    def class_members(self, cls, public_module, class_name):
        key = id(cls)
        hit = self._members_cache.get(key)
        if hit is not None:
            return hit[1]
        if key in self._members_open:
            return []  # an accessor that leads back to a class being walked (as the runtime probe)
        self._members_open.add(key)
        try:
            if isinstance(cls, ClassValue):
                out = self._class_members(cls, public_module, class_name)
            elif isinstance(cls, CompiledValue):
                out = self._compiled_members(cls, public_module, class_name)
            elif isinstance(cls, ExternalValue):
                out = self._external_members(cls)
            else:
                out = []
        finally:
            self._members_open.discard(key)
        self._members_cache[key] = (cls, out)
        return out

    def _member_names(self, cls):
        mro = self.x.mro(cls)
        names = {}
        for c in mro:
            if isinstance(c, ClassValue):
                if c.is_enum and c is cls:
                    # dir() of an Enum lists its members (plus the mixed-in type's names)
                    pass
                own = list(c.order) + list(c.slots)
                if c.namedtuple_fields:
                    own += list(c.namedtuple_fields)
                for n in own:
                    if n not in names:
                        names[n] = c
            elif isinstance(c, CompiledValue) and c.members:
                for n in c.members:
                    if n not in names:
                        names[n] = c
            elif isinstance(c, ExternalValue):
                obj = getattr(c, "obj", None)
                if isinstance(obj, type):
                    for n in _safe_dict_chain(obj, own_only=True):
                        if n not in names:
                            names[n] = c
        return names

    def _class_members(self, cls, public_module, class_name):
        x = self.x
        names = self._member_names(cls)
        out = []
        enum_members = set()
        if cls.is_enum:
            enum_members = set(n for n in cls.order if self._enum_member(cls, n))
        for name in sorted(names):
            if name.startswith("_"):
                continue
            owner = names[name]
            if owner is not cls:
                if isinstance(owner, ExternalValue):
                    continue
                if isinstance(owner, (ClassValue, CompiledValue)) and not x.in_library(owner.module_attr() or ""):
                    continue
            if cls.is_enum and owner is cls and name not in enum_members:
                # Python 3.11's Enum dir() shows the members only (methods of the class are not listed)
                continue
            if isinstance(owner, ClassValue):
                if name in owner.ns:
                    raw = owner.ns[name]
                elif owner.namedtuple_fields and name in owner.namedtuple_fields:
                    raw = "__field__"
                else:
                    raw = "__slot__"
            else:
                raw = x.compiled_member(owner, name)
            kind = self.member_kind(raw, name in enum_members)
            sig = None
            if kind in ("method", "class") and raw not in ("__slot__", "__field__"):
                sig = x.sigs.member_signature(cls, name, raw, kind, public_module, class_name)
            defined_in = owner.module_attr() if not isinstance(owner, ExternalValue) else None
            out.append({
                "name": name,
                "kind": kind,
                "defined_in": defined_in if isinstance(defined_in, str) else public_module,
                "signature": sig,
                "doc": self.member_doc(raw, kind),
            })
            if kind == "attribute":
                # an accessor: its class's members are this class's (Series.str.lower), as in the runtime probe
                accessor = x.accessor_class(raw, owner, cls)
                if accessor is not None:
                    members = self.class_members(accessor, public_module, class_name + "." + name)
                    out.extend(dict(m, name=name + "." + m["name"]) for m in members)
        return out

    def _enum_member(self, cls, name):
        v = cls.ns.get(name)
        if name.startswith("_"):
            return False
        if isinstance(v, (FunctionValue, ClassValue)):
            return False
        if isinstance(v, InstanceValue) and isinstance(v.cls, ExternalValue) and v.cls.dotted == "builtins.property":
            return False
        return True

    def member_kind(self, raw, enum_member=False):
        if raw in ("__slot__", "__field__"):
            return "property"
        if enum_member:
            return "attribute"
        if isinstance(raw, FunctionValue):
            if raw.method_kind == "property":
                return "property"
            return "method"
        if isinstance(raw, ClassValue):
            return "class"
        if isinstance(raw, CompiledValue):
            return raw.obj_kind or "attribute"
        if isinstance(raw, InstanceValue):
            if isinstance(raw.cls, ExternalValue) and raw.cls.dotted in ("builtins.property", "functools.cached_property"):
                return "property"
            if isinstance(raw.cls, ClassValue):
                if self.x.class_member(raw.cls, "__call__") is not None:
                    return "method"
                ns = [c for c in self.x.mro(raw.cls) if isinstance(c, ClassValue)]
                if any("__get__" in c.ns for c in ns) and any(("__set__" in c.ns or "__delete__" in c.ns) for c in ns):
                    return "property"
            return "attribute"
        if isinstance(raw, (BoundMethodValue, PartialValue)):
            return "method"
        if isinstance(raw, ExternalValue):
            obj = getattr(raw, "obj", None)
            if obj is not None:
                return _runtime_walker.member_kind(obj)
            return "attribute"
        if isinstance(raw, UnknownValue) and raw.callable_hint:
            return "method"
        return "attribute"

    def member_doc(self, raw, kind):
        if isinstance(raw, FunctionValue):
            return _summary(function_doc(raw))
        if isinstance(raw, ClassValue):
            return _summary(raw.doc)
        if isinstance(raw, CompiledValue):
            return _summary(raw.doc)
        if isinstance(raw, ExternalValue) and kind in ("method", "class", "property"):
            obj = getattr(raw, "obj", None)
            return _summary(getattr(obj, "__doc__", None)) if obj is not None else None
        return None

    def _compiled_members(self, cls, public_module, class_name):
        x = self.x
        names = self._member_names(cls)
        out = []
        for name in sorted(names):
            if name.startswith("_"):
                continue
            owner = names[name]
            if isinstance(owner, ExternalValue):
                continue
            if isinstance(owner, ClassValue):
                raw = owner.ns.get(name)
                kind = self.member_kind(raw)
            else:
                raw = x.compiled_member(owner, name)
                kind = raw.obj_kind or "attribute"
            sig = None
            if kind in ("method", "class"):
                sig = x.sigs.member_signature(cls, name, raw, kind, public_module, class_name)
            d = owner.module_attr()
            out.append({"name": name, "kind": kind, "defined_in": d if isinstance(d, str) else public_module,
                        "signature": sig, "doc": self.member_doc(raw, kind)})
        return out

    def _external_members(self, cls):
        rec = getattr(cls, "record", None)
        if rec is not None:
            surf = self.x.external.get(cls.dotted.split(".")[0])
            out = []
            for m in (surf.members(cls.dotted) if surf is not None else []):
                out.append({"name": m["path"].rsplit(".", 1)[1], "kind": m["kind"], "defined_in": m.get("defined_in"),
                            "signature": m.get("signature"), "doc": m.get("doc")})
            return out
        # classes of the standard library: their members depend on the interpreter, not on the library
        obj = None
        if not isinstance(obj, type):
            return []
        out = []
        own = _safe_dict_chain(obj, own_only=True)
        for name in sorted(own):
            if name.startswith("_"):
                continue
            raw = own[name]
            kind = _runtime_walker.member_kind(raw)
            sig = None
            if kind == "method":
                target = raw.__func__ if isinstance(raw, (staticmethod, classmethod)) else raw
                try:
                    sig = from_inspect(inspect.signature(target), not isinstance(raw, staticmethod))
                except Exception:
                    sig = None
            m = getattr(obj, "__module__", None)
            out.append({"name": name, "kind": kind, "defined_in": m if isinstance(m, str) else None,
                        "signature": sig, "doc": _summary(getattr(raw if not isinstance(raw, (staticmethod, classmethod)) else raw.__func__, "__doc__", None)) if kind in ("method", "property", "class") else None})
        return out


def _safe_dict_chain(obj, own_only=False):
    try:
        d = dict(type.__dict__["__dict__"].__get__(obj))
    except Exception:
        return {}
    return d
