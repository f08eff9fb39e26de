"""A small abstract interpreter of module bodies: imports, assignments, ``__all__`` manipulations, definitions,
conditions and try/except, evaluated the way CPython on Linux would run them, without importing anything of the
library. Names bound to what the reader cannot evaluate become ``UnknownValue``; what it had to decide or could
not resolve is written to ``notes`` (the surface's ``errors``)."""
import ast

from ..ast_names import absolute_import, dotted_name
from .values import (
    BoundMethodValue, ClassValue, CompiledValue, ConstValue, ContainerValue, ExternalValue, FunctionValue,
    InstanceValue, ModuleValue, PartialValue, UnknownValue, Value
)
from . import stdlib

MAX_UNROLL = 3000
MAX_DEPTH = 60


class Raise(Exception):
    """An exception the evaluated code would raise at import time (``ImportError``, ``NameError``...)."""

    def __init__(self, type_name, message):
        Exception.__init__(self, message)
        self.type_name = type_name
        self.message = message


class Return(Exception):
    def __init__(self, value):
        Exception.__init__(self)
        self.value = value


_EXCEPTION_PARENTS = {
    "ModuleNotFoundError": ("ImportError", "Exception", "BaseException"),
    "ImportError": ("Exception", "BaseException"),
    "NameError": ("Exception", "BaseException"),
    "AttributeError": ("Exception", "BaseException"),
    "KeyError": ("LookupError", "Exception", "BaseException"),
    "RuntimeError": ("Exception", "BaseException"),
    "Other": ("Exception", "BaseException"),
}


def _matches(type_name, handler_names):
    if not handler_names:
        return True  # bare except
    family = (type_name,) + _EXCEPTION_PARENTS.get(type_name, ("Exception", "BaseException"))
    return any(h in family for h in handler_names)


class AllList(object):
    """The value of ``__all__`` as far as it could be evaluated."""

    def __init__(self, items=None, complete=True):
        self.items = list(items or [])
        self.complete = complete
        self.problems = []


class ModuleState(object):
    def __init__(self, name, path, is_package, kind, text=None):
        self.name = name
        self.path = path  # file in the tree (None for compiled / generated modules)
        self.is_package = is_package
        self.kind = kind  # 'py' | 'stub' | 'compiled' | 'generated' | 'pyx'
        self.text = text
        self.ns = {}
        self.order = []
        self.all_ = None  # AllList or None
        self.status = "new"  # new | running | done | failed
        self.error = None
        self.open_sources = []  # compiled/external modules star-imported: (module name, library?)
        self.source = None  # signatures.Source
        self.doc = None
        self.getattr_fn = None
        self.dir_fn = None
        self.stub_hidden = set()
        self.loaded_children = set()

    def bind(self, name, value):
        if name not in self.ns:
            self.order.append(name)
        self.ns[name] = value

    def unbind(self, name):
        if name in self.ns:
            del self.ns[name]
            self.order.remove(name)
            return True
        return False


class Scope(object):
    """Where names are bound while a body executes: a module, a class body, or a function body."""

    def __init__(self, interp, module, cls=None, local=None, qualprefix=""):
        self.interp = interp
        self.module = module  # ModuleState (globals)
        self.cls = cls  # ClassValue for a class body
        self.local = local  # dict for a function body
        self.qualprefix = qualprefix

    def lookup(self, name):
        if self.local is not None and name in self.local:
            return self.local[name]
        if self.cls is not None and name in self.cls.ns:
            return self.cls.ns[name]
        if name == "__all__" and self.module.all_ is not None:
            return self.interp.module_all_value(self.module.name)
        if name in self.module.ns:
            return self.module.ns[name]
        if name == "__name__":
            return ConstValue(self.module.name)
        if name == "__file__":
            return _unknown_const(str)
        if name == "__package__":
            m = self.module
            return ConstValue(m.name if m.is_package else m.name.rpartition(".")[0])
        if name == "__doc__":
            return ConstValue(self.module.doc)
        return self.interp.builtin(name, self.module)

    def bind(self, name, value):
        if self.local is not None:
            self.local[name] = value
        elif self.cls is not None:
            self.cls.bind(name, value)
        else:
            self.module.bind(name, value)
            if name == "__all__":
                self.module.all_ = self.interp.as_all(value, self)

    def unbind(self, name):
        if self.local is not None:
            return self.local.pop(name, None) is not None
        if self.cls is not None:
            if name in self.cls.ns:
                del self.cls.ns[name]
                self.cls.order.remove(name)
                return True
            return False
        if name == "__all__":
            self.module.all_ = None
        return self.module.unbind(name)

    @property
    def is_module(self):
        return self.local is None and self.cls is None


class Interp(object):
    def __init__(self, extractor):
        self.x = extractor  # the Extractor: modules, tree, knowledge, notes
        self.library = extractor.library
        self.depth = 0
        self.installing = frozenset()  # ids of the classes a module-level call is installing members on

    # -- notes -----------------------------------------------------------------------------------------------

    def note(self, module, text):
        self.x.note(module.name if isinstance(module, ModuleState) else module, text)

    def builtin(self, name, module):
        if stdlib.is_builtin_name(name):
            return stdlib.external_value("builtins." + name)
        for src, is_lib in module.open_sources:
            v = self.x.open_lookup(src, is_lib, name)
            if v is not None:
                return v
        return None

    # -- modules ---------------------------------------------------------------------------------------------

    def run_module(self, state):
        """Execute a module body (called by the extractor's loader)."""
        tree = self.x.parse(state)
        if tree is None:
            return
        state.doc = ast.get_docstring(tree, clean=False) if isinstance(tree, ast.Module) else None
        state.mutating_defs = _defs_mutating_globals(tree, state.text)
        scope = Scope(self, state)
        self.exec_body(tree.body, scope)

    # -- statements ------------------------------------------------------------------------------------------

    def exec_body(self, body, scope):
        for stmt in body:
            self.exec_stmt(stmt, scope)

    def exec_stmt(self, node, scope):
        m = getattr(self, "_s_" + type(node).__name__, None)
        if m is not None:
            m(node, scope)

    def _stub_hide(self, scope, name, hidden):
        if scope.is_module and scope.module.kind == "stub":
            if hidden:
                scope.module.stub_hidden.add(name)
            else:
                scope.module.stub_hidden.discard(name)

    def _s_Import(self, node, scope):
        for alias in node.names:
            name = alias.name
            self._stub_hide(scope, alias.asname or name.split(".")[0], alias.asname != name)
            mod = self.import_module(name, scope)
            if alias.asname:
                scope.bind(alias.asname, mod)
            else:
                top = name.split(".")[0]
                if top == name:
                    scope.bind(top, mod)
                else:
                    scope.bind(top, self.module_value(top))

    def _resolve_relative(self, scope, module, level):
        return absolute_import(scope.module.name, scope.module.is_package, module, level) or ""

    def _s_ImportFrom(self, node, scope):
        modname = self._resolve_relative(scope, node.module, node.level or 0)
        if modname == "__future__":
            # ``from __future__ import annotations`` binds a _Feature object in the module
            for alias in node.names:
                scope.bind(alias.asname or alias.name, self.x.external_value("__future__." + alias.name))
            return
        mod = self.import_module(modname, scope)
        for alias in node.names:
            if alias.name == "*":
                self.star_import(mod, scope)
                continue
            value = self.import_from(mod, alias.name, scope)
            scope.bind(alias.asname or alias.name, value)
            # stubs re-export only ``import x as x``
            self._stub_hide(scope, alias.asname or alias.name, alias.asname != alias.name)

    def module_value(self, name):
        return ModuleValue(name, self.x.in_library(name))

    def import_module(self, name, scope):
        """``import name``: loads library modules (and their parents); raises ImportError for unavailable ones."""
        if self.x.in_library(name):
            state = self.x.load(name, importer=scope.module)
            if (state is None or state.status == "failed") and self.x.stub_mode:
                return ModuleValue(name, True)
            if state is None or state.status == "failed":
                why = state.error if state is not None and state.error else "No module named %r" % name
                raise Raise("ImportError", why)
            return ModuleValue(name, True)
        if (name == "cython" or name.startswith("cython.")) and scope.module.kind == "pyx":
            return ModuleValue(name, False)  # Cython's compile-time modules (``from cython.parallel import prange``)
        if not self.x.external_available(name) and scope.module.kind != "stub" and not self.x.stub_mode:
            raise Raise("ModuleNotFoundError", "No module named %r" % name)
        why = self.x.external_python_condition(name)
        if why and not self.x.stub_mode:
            self.x.mark_python_conditional(scope.module.name, why)
        return ModuleValue(name, False)

    def import_from(self, mod, name, scope):
        if mod.library:
            value = self.x.module_getattr(mod.name, name)
            if value is None:
                sub = mod.name + "." + name
                if self.x.module_exists(sub):
                    return self.import_module(sub, scope)
                if scope.module.kind == "stub" or self.x.stub_mode:
                    return UnknownValue("stub import %s.%s" % (mod.name, name))
                st = self.x.modules.get(mod.name)
                # The release imports consistently: a name the reader did not find in one of its own modules is
                # one it could not follow (compiled code, dynamic globals), not a failing import.
                self.note(scope.module, "from %s import %s: name not found by the reader" % (mod.name, name))
                return UnknownValue("unresolved import %s.%s" % (mod.name, name), mod.name)
            return value
        return self.x.external_value(mod.name + "." + name)

    def star_import(self, mod, scope):
        if not mod.library:
            names = self.x.external_star_names(mod.name)
            if names is None:
                scope.module.open_sources.append((mod.name, False))
                return
            for n in names:
                scope.bind(n, self.x.external_value(mod.name + "." + n))
            return
        state = self.x.modules.get(mod.name)
        if state is None:
            return
        if state.kind in ("compiled", "generated") and not state.ns:
            scope.module.open_sources.append((mod.name, True))
        names = self.x.star_names(state)
        for n in names:
            v = self.x.module_getattr(mod.name, n)
            if v is not None:
                scope.bind(n, v)
        if state.open_sources and state.all_ is None:
            for src in state.open_sources:
                if src not in scope.module.open_sources:
                    scope.module.open_sources.append(src)

    def _s_Assign(self, node, scope):
        # ``__all__`` list methods come as Expr; here: plain and tuple assignments, attribute assignments.
        value_node = node.value
        for target in node.targets:
            self.assign(target, value_node, scope)

    def _s_AnnAssign(self, node, scope):
        if scope.cls is not None and isinstance(node.target, ast.Name):
            scope.cls.annotations.append((node.target.id, node.annotation, node.value))
        if node.value is None:
            if scope.module.kind == "stub" and isinstance(node.target, ast.Name):
                # a stub declares a variable: it exists at runtime
                ann = dotted_name(node.annotation.value if isinstance(node.annotation, ast.Subscript)
                                  else node.annotation) or ""
                last = ann.split(".")[-1]
                if last in ("int", "float", "str", "bytes", "bool", "complex", "Final", "Literal", "L"):
                    v = _unknown_const(str)
                else:
                    v = UnknownValue("declared in stub")
                    v.declared = ann
                if scope.cls is not None:
                    if node.target.id not in scope.cls.ns:
                        scope.cls.bind(node.target.id, v)
                elif scope.is_module:
                    scope.bind(node.target.id, v)
            return
        vt = _annotated_value_type(node.annotation)
        if vt is not None and isinstance(node.target, ast.Name):
            v = self.eval(node.value, scope)
            if isinstance(v, UnknownValue):
                v = ContainerValue("dict", None, None, False)
            if isinstance(v, ContainerValue):
                v.value_type = vt
            self.assign(node.target, None, scope, v)
            return
        self.assign(node.target, node.value, scope)

    def assign(self, target, value_node, scope, value=None):
        if isinstance(target, ast.Name):
            if value is None:
                value = self.eval(value_node, scope)
            self._stub_hide(scope, target.id, not isinstance(value, (ConstValue, FunctionValue, ClassValue,
                                                                       ModuleValue, CompiledValue)))
            scope.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = None
            if value is None and isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(
                target.elts
            ):
                for t, v in zip(target.elts, value_node.elts):
                    self.assign(t, v, scope)
                return
            if value is None:
                value = self.eval(value_node, scope)
            if isinstance(value, ContainerValue) and value.items is not None:
                items = value.items
            elif isinstance(value, ConstValue) and isinstance(value.value, tuple):
                items = [ConstValue(v) for v in value.value]
            for i, t in enumerate(target.elts):
                if isinstance(t, ast.Starred):
                    self.assign(t.value, None, scope, ContainerValue("list", None, complete=False))
                    continue
                v = items[i] if items is not None and i < len(items) else UnknownValue("unpacked")
                self.assign(t, None, scope, v)
        elif isinstance(target, ast.Attribute):
            self.assign_attribute(target, value_node, scope, value)
        elif isinstance(target, ast.Subscript):
            self.assign_subscript(target, value_node, scope, value)

    def assign_attribute(self, target, value_node, scope, value):
        base = self.eval(target.value, scope)
        attr = target.attr
        if attr == "__module__":
            v = value if value is not None else self.eval(value_node, scope)
            if isinstance(v, ConstValue) and isinstance(v.value, str):
                if isinstance(base, (FunctionValue, ClassValue)):
                    base.module_override = v.value
                elif isinstance(base, CompiledValue):
                    base.defined_in = v.value
            return
        if attr == "__doc__" and isinstance(base, (FunctionValue, ClassValue)):
            v = value if value is not None else self.eval(value_node, scope)
            if isinstance(v, ConstValue) and v.known and isinstance(v.value, str):
                if isinstance(base, FunctionValue):
                    base.doc_override = v.value
                else:
                    base.doc = v.value
            return
        if attr in ("__doc__", "__name__", "__qualname__", "__signature__", "__text_signature__"):
            return
        if isinstance(base, ModuleValue) and base.library and scope.is_module:
            # ``sys.modules[__name__].x = ...`` is rare; ``module.x = ...`` on a library module rebinds its name.
            st = self.x.modules.get(base.name)
            if st is not None and st is not scope.module:
                st.bind(attr, value if value is not None else self.eval(value_node, scope))
        elif isinstance(base, ClassValue) and (scope.is_module or id(base) in self.installing):
            base.bind(attr, value if value is not None else self.eval(value_node, scope))

    def assign_subscript(self, target, value_node, scope, value):
        # globals()[name] = value, also through a name bound to globals()
        t = target.value
        if isinstance(t, ast.Name):
            base = scope.lookup(t.id)
            st = getattr(base, "module_state", None) if isinstance(base, ContainerValue) else None
            if st is not None:
                key = self.eval(target.slice if not isinstance(target.slice, ast.Index) else target.slice.value, scope)
                if isinstance(key, ConstValue) and isinstance(key.value, str) and key.known:
                    st.bind(key.value, value if value is not None else self.eval(value_node, scope))
                else:
                    st.dynamic = True
                    self.note(scope.module, "dynamic global assignment at line %d not resolved" % target.lineno)
                return
        if isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id in ("globals", "vars", "locals"):
            key = self.eval(target.slice if not isinstance(target.slice, ast.Index) else target.slice.value, scope)
            if isinstance(key, ConstValue) and isinstance(key.value, str):
                scope.bind(key.value, value if value is not None else self.eval(value_node, scope))
            else:
                scope.module.dynamic = True
                self.note(scope.module, "dynamic global assignment at line %d not resolved" % target.lineno)
            return
        # d[k] = v on a dict whose keys are known: one more key; otherwise its contents are no longer known
        if isinstance(t, ast.Name):
            base = scope.lookup(t.id)
            if isinstance(base, ContainerValue) and base.type_name == "dict" and base.complete and \
                    base.keys is not None and getattr(base, "module_state", None) is None:
                key = self.eval(target.slice if not isinstance(target.slice, ast.Index) else target.slice.value, scope)
                if isinstance(key, ConstValue) and key.known:
                    if key.value not in base.keys:
                        base.keys.append(key.value)
                    if getattr(base, "values", None) is None:
                        base.values = {}
                    base.values[key.value] = value if value is not None else self.eval(value_node, scope)
                    return
        self._mutated(t, scope)

    def _mutated(self, node, scope):
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        if isinstance(node, ast.Name):
            v = scope.lookup(node.id)
            if isinstance(v, ContainerValue) and getattr(v, "module_state", None) is None:
                v.complete = False

    def _s_AugAssign(self, node, scope):
        if isinstance(node.target, ast.Name):
            name = node.target.id
            cur = scope.lookup(name)
            if name == "__all__" and scope.is_module:
                other = self.eval(node.value, scope)
                cur_all = scope.module.all_ or AllList([], False)
                if isinstance(node.op, ast.Add):
                    self.all_extend(cur_all, other, scope, node)
                else:
                    cur_all.complete = False
                scope.module.all_ = cur_all
                scope.module.bind("__all__", ContainerValue("list", [ConstValue(s) for s in cur_all.items]))
                return
            other = self.eval(node.value, scope)
            scope.bind(name, self.binop(cur, node.op, other))

    def _s_Expr(self, node, scope):
        v = node.value
        if isinstance(v, ast.Call):
            self.exec_call_stmt(v, scope)
        elif isinstance(v, ast.Name) and scope.is_module and scope.module.kind == "py":
            if scope.lookup(v.id) is None and not scope.module.open_sources:
                raise Raise("NameError", "name %r is not defined" % v.id)

    def exec_call_stmt(self, call, scope):
        f = call.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "__all__" and scope.is_module:
            all_ = scope.module.all_
            if all_ is None:
                all_ = AllList([], False)
                scope.module.all_ = all_
            meth = f.attr
            args = [self.eval(a, scope) for a in call.args]
            if meth == "extend" and args:
                self.all_extend(all_, args[0], scope, call)
            elif meth == "append" and args:
                s = self.str_of(args[0])
                if s is None:
                    all_.complete = False
                    all_.problems.append("__all__.append at line %d not resolved" % call.lineno)
                else:
                    all_.items.append(s)
            elif meth == "remove" and args:
                s = self.str_of(args[0])
                if s is not None and s in all_.items:
                    all_.items.remove(s)
                elif s is None:
                    all_.problems.append("__all__.remove at line %d not resolved" % call.lineno)
            elif meth == "insert" and len(args) > 1:
                s = self.str_of(args[1])
                if s is not None:
                    all_.items.append(s)
            elif meth in ("sort", "reverse"):
                pass
            else:
                all_.complete = False
            return
        # globals().update({...}) / dict
        if isinstance(f, ast.Attribute) and f.attr == "update" and isinstance(f.value, ast.Call):
            inner = f.value.func
            if isinstance(inner, ast.Name) and inner.id in ("globals", "vars") and scope.is_module:
                self.note(scope.module, "globals().update at line %d not resolved" % call.lineno)
                return
        if isinstance(f, ast.Attribute) and f.attr == "update" and isinstance(f.value, ast.Name) and \
                len(call.args) == 1 and not call.keywords:
            base = scope.lookup(f.value.id)
            arg = self.eval(call.args[0], scope)
            if isinstance(base, ContainerValue) and base.type_name == "dict" and base.complete and \
                    base.keys is not None and getattr(base, "module_state", None) is None and \
                    isinstance(arg, ContainerValue) and arg.type_name == "dict" and arg.complete and \
                    arg.keys is not None:
                if getattr(base, "values", None) is None:
                    base.values = {}
                for k in arg.keys:
                    if k not in base.keys:
                        base.keys.append(k)
                    base.values[k] = (getattr(arg, "values", None) or {}).get(k, UnknownValue("dict value"))
                return
        if isinstance(f, ast.Attribute) and f.attr in _MUTATORS:
            self._mutated(f.value, scope)
        func = self.eval(f, scope)
        hook = self.x.knowledge.call_statement(self, func, call, scope)
        if hook:
            return
        if isinstance(func, FunctionValue) and (scope.is_module or self._on_installing(func, f, scope)):
            # at module level, or a classmethod of a class being installed on called from the installing body
            # (``cls._add_delegate_accessors(delegate, names, typ, overwrite=overwrite)`` in a class decorator)
            self.install_members(func, f, call, scope)
        if isinstance(func, FunctionValue) and scope.is_module and isinstance(func.node, (ast.FunctionDef,
                                                                                          ast.AsyncFunctionDef)):
            # a module-level call of a library function: containers of the module it fills are no longer known
            for n in ast.walk(func.node):
                target = None
                if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del)):
                    target = n.value
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MUTATORS:
                    target = n.func.value
                if isinstance(target, ast.Name) and target.id in scope.module.ns:
                    v = scope.module.ns[target.id]
                    if isinstance(v, ContainerValue) and getattr(v, "module_state", None) is None:
                        v.complete = False
        if isinstance(func, ExternalValue) and func.dotted in ("builtins.setattr",) and len(call.args) == 3:
            target = self.eval(call.args[0], scope)
            key = self.eval(call.args[1], scope)
            if isinstance(key, ConstValue) and isinstance(key.value, str):
                if isinstance(target, ModuleValue) and target.library:
                    st = self.x.modules.get(target.name)
                    if st is not None:
                        st.bind(key.value, self.eval(call.args[2], scope))
                elif isinstance(target, ClassValue):
                    target.bind(key.value, self.eval(call.args[2], scope))

    def install_members(self, func, f, call, scope):
        """A module-level call that installs members on library classes: ``DataFrame._add_numeric_operations()``
        (a classmethod whose body does ``cls.sum = make(...)``), ``install(SomeClass)``. The function's body runs
        with those classes bound, and its ``cls.name = value`` assignments are the classes' members, as far as the
        body is decided (what follows an undecided statement is not read)."""
        args = []
        if isinstance(f, ast.Attribute) and func.method_kind == "class":
            owner = self.eval(f.value, scope)
            if not isinstance(owner, ClassValue):
                return
            args.append(owner)
        if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
            return
        try:
            args += [self.eval(a, scope) for a in call.args]
            keywords = {k.arg: self.eval(k.value, scope) for k in call.keywords}
        except (Raise, Return):
            return
        classes = [a for a in args if isinstance(a, ClassValue) and self.x.in_library(a.module_attr() or "")]
        if not classes:
            return
        saved = self.installing
        self.installing = saved | set(id(c) for c in classes)
        try:
            self._call_function_body(func, args, keywords)
        finally:
            self.installing = saved

    def _on_installing(self, func, f, scope):
        """Is ``f`` (a call's function) a classmethod reached through a class that is being installed on?"""
        if not self.installing or func.method_kind != "class" or not isinstance(f, ast.Attribute):
            return False
        try:
            owner = self.eval(f.value, scope)
        except (Raise, Return):
            return False
        return isinstance(owner, ClassValue) and id(owner) in self.installing

    def class_has(self, cls, name):
        """``hasattr(cls, name)`` for a library class whose members are being installed: True when the class or a
        base has it, False when every class of its MRO is the library's (or a standard-library one without it),
        else None. Deciding it is safe there: either way the name is the class's afterwards."""
        if self.x.class_member(cls, name) is not None:
            return True
        for c in self.x.mro(cls):
            if isinstance(c, ExternalValue):
                r = stdlib.has_attr(c.dotted, name)
                if r is not False:
                    return r
            elif not isinstance(c, ClassValue):
                return None
        return False

    def _s_FunctionDef(self, node, scope):
        qual = scope.qualprefix + node.name
        fv = FunctionValue(node, scope.module.name, qual, scope.module.source, scope.module)
        if scope.module.kind == "pyx":
            fv.cython_binding = self.x.cython_binding(scope.module)
        if scope.module.kind == "stub":
            fv.stub_module = scope.module.name
            prev = scope.cls.ns.get(node.name) if scope.cls is not None else (
                scope.local.get(node.name) if scope.local is not None else scope.module.ns.get(node.name))
            if isinstance(prev, FunctionValue) and prev.stub_module and getattr(prev.node, "name", None) == node.name:
                if _is_overload(node) or getattr(prev, "overload_nodes", None) or _is_overload(prev.node):
                    fv.overload_nodes = (getattr(prev, "overload_nodes", None) or [prev.node]) + [node]
                    if prev.method_kind and not fv.decorators:
                        fv.method_kind = prev.method_kind
        if scope.local is not None:
            fv.closure = scope.local
        value = self.decorate_function(fv, node.decorator_list, scope)
        scope.bind(node.name, value)
        self._stub_hide(scope, node.name, _type_check_only(node))
        if scope.is_module and node in getattr(scope.module, "mutating_defs", ()):
            scope.module.dynamic = True
        if scope.is_module and node.name == "__getattr__":
            scope.module.getattr_fn = fv
        if scope.is_module and node.name == "__dir__":
            scope.module.dir_fn = fv

    _s_AsyncFunctionDef = _s_FunctionDef

    def _s_ClassDef(self, node, scope):
        qual = scope.qualprefix + node.name
        cv = ClassValue(node, scope.module.name, qual, scope.module.source, scope.module)
        cv.doc = ast.get_docstring(node, clean=False)
        for b in node.bases:
            base = self.eval(b, scope)
            if isinstance(b, ast.Subscript) and not isinstance(base, (ClassValue, ExternalValue)):
                # class Frame(Base[T]): the generic alias's __mro_entries__ makes Base itself the base
                origin = self.eval(b.value, scope)
                if isinstance(origin, (ClassValue, ExternalValue)):
                    base = origin
            cv.bases.append(base)
        for kw in node.keywords:
            if kw.arg == "metaclass":
                cv.metaclass = self.eval(kw.value, scope)
        for b in cv.bases:
            if self.is_enum_base(b):
                cv.is_enum = True
            if isinstance(b, ExternalValue) and b.dotted in ("typing.NamedTuple",):
                cv.namedtuple_fields = []
        if isinstance(cv.metaclass, ExternalValue) and cv.metaclass.dotted.startswith("enum."):
            cv.is_enum = True
        inner = Scope(self, scope.module, cls=cv, qualprefix=qual + ".")
        self.depth += 1
        try:
            if self.depth < MAX_DEPTH:
                self.exec_body(node.body, inner)
        except Raise as r:
            self.note(scope.module, "class %s body: %s" % (qual, r.message))
        finally:
            self.depth -= 1
        if cv.namedtuple_fields is not None:
            cv.namedtuple_fields = [a[0] for a in cv.annotations]
        slots = cv.ns.get("__slots__")
        if isinstance(slots, ConstValue):
            vals = slots.value if isinstance(slots.value, tuple) else (slots.value,)
            cv.slots = [s for s in vals if isinstance(s, str)]
        elif isinstance(slots, ContainerValue) and slots.items:
            cv.slots = [i.value for i in slots.items if isinstance(i, ConstValue) and isinstance(i.value, str)]
        value = self.decorate_class(cv, node.decorator_list, scope)
        scope.bind(node.name, value)
        self._stub_hide(scope, node.name, _type_check_only(node))

    def is_enum_base(self, b):
        if isinstance(b, ExternalValue):
            return b.dotted.startswith("enum.") and b.dotted.split(".")[-1] in (
                "Enum", "IntEnum", "Flag", "IntFlag", "StrEnum", "ReprEnum")
        if isinstance(b, ClassValue):
            return b.is_enum
        return False

    def _s_If(self, node, scope):
        t = self.truth(node.test, scope)
        if t is True:
            self.exec_body(node.body, scope)
        elif t is False:
            self.exec_body(node.orelse, scope)
        else:
            if scope.is_module:
                self.note(scope.module, "condition at line %d not decided (%s): both branches read" % (
                    node.lineno, _short(scope.module, node.test)))
            # A branch that raises is not the one a working installation takes, nor is one that fails on a
            # module it imports (``if NUMEXPR_INSTALLED: import numexpr``, an optional dependency): an undecided
            # branch that fails is noted and the other one stands; both failing fail the statement.
            failed = []
            for branch in (node.body, node.orelse):
                if not branch or _raises(branch):
                    continue
                try:
                    self.exec_body(branch, scope)
                except Raise as r:
                    failed.append(r)
            if len(failed) == 2:
                raise failed[-1]
            for r in failed:
                self.note(scope.module, "undecided branch at line %d failed (%s: %s): the other one stands" % (
                    node.lineno, r.type_name, r.message))

    def _s_Try(self, node, scope):
        try:
            self.exec_body(node.body, scope)
        except Raise as r:
            for h in node.handlers:
                names = self.handler_names(h, scope)
                if _matches(r.type_name, names):
                    if h.name:
                        scope.bind(h.name, UnknownValue("exception"))
                    self.exec_body(h.body, scope)
                    if h.name:
                        scope.unbind(h.name)
                    break
            else:
                self.exec_body(node.finalbody, scope)
                raise
        else:
            self.exec_body(node.orelse, scope)
        self.exec_body(node.finalbody, scope)

    _s_TryStar = _s_Try

    def handler_names(self, h, scope):
        if h.type is None:
            return ()
        nodes = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        out = []
        for n in nodes:
            d = dotted_name(n)
            if d:
                out.append(d.split(".")[-1])
        return tuple(out) or ("Exception",)

    def _s_With(self, node, scope):
        for item in node.items:
            if item.optional_vars is not None and isinstance(item.optional_vars, ast.Name):
                scope.bind(item.optional_vars.id, UnknownValue("with"))
        self.exec_body(node.body, scope)

    _s_AsyncWith = _s_With

    @staticmethod
    def _loop_items(it):
        """The values a loop over ``it`` takes, when known (at most MAX_UNROLL of them), else None."""
        items = None
        if isinstance(it, ContainerValue) and it.items is not None and it.complete:
            items = it.items
        elif isinstance(it, ContainerValue) and it.type_name == "dict" and it.keys is not None:
            items = [ConstValue(k) for k in it.keys]
        elif isinstance(it, ConstValue) and it.known and isinstance(it.value, (tuple, str)):
            items = [ConstValue(v) for v in it.value]
        return items if items is not None and len(items) <= MAX_UNROLL else None

    def _s_For(self, node, scope):
        items = self._loop_items(self.eval(node.iter, scope))
        if items is not None:
            for v in items:
                self.assign(node.target, None, scope, v)
                try:
                    self.exec_body(node.body, scope)
                except _Break:
                    break
                except _Continue:
                    continue
            else:
                self.exec_body(node.orelse, scope)
            return
        if scope.is_module and _binds_dynamically(node):
            scope.module.dynamic = True
            self.note(scope.module, "loop at line %d binds names the reader cannot enumerate" % node.lineno)
        # The loop variable stays bound to something unknown; the body is read once (the names it binds exist
        # after the loop, whatever it iterates over).
        self.assign(node.target, None, scope, UnknownValue("loop variable"))
        try:
            self.exec_body(node.body, scope)
        except (_Break, _Continue):
            pass
        except Raise:
            pass

    def _s_While(self, node, scope):
        pass

    def _s_Break(self, node, scope):
        raise _Break()

    def _s_Continue(self, node, scope):
        raise _Continue()

    def _s_Delete(self, node, scope):
        for t in node.targets:
            if isinstance(t, ast.Name):
                scope.unbind(t.id)
            elif isinstance(t, (ast.Tuple, ast.List)):
                for e in t.elts:
                    if isinstance(e, ast.Name):
                        scope.unbind(e.id)
            elif isinstance(t, ast.Subscript):
                tv = t.value
                if isinstance(tv, ast.Call) and isinstance(tv.func, ast.Name) and tv.func.id in ("globals", "vars"):
                    key = self.eval(t.slice if not isinstance(t.slice, ast.Index) else t.slice.value, scope)
                    if isinstance(key, ConstValue) and isinstance(key.value, str):
                        scope.unbind(key.value)

    def _s_Raise(self, node, scope):
        name = "Other"
        if node.exc is not None:
            e = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            d = dotted_name(e)
            if d:
                name = d.split(".")[-1]
        raise Raise(name, "raise at line %d" % node.lineno)

    def _s_Return(self, node, scope):
        raise Return(self.eval(node.value, scope) if node.value is not None else ConstValue(None))

    def _s_Global(self, node, scope):
        pass

    def _s_Match(self, node, scope):
        pass

    # -- __all__ ---------------------------------------------------------------------------------------------

    def as_all(self, value, scope):
        out = AllList([], True)
        self.all_extend(out, value, scope, None)
        return out

    def all_extend(self, all_, value, scope, node):
        strs = self.strings_of(value)
        if strs is None:
            all_.complete = False
            where = (" at line %d" % node.lineno) if node is not None and hasattr(node, "lineno") else ""
            all_.problems.append("__all__ part%s not resolved" % where)
            return
        all_.items.extend(strs)

    def strings_of(self, value):
        if isinstance(value, ConstValue):
            if isinstance(value.value, tuple) and all(isinstance(s, str) for s in value.value):
                return list(value.value)
            return None
        if isinstance(value, ContainerValue):
            if value.type_name == "dict" and value.keys is not None:
                return [k for k in value.keys if isinstance(k, str)]
            if value.items is None or not value.complete:
                return None
            out = []
            for i in value.items:
                s = self.str_of(i)
                if s is None:
                    return None
                out.append(s)
            return out
        return None

    def str_of(self, value):
        if isinstance(value, ConstValue) and isinstance(value.value, str):
            return value.value
        return None

    def module_all_value(self, modname):
        st = self.x.modules.get(modname)
        if st is None:
            return None
        if st.all_ is None:
            return None
        if not st.all_.complete:
            return ContainerValue("list", [ConstValue(s) for s in st.all_.items], complete=False)
        return ContainerValue("list", [ConstValue(s) for s in st.all_.items])

    # -- conditions ------------------------------------------------------------------------------------------

    def truth(self, node, scope):
        """True / False when the condition is decided for CPython on Linux at the target Python, else None."""
        try:
            return self._truth(node, scope)
        except (Raise, Return):
            return None

    def _truth(self, node, scope):
        if isinstance(node, ast.BoolOp):
            vals = [self._truth(v, scope) for v in node.values]
            if isinstance(node.op, ast.And):
                if any(v is False for v in vals):
                    return False
                if all(v is True for v in vals):
                    return True
                return None
            if any(v is True for v in vals):
                return True
            if all(v is False for v in vals):
                return False
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = self._truth(node.operand, scope)
            return None if v is None else (not v)
        d = dotted_name(node)
        if d in ("TYPE_CHECKING", "typing.TYPE_CHECKING", "t.TYPE_CHECKING"):
            return False
        if isinstance(node, ast.Call):
            f = dotted_name(node.func)
            if f == "hasattr" and len(node.args) == 2:
                obj = dotted_name(node.args[0])
                key = node.args[1]
                if obj == "sys" and isinstance(key, ast.Constant):
                    if key.value in ("pypy_version_info", "getwindowsversion", "_emscripten_info"):
                        return False
                    if key.value in ("getrefcount", "gettotalrefcount") :
                        return key.value == "getrefcount"
                base = self.eval(node.args[0], scope)
                if isinstance(base, ClassValue) and id(base) in self.installing:
                    k = self.eval(key, scope)
                    if isinstance(k, ConstValue) and getattr(k, "known", True) and isinstance(k.value, str):
                        return self.class_has(base, k.value)
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    if isinstance(base, ModuleValue) and base.library:
                        return self.x.module_getattr(base.name, key.value) is not None or None
                    if isinstance(base, ExternalValue) or (isinstance(base, ModuleValue) and not base.library):
                        r = stdlib.has_attr(base.dotted if isinstance(base, ExternalValue) else base.name, key.value)
                        return r
                return None
            if f in ("platform.system",):
                return None
            if f and f.endswith("startswith") and isinstance(node.func, ast.Attribute):
                base = dotted_name(node.func.value)
                if base == "sys.platform" and node.args and isinstance(node.args[0], ast.Constant):
                    arg = node.args[0].value
                    if isinstance(arg, tuple):
                        return any("linux".startswith(a) for a in arg)
                    if isinstance(arg, str):
                        return "linux".startswith(arg)
            if f == "platform.python_implementation":
                return None
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, op, right = node.left, node.ops[0], node.comparators[0]
            r = self._compare_env(left, op, right)
            if r is not None:
                return r
            lv = self.eval(left, scope)
            rv = self.eval(right, scope)
            return self.compare_values(lv, op, rv)
        v = self.eval(node, scope)
        if isinstance(v, ConstValue) and getattr(v, "known", True):
            return bool(v.value)
        if isinstance(v, (FunctionValue, ClassValue, ModuleValue)):
            return True
        return None

    def compare_values(self, lv, op, rv):
        if isinstance(lv, ConstValue) and isinstance(rv, ConstValue) and lv.known and rv.known:
            try:
                return bool(_CMP[type(op)](lv.value, rv.value))
            except Exception:
                return None
        if isinstance(op, (ast.In, ast.NotIn)) and isinstance(lv, ConstValue) and lv.known:
            keys = None
            if isinstance(rv, ContainerValue) and rv.complete:
                if rv.type_name == "dict":
                    keys = rv.keys
                elif rv.items is not None and all(isinstance(i, ConstValue) and i.known for i in rv.items):
                    keys = [i.value for i in rv.items]
            if keys is not None:
                r = lv.value in keys
                return r if isinstance(op, ast.In) else (not r)
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(rv, ConstValue) and rv.known and rv.value is None and \
                isinstance(lv, (FunctionValue, ClassValue, ModuleValue, CompiledValue)):
            return isinstance(op, ast.IsNot)  # an object the reader resolved is never None
        if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(lv, ConstValue) and isinstance(rv, ConstValue):
            if lv.known and rv.known and rv.value is None:
                r = lv.value is None
                return r if isinstance(op, ast.Is) else (not r)
        return None

    def _compare_env(self, left, op, right):
        ld = dotted_name(left)
        if isinstance(left, ast.Subscript) and dotted_name(left.value) == "sys.platform":
            sl = left.slice
            if isinstance(sl, ast.Index):
                sl = sl.value
            try:
                if isinstance(sl, ast.Slice):
                    lo = ast.literal_eval(sl.lower) if sl.lower is not None else None
                    hi = ast.literal_eval(sl.upper) if sl.upper is not None else None
                    actual = "linux"[lo:hi]
                else:
                    actual = "linux"[ast.literal_eval(sl)]
                return _cmp_const(op, actual, ast.literal_eval(right))
            except Exception:
                return None
        target = self.x.target_python
        if ld in ("sys.platform", "os.name", "platform.system()", "sys.byteorder", "sys.implementation.name"):
            if isinstance(right, ast.Constant):
                actual = {"sys.platform": "linux", "os.name": "posix", "sys.byteorder": "little",
                          "sys.implementation.name": "cpython"}[ld]
                return _cmp_const(op, actual, right.value)
            if isinstance(right, (ast.Tuple, ast.List, ast.Set)) and isinstance(op, (ast.In, ast.NotIn)):
                actual = {"sys.platform": "linux", "os.name": "posix", "sys.byteorder": "little",
                          "sys.implementation.name": "cpython"}[ld]
                vals = [e.value for e in right.elts if isinstance(e, ast.Constant)]
                r = actual in vals
                return r if isinstance(op, ast.In) else (not r)
        if isinstance(left, ast.Call) and dotted_name(left.func) == "platform.system" and isinstance(right, ast.Constant):
            return _cmp_const(op, "Linux", right.value)
        if isinstance(left, ast.Call) and dotted_name(left.func) == "platform.python_implementation":
            if isinstance(right, ast.Constant):
                return _cmp_const(op, "CPython", right.value)
        vi = _version_info_value(left, target)
        if vi is not None:
            try:
                rv = ast.literal_eval(right)
            except Exception:
                return None
            try:
                return bool(_CMP[type(op)](vi, rv))
            except Exception:
                return None
        if ld == "sys.maxsize" and isinstance(op, (ast.Gt, ast.GtE)):
            return True
        return None

    # -- expressions -----------------------------------------------------------------------------------------

    def eval(self, node, scope):
        if node is None:
            return ConstValue(None)
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            return UnknownValue(type(node).__name__, scope.module.name)
        try:
            return m(node, scope)
        except (Raise, Return):
            raise
        except RecursionError:
            return UnknownValue("recursion", scope.module.name)

    def _e_Constant(self, node, scope):
        return ConstValue(node.value)

    # Python 3.7 compatibility nodes (only on old interpreters)
    def _e_Str(self, node, scope):
        return ConstValue(node.s)

    def _e_Num(self, node, scope):
        return ConstValue(node.n)

    def _e_NameConstant(self, node, scope):
        return ConstValue(node.value)

    def _e_Name(self, node, scope):
        v = scope.lookup(node.id)
        if v is None:
            return UnknownValue("undefined name %s" % node.id, scope.module.name)
        return v

    def _e_Attribute(self, node, scope):
        if (isinstance(node.value, ast.Name) and node.value.id == "__spec__" and node.attr in ("name", "parent")
                and "__spec__" not in scope.module.ns):
            # the module's own spec: __spec__.parent is its package (pydantic 2.7.2+'s lazy imports), .name itself
            m = scope.module
            return ConstValue(m.name if node.attr == "name" or m.is_package else m.name.rpartition(".")[0])
        base = self.eval(node.value, scope)
        return self.getattr_value(base, node.attr, scope)

    def getattr_value(self, base, attr, scope=None):
        if isinstance(base, ModuleValue):
            if base.library:
                v = self.x.module_getattr(base.name, attr)
                if v is None:
                    if attr == "__all__":
                        return UnknownValue("__all__ of %s" % base.name)
                    return UnknownValue("%s.%s" % (base.name, attr), base.name)
                return v
            if attr == "__all__":
                surf = self.x.external.get(base.name.split(".")[0])
                names = surf.module_names(base.name) if surf is not None else self.x.external_star_names(base.name)
                if names is not None:
                    return ContainerValue("list", [ConstValue(n) for n in names])
            return self.x.external_value(base.name + "." + attr)
        if isinstance(base, (FunctionValue, ClassValue)) and attr == "__doc__":
            from .sigs import function_doc

            d = function_doc(base) if isinstance(base, FunctionValue) else base.doc
            return ConstValue(d) if isinstance(d, str) else _unknown_const(str)
        if isinstance(base, ClassValue):
            v = self.x.class_member(base, attr)
            return v if v is not None else UnknownValue("%s.%s" % (base.qualname, attr), base.module)
        if isinstance(base, ExternalValue):
            return self.x.external_value(base.dotted + "." + attr)
        if isinstance(base, InstanceValue):
            if isinstance(base.cls, ClassValue):
                v = self.x.class_member(base.cls, attr)
                if isinstance(v, FunctionValue) and v.method_kind not in ("static", "property"):
                    return BoundMethodValue(base, v, base.cls)
                if v is not None:
                    return v
            return UnknownValue("attribute of instance")
        if isinstance(base, CompiledValue):
            if attr == "__all__":
                return UnknownValue("__all__")
            return self.x.compiled_member(base, attr) or UnknownValue("%s.%s" % (base.name, attr), base.module)
        if isinstance(base, ContainerValue) and attr == "__all__":
            return UnknownValue("__all__")
        if isinstance(base, ConstValue) and isinstance(base.value, str):
            return UnknownValue("str method", callable_hint=True)
        return UnknownValue("attribute %s" % attr)

    def _e_Call(self, node, scope):
        if isinstance(node.func, ast.Call) and len(node.args) == 1 and not node.keywords:
            # ``factory(args)(obj)``: a decorator applied by hand
            fac = self.eval(node.func.func, scope)
            if isinstance(fac, FunctionValue) and fac.scope is not None:
                target = self.eval(node.args[0], scope)
                r = self.x.sigs.apply_to_value(target, fac, node.func, scope)
                if r is not None:
                    return r
        if isinstance(node.func, ast.Attribute) and node.func.attr in _STR_METHODS:
            base = self.eval(node.func.value, scope)
            if isinstance(base, ConstValue) and base.known and isinstance(base.value, str):
                args = [self.eval(a, scope) for a in node.args]
                if all(isinstance(a, ConstValue) and a.known for a in args) and not node.keywords:
                    try:
                        r = getattr(base.value, node.func.attr)(*[a.value for a in args])
                        if isinstance(r, str) and len(r) < 1000000:
                            return ConstValue(r)
                        if isinstance(r, list) and len(r) < 10000:
                            return ContainerValue("list", [ConstValue(x) for x in r])
                        if isinstance(r, bool):
                            return ConstValue(r)
                    except Exception:
                        pass
                if node.func.attr in ("split", "rsplit", "splitlines"):
                    c = ContainerValue("list", None, complete=False)
                    c.elem_type = str
                    return c
                return _unknown_const(str)
        if isinstance(node.func, ast.Attribute):
            meth = node.func.attr
            base = self.eval(node.func.value, scope)
            if isinstance(base, ContainerValue) and meth == "copy" and not node.args:
                c = ContainerValue(base.type_name, base.items, base.keys, base.complete)
                if getattr(base, "values", None) is not None:
                    c.values = dict(base.values)
                return c
            if isinstance(base, ContainerValue) and base.type_name == "dict" and meth in ("keys", "values", "items") \
                    and not node.args:
                if base.keys is None or not base.complete:
                    return ContainerValue("list", None, complete=False)
                vals = getattr(base, "values", None) or {}
                if meth == "keys":
                    return ContainerValue("list", [ConstValue(k) for k in base.keys])
                if meth == "values":
                    return ContainerValue("list", [vals.get(k, UnknownValue("dict value")) for k in base.keys])
                out = []
                for k in base.keys:
                    v = vals.get(k, UnknownValue("dict value"))
                    if isinstance(v, ConstValue) and v.known:
                        out.append(ConstValue((k, v.value)))
                    else:
                        out.append(ContainerValue("tuple", [ConstValue(k), v]))
                return ContainerValue("list", out)
            vt = getattr(base, "value_type", None)
            if isinstance(base, ContainerValue) and vt is not None and meth == "get":
                return _unknown_const(vt)
            if isinstance(base, ContainerValue) and base.type_name == "dict" and meth == "get" and node.args and \
                    getattr(base, "values", None) is not None:
                key = self.eval(node.args[0], scope)
                if isinstance(key, ConstValue) and key.known:
                    if key.value in base.values:
                        return base.values[key.value]
                    if base.complete:
                        return self.eval(node.args[1], scope) if len(node.args) > 1 else ConstValue(None)
            if isinstance(base, ConstValue) and not base.known and getattr(base, "type", None) is str:
                if meth in ("split", "rsplit", "splitlines"):
                    c = ContainerValue("list", None, complete=False)
                    c.elem_type = str
                    return c
                if meth in _STR_METHODS:
                    return _unknown_const(str)
        func = self.eval(node.func, scope)
        hooked = self.x.knowledge.call_value(self, func, node, scope)
        if hooked is not None:
            return hooked
        if isinstance(func, InstanceValue) and len(node.args) == 1 and not node.keywords and \
                self.x.call_returns_argument(func.cls):
            # ``Appender(doc)(read_csv)``: an instance of a decorator class whose __call__ hands its argument back
            # (after setting its __doc__) is that argument
            return self.eval(node.args[0], scope)
        if isinstance(func, ClassValue):
            return InstanceValue(func, node)
        if isinstance(func, ExternalValue):
            return self.call_external(func, node, scope)
        if isinstance(func, FunctionValue):
            return self.call_library_function(func, node, scope)
        if isinstance(func, CompiledValue) and func.obj_kind == "class":
            return InstanceValue(func, node)
        if isinstance(func, PartialValue):
            return UnknownValue("call", scope.module.name)
        if isinstance(func, UnknownValue) and func.why == "str method":
            return _unknown_const(str)
        return UnknownValue("call", scope.module.name)

    def call_library_function(self, func, node, scope):
        """A call of a library function: an instance when every ``return`` builds the same library class; a
        constant of the type its return annotation names (``-> float``)."""
        cls = self.x.returned_class(func)
        if cls is not None:
            return InstanceValue(cls, node)
        nested = self.x.returned_nested_def(func)
        if nested is not None:
            return nested
        ret = getattr(func.node, "returns", None)
        rname = dotted_name(ret) if ret is not None else None
        if ret is None:
            rname = _numpydoc_return_type(func.node)
        if rname in ("float", "int", "str", "bool", "complex", "bytes"):
            return _unknown_const({"float": float, "int": int, "str": str, "bool": bool, "complex": complex,
                                   "bytes": bytes}[rname])
        return UnknownValue("call of %s" % func.qualname, scope.module.name)

    def call_external(self, func, node, scope):
        d = func.dotted
        args = node.args
        if d in ("builtins.str", "builtins.repr", "builtins.format", "builtins.chr"):
            if len(args) == 1 and d == "builtins.str":
                v = self.eval(args[0], scope)
                if isinstance(v, ConstValue) and v.known and isinstance(v.value, str):
                    return v
            return _unknown_const(str)
        if d in ("builtins.int", "builtins.float", "builtins.bool", "builtins.complex", "builtins.len",
                 "builtins.hash", "builtins.ord", "builtins.abs", "builtins.round", "builtins.bytes", "builtins.max",
                 "builtins.min"):
            if d in ("builtins.max", "builtins.min") and len(args) != 2:
                return UnknownValue("call")
            vals = [self.eval(a, scope) for a in args]
            if all(isinstance(v, ConstValue) and v.known for v in vals) and not node.keywords:
                try:
                    fn = {"builtins.int": int, "builtins.float": float, "builtins.bool": bool,
                          "builtins.complex": complex, "builtins.abs": abs, "builtins.bytes": bytes,
                          "builtins.max": max, "builtins.min": min}.get(d)
                    if fn is not None and d != "builtins.bytes":
                        return ConstValue(fn(*[v.value for v in vals]))
                except Exception:
                    pass
            return _unknown_const(int)
        if d in ("builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.sorted"):
            if not args:
                tn = d.split(".")[1]
                return ContainerValue("list" if tn == "sorted" else tn, [])
            v = self.eval(args[0], scope)
            strs = self.strings_of(v)
            tn = d.split(".")[1]
            if strs is not None:
                if tn in ("set", "frozenset"):
                    strs = sorted(set(strs))
                if tn == "sorted":
                    strs = sorted(strs)
                items = [ConstValue(s) for s in strs]
                if tn == "tuple":
                    return ConstValue(tuple(strs))
                return ContainerValue("list" if tn == "sorted" else tn, items)
            if isinstance(v, ContainerValue):
                return ContainerValue(tn if tn != "sorted" else "list", v.items, v.keys, v.complete)
            return ContainerValue(tn if tn != "sorted" else "list", None, complete=False)
        if d == "builtins.callable" and len(args) == 1:
            v = self.eval(args[0], scope)
            k = v.kind() if isinstance(v, (FunctionValue, ClassValue, ExternalValue, CompiledValue, ModuleValue,
                                           BoundMethodValue, PartialValue)) else None
            if isinstance(v, ConstValue) or isinstance(v, ContainerValue):
                return ConstValue(False)
            if k in ("function", "class"):
                return ConstValue(True)
            if k in ("module",):
                return ConstValue(False)
            return _unknown_const(bool)
        if d == "builtins.isinstance" and len(args) == 2:
            v = self.eval(args[0], scope)
            t = self.eval(args[1], scope)
            if isinstance(t, ExternalValue) and t.dotted == "builtins.type":
                if isinstance(v, (ClassValue,)):
                    return ConstValue(True)
                if isinstance(v, (ExternalValue, CompiledValue)) and v.kind() != "attribute":
                    return ConstValue(v.kind() == "class")
                if isinstance(v, (FunctionValue, ModuleValue, ConstValue, ContainerValue)):
                    return ConstValue(False)
            return _unknown_const(bool)
        if d in ("builtins.globals", "builtins.vars", "builtins.locals") and not args:
            # globals() is the module's namespace, also inside a function; locals()/vars() the current one
            if d == "builtins.globals" or scope.local is None:
                c = ContainerValue("dict", None, sorted(scope.module.ns), True)
                c.module_state = scope.module
                c.values = scope.module.ns
                return c
            return ContainerValue("dict", None, sorted(scope.local), True)
        if d == "builtins.dict":
            return ContainerValue("dict", None, None, False)
        if d in ("builtins.staticmethod", "builtins.classmethod") and args:
            v = self.eval(args[0], scope)
            if isinstance(v, FunctionValue):
                w = _copy_function(v)
                w.method_kind = "static" if d.endswith("staticmethod") else "class"
                return w
            return UnknownValue("method")
        if d == "builtins.property":
            return InstanceValue(func, node)
        if d in ("collections.namedtuple", "typing.NamedTuple") and args:
            return self.make_namedtuple(node, scope)
        if d == "functools.partial" and args:
            target = self.eval(args[0], scope)
            pv = PartialValue(target, len(args) - 1, [k.arg for k in node.keywords if k.arg])
            pv.kw_values = dict((k.arg, self.eval(k.value, scope)) for k in node.keywords if k.arg)
            pv.arg_values = [self.eval(a, scope) for a in args[1:]]
            return pv
        if d in ("functools.wraps",):
            return UnknownValue("wraps")
        if d == "builtins.object":
            return InstanceValue(func, node)
        if d in ("builtins.getattr",) and len(args) >= 2:
            base = self.eval(args[0], scope)
            key = self.eval(args[1], scope)
            if isinstance(key, ConstValue) and isinstance(key.value, str) and key.known:
                if isinstance(base, ModuleValue) and base.library:
                    has = self.x.module_has(base.name, key.value)
                    if has is False:
                        if len(args) >= 3:
                            return self.eval(args[2], scope)
                        raise Raise("AttributeError", "module %r has no attribute %r" % (base.name, key.value))
                    v = self.x.module_getattr(base.name, key.value)
                    if v is not None:
                        return v
                return self.getattr_value(base, key.value, scope)
            return UnknownValue("getattr")
        if d in ("builtins.type",) and len(args) == 3:
            return UnknownValue("type()")
        if d == "importlib.import_module" and args:
            name = self.eval(args[0], scope)
            if isinstance(name, ConstValue) and name.known and isinstance(name.value, str):
                target = name.value
                # the package: second positional argument or package= (pydantic 2.5+'s lazy __getattr__)
                pkg_node = args[1] if len(args) > 1 else next((k.value for k in node.keywords if k.arg == "package"), None)
                if target.startswith(".") and pkg_node is not None:
                    pkg = self.eval(pkg_node, scope)
                    if isinstance(pkg, ConstValue) and isinstance(pkg.value, str):
                        level = len(target) - len(target.lstrip("."))
                        base = pkg.value.split(".")
                        base = base[: len(base) - (level - 1)] if level > 1 else base
                        target = ".".join(base + ([target.lstrip(".")] if target.lstrip(".") else []))
                return self.import_module(target, scope)
            return UnknownValue("import_module")
        if d == "typing.cast" and len(args) == 2:
            return self.eval(args[1], scope)
        if d.startswith("enum.") and args:
            return UnknownValue("enum functional API")
        if func.obj_kind == "class":
            return InstanceValue(func, node)
        if d.split(".")[0] in ("math", "cmath") and func.obj_kind == "function":
            return _unknown_const(complex if d.startswith("cmath") else float)
        return UnknownValue("call of %s" % d, scope.module.name)

    def make_namedtuple(self, node, scope):
        name_v = self.eval(node.args[0], scope)
        fields = None
        if len(node.args) > 1:
            fv = self.eval(node.args[1], scope)
            if isinstance(fv, ConstValue) and isinstance(fv.value, str) and fv.known:
                fields = fv.value.replace(",", " ").split()
            else:
                strs = self.strings_of(fv)
                if strs is not None:
                    fields = strs
                elif isinstance(fv, ContainerValue) and fv.items is not None:
                    fields = []
                    for item in fv.items:
                        if isinstance(item, ConstValue) and isinstance(item.value, tuple) and item.value:
                            fields.append(item.value[0])
                        else:
                            fields = None
                            break
        for kw in node.keywords:
            if kw.arg == "field_names":
                fields = self.strings_of(self.eval(kw.value, scope))
        qual = name_v.value if isinstance(name_v, ConstValue) and isinstance(name_v.value, str) else "namedtuple"
        cv = ClassValue(node, scope.module.name, qual, scope.module.source, scope.module)
        cv.namedtuple_fields = fields if fields is not None else []
        if fields is None:
            self.note(scope.module, "namedtuple fields at line %d not resolved" % node.lineno)
        cv.bases.append(stdlib.external_value("builtins.tuple"))
        return cv

    def _e_Tuple(self, node, scope):
        vals = [self.eval(e, scope) for e in node.elts if not isinstance(e, ast.Starred)]
        if len(vals) == len(node.elts) and all(isinstance(v, ConstValue) and v.known for v in vals):
            return ConstValue(tuple(v.value for v in vals))
        return ContainerValue("tuple", vals, complete=len(vals) == len(node.elts))

    def _e_List(self, node, scope):
        items = []
        complete = True
        for e in node.elts:
            if isinstance(e, ast.Starred):
                v = self.eval(e.value, scope)
                strs = self.strings_of(v)
                if strs is None:
                    complete = False
                else:
                    items.extend(ConstValue(s) for s in strs)
                continue
            items.append(self.eval(e, scope))
        return ContainerValue("list", items, complete=complete)

    def _e_Set(self, node, scope):
        c = self._e_List(node, scope)
        c.type_name = "set"
        return c

    def _e_Dict(self, node, scope):
        keys = []
        values = {}
        complete = True
        for k, vnode in zip(node.keys, node.values):
            if k is None:
                complete = False
                continue
            kv = self.eval(k, scope)
            if isinstance(kv, ConstValue) and kv.known:
                keys.append(kv.value)
                try:
                    values[kv.value] = self.eval(vnode, scope)
                except (Raise, Return):
                    values[kv.value] = UnknownValue("dict value")
            else:
                complete = False
        c = ContainerValue("dict", None, keys, complete)
        c.values = values
        return c

    def _e_DictComp(self, node, scope):
        pairs = self._comprehension_values(ast.Tuple(elts=[node.key, node.value], ctx=ast.Load()), node.generators,
                                           scope)
        if pairs is None:
            return ContainerValue("dict", None, None, False)
        keys = []
        values = {}
        complete = True
        for pr in pairs:
            if isinstance(pr, ConstValue) and isinstance(pr.value, tuple) and len(pr.value) == 2:
                k, v = ConstValue(pr.value[0]), ConstValue(pr.value[1])
            elif isinstance(pr, ContainerValue) and pr.items and len(pr.items) == 2:
                k, v = pr.items
            else:
                complete = False
                continue
            if isinstance(k, ConstValue) and k.known:
                keys.append(k.value)
                values[k.value] = v
            else:
                complete = False
        c = ContainerValue("dict", None, keys, complete)
        c.values = values
        return c

    def _e_ListComp(self, node, scope):
        vals = self._comprehension_values(node.elt, node.generators, scope)
        if vals is None:
            return ContainerValue("list", None, complete=False)
        return ContainerValue("list", vals)

    def _e_SetComp(self, node, scope):
        c = self._e_ListComp(node, scope)
        c.type_name = "set"
        return c

    def _e_GeneratorExp(self, node, scope):
        return self._e_ListComp(node, scope)

    def _comprehension_values(self, elt, generators, scope):
        if len(generators) != 1:
            return None
        g = generators[0]
        it = self._iter_source(g.iter, scope)
        if it is None:
            return None
        out = []
        local = dict(scope.local or {})
        inner = Scope(self, scope.module, cls=None, local=local)
        for v in it:
            self.assign(g.target, None, inner, v)
            ok = True
            for cond in g.ifs:
                t = self.truth(cond, inner)
                if t is None:
                    return None
                if not t:
                    ok = False
                    break
            if ok:
                r = self.eval(elt, inner)
                out.append(r)
        return out

    def _iter_source(self, node, scope):
        # dir() at module level: the names bound so far.
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dir" and not node.args:
            if scope.is_module:
                return [ConstValue(n) for n in sorted(scope.module.ns)]
            return None
        v = self.eval(node, scope)
        if isinstance(v, ContainerValue):
            if v.type_name == "dict" and v.keys is not None and v.complete:
                return [ConstValue(k) for k in v.keys]
            if v.items is not None and v.complete:
                return list(v.items)
            return None
        if isinstance(v, ConstValue) and v.known and isinstance(v.value, tuple):
            return [ConstValue(x) for x in v.value]
        return None

    def _e_BinOp(self, node, scope):
        left = self.eval(node.left, scope)
        right = self.eval(node.right, scope)
        return self.binop(left, node.op, right)

    def binop(self, left, op, right):
        if isinstance(left, ConstValue) and isinstance(right, ConstValue):
            if left.known and right.known:
                try:
                    if isinstance(op, ast.Pow) and isinstance(right.value, int) and abs(right.value) > 256:
                        raise ValueError
                    if isinstance(op, ast.Mult) and isinstance(right.value, int) and right.value > 10000:
                        raise ValueError
                    r = _BINOPS[type(op)](left.value, right.value)
                    if isinstance(r, (str, bytes)) and len(r) > 100000:
                        raise ValueError
                    return ConstValue(r)
                except Exception:
                    pass
            t = type(left.value) if left.known else getattr(left, "type", None)
            t2 = type(right.value) if right.known else getattr(right, "type", None)
            if t in (int, float, complex) and t2 in (int, float, complex, bool) or t2 in (int, float, complex) and \
                    t in (int, float, complex, bool):
                return _unknown_const(float if float in (t, t2) or isinstance(op, ast.Div) else t)
            if t in (str, bytes) and (t2 is t or isinstance(op, (ast.Mod, ast.Mult))):
                return _unknown_const(t)
            return UnknownValue("binop")
        if isinstance(op, ast.Mod) and isinstance(left, ConstValue) and isinstance(left.value, str):
            return _unknown_const(str)
        if isinstance(op, ast.Add) or isinstance(op, ast.BitOr) or isinstance(op, ast.Sub) or isinstance(op, ast.BitAnd):
            ls = self.strings_of(left)
            rs = self.strings_of(right)
            if isinstance(op, ast.Add) and isinstance(left, ContainerValue) and isinstance(right, ContainerValue):
                if left.items is not None and right.items is not None:
                    return ContainerValue(left.type_name, left.items + right.items, complete=left.complete and right.complete)
                return ContainerValue(left.type_name, None, complete=False)
            if isinstance(op, ast.Add) and isinstance(left, ConstValue) and isinstance(right, ContainerValue):
                return ContainerValue("tuple", None, complete=False)
            if ls is not None and rs is not None:
                if isinstance(op, ast.BitOr):
                    return ContainerValue("set", [ConstValue(s) for s in sorted(set(ls) | set(rs))])
                if isinstance(op, ast.Sub):
                    return ContainerValue("set", [ConstValue(s) for s in sorted(set(ls) - set(rs))])
                if isinstance(op, ast.BitAnd):
                    return ContainerValue("set", [ConstValue(s) for s in sorted(set(ls) & set(rs))])
            if isinstance(left, ContainerValue) or isinstance(right, ContainerValue):
                tn = left.type_name if isinstance(left, ContainerValue) else right.type_name
                return ContainerValue(tn, None, complete=False)
        return UnknownValue("binop")

    def _e_UnaryOp(self, node, scope):
        v = self.eval(node.operand, scope)
        if isinstance(v, ConstValue) and v.known:
            try:
                return ConstValue(_UNARY[type(node.op)](v.value))
            except Exception:
                pass
        if isinstance(v, ConstValue):
            return _unknown_const(bool if isinstance(node.op, ast.Not) else (type(v.value) if v.known else int))
        return UnknownValue("unary")

    def _e_BoolOp(self, node, scope):
        t = self.truth(node, scope)
        if t is not None:
            # value of ``a or b`` is an operand; keep it simple: decided conditions are booleans
            vals = [self.eval(v, scope) for v in node.values]
            if isinstance(node.op, ast.Or):
                for v, n in zip(vals, node.values):
                    tv = self.truth(n, scope)
                    if tv is True:
                        return v
                return vals[-1]
            for v, n in zip(vals, node.values):
                tv = self.truth(n, scope)
                if tv is False:
                    return v
            return vals[-1]
        vals = [self.eval(v, scope) for v in node.values]
        if all(isinstance(v, ConstValue) for v in vals):
            return _unknown_const(bool)
        return UnknownValue("boolop")

    def _e_Compare(self, node, scope):
        t = self.truth(node, scope)
        if t is not None:
            return ConstValue(t)
        vals = [self.eval(node.left, scope)] + [self.eval(c, scope) for c in node.comparators]
        if all(isinstance(v, ConstValue) for v in vals) or all(isinstance(o, (ast.In, ast.NotIn, ast.Is, ast.IsNot))
                                                                 for o in node.ops):
            return _unknown_const(bool)
        return UnknownValue("comparison")

    def _e_IfExp(self, node, scope):
        t = self.truth(node.test, scope)
        if t is True:
            return self.eval(node.body, scope)
        if t is False:
            return self.eval(node.orelse, scope)
        return UnknownValue("conditional expression")

    def _e_Lambda(self, node, scope):
        return FunctionValue(node, scope.module.name, scope.qualprefix + "<lambda>", scope.module.source, scope.module)

    def _e_JoinedStr(self, node, scope):
        return _unknown_const(str)

    def _e_Subscript(self, node, scope):
        base = self.eval(node.value, scope)
        sl = node.slice
        if isinstance(sl, ast.Index):  # Python 3.8
            sl = sl.value
        if isinstance(sl, ast.Slice) and sl.lower is None and sl.upper is None and sl.step is None:
            if isinstance(base, ContainerValue):
                return ContainerValue("list", base.items, base.keys, base.complete)
        if isinstance(base, ConstValue) and base.known and isinstance(base.value, (tuple, str)):
            try:
                k = self.eval(sl, scope)
                if isinstance(k, ConstValue) and k.known:
                    return ConstValue(base.value[k.value])
            except Exception:
                pass
        if isinstance(base, ContainerValue) and getattr(base, "value_type", None) is not None:
            return _unknown_const(base.value_type)
        if isinstance(base, ContainerValue) and getattr(base, "elem_type", None) is not None:
            return _unknown_const(base.elem_type)
        if isinstance(base, ContainerValue) and getattr(base, "values", None) is not None:
            k = self.eval(sl, scope)
            if isinstance(k, ConstValue) and k.known and k.value in base.values:
                return base.values[k.value]
        if isinstance(base, ContainerValue) and base.items is not None and base.complete:
            k = self.eval(sl, scope)
            if isinstance(k, ConstValue) and k.known and isinstance(k.value, int):
                try:
                    return base.items[k.value]
                except IndexError:
                    pass
        if isinstance(base, (ClassValue, ExternalValue)) and not isinstance(sl, ast.Slice):
            # Generic[...] aliases: a typing construct. In a stub, "X = cls[T]" declares a class of the module
            # (numpy 2.0's dtypes.pyi: "StrDType = np.dtype[np.str_]"): the class stands for it.
            if self.x.stub_mode and isinstance(base, ClassValue):
                return base
            return UnknownValue("subscript of class")
        return UnknownValue("subscript")

    def _e_Starred(self, node, scope):
        return UnknownValue("starred")

    def _e_NamedExpr(self, node, scope):
        v = self.eval(node.value, scope)
        if isinstance(node.target, ast.Name):
            scope.bind(node.target.id, v)
        return v

    # -- decorators ------------------------------------------------------------------------------------------

    def decorate_function(self, fv, decorators, scope):
        fv.decorators = list(decorators)
        value = fv
        for dec in reversed(decorators):
            value = self.apply_function_decorator(value, fv, dec, scope)
        return value

    def apply_function_decorator(self, value, original, dec, scope):
        d = dotted_name(dec.func if isinstance(dec, ast.Call) else dec)
        last = d.split(".")[-1] if d else None
        if last in ("staticmethod",):
            if isinstance(value, FunctionValue):
                value.method_kind = "static"
            return value
        if last in ("classmethod",):
            if isinstance(value, FunctionValue):
                value.method_kind = "class"
            return value
        if last in ("property", "cached_property", "abstractproperty", "setter", "getter", "deleter",
                    "lazy_property", "cache_readonly", "classproperty", "reify"):
            if isinstance(value, FunctionValue):
                value.method_kind = "property"
            return value
        if last in ("overload",):
            if isinstance(value, FunctionValue):
                value.is_overload = True
            return value
        try:
            decv = self.eval(dec.func if isinstance(dec, ast.Call) else dec, scope)
        except (Raise, Return):
            decv = UnknownValue("decorator")
        hooked = self.x.knowledge.function_decorator(self, value, decv, dec, scope)
        if hooked is not None:
            return hooked
        if isinstance(decv, (ClassValue, FunctionValue)) and isinstance(value, FunctionValue):
            added = self.x.decorator_parameters.get("%s.%s" % (decv.module, decv.qualname))
            if added is not None:
                # a decorator whose result's __signature__ adds parameters (the library file names it: a class, or
                # a function standing for it under a condition static reading cannot decide)
                return self.x.sigs.add_decorator_parameters(value, *added)
        if isinstance(decv, ExternalValue):
            dd = decv.dotted
            if dd in ("functools.cached_property", "builtins.property"):
                if isinstance(value, FunctionValue):
                    value.method_kind = "property"
                return value
            if dd.startswith("numba.") or dd in ("functools.singledispatch",):
                return value
            return value
        if isinstance(decv, ClassValue) and not isinstance(dec, ast.Call):
            # ``@SomeClass`` makes an instance of that class (e.g. a descriptor or a vectorizer)
            if self.x.is_property_like(decv):
                if isinstance(value, FunctionValue):
                    value.method_kind = "property"
                return value
            return value
        if isinstance(decv, FunctionValue) and isinstance(value, FunctionValue):
            return self.x.apply_library_decorator(value, decv, dec, scope)
        if isinstance(decv, PartialValue) and isinstance(decv.func, FunctionValue) and isinstance(value, FunctionValue):
            return self.x.sigs.apply_library_decorator(value, decv.func, dec, scope, partial=decv)
        return value

    def decorate_class(self, cv, decorators, scope):
        cv.decorators = list(decorators)
        for dec in reversed(decorators):
            d = dotted_name(dec.func if isinstance(dec, ast.Call) else dec) or ""
            last = d.split(".")[-1]
            if last == "dataclass":
                cv.is_dataclass = True
                if isinstance(dec, ast.Call):
                    for kw in dec.keywords:
                        if kw.arg == "kw_only" and isinstance(kw.value, ast.Constant) and kw.value.value is True:
                            cv.dataclass_kw_only = True
                continue
            try:
                decv = self.eval(dec.func if isinstance(dec, ast.Call) else dec, scope)
            except (Raise, Return):
                decv = None
            self.x.knowledge.class_decorator(self, cv, decv, dec, scope)
            if isinstance(dec, ast.Call) and isinstance(decv, FunctionValue):
                self.install_by_decorator(cv, decv, dec, scope)
            if isinstance(decv, FunctionValue):
                self.x.sigs.apply_library_decorator(cv, decv, dec, scope)
            elif isinstance(decv, PartialValue) and isinstance(decv.func, FunctionValue):
                self.x.sigs.apply_library_decorator(cv, decv.func, dec, scope, partial=decv)
        return cv

    def install_by_decorator(self, cv, factory, dec, scope):
        """``@inherit_names(["year", "month"], DatetimeArray)``: a library decorator factory whose decorator sets
        members on the class it decorates (``for name in names: setattr(cls, name, ...)``). The factory runs with
        the call's arguments, then the decorator it returns with the class, installing as far as it is decided."""
        if not self.x.in_library(factory.module or "") or any(isinstance(a, ast.Starred) for a in dec.args):
            return
        if any(k.arg is None for k in dec.keywords):
            return
        try:
            args = [self.eval(a, scope) for a in dec.args]
            keywords = {k.arg: self.eval(k.value, scope) for k in dec.keywords}
        except (Raise, Return):
            return
        decorator = self.call_function_body(factory, args, keywords=keywords)
        if not isinstance(decorator, FunctionValue) or decorator.closure is None:
            return
        saved = self.installing
        self.installing = saved | {id(cv)}
        try:
            self._call_function_body(decorator, [cv])
        finally:
            self.installing = saved

    # -- function bodies (module __getattr__) -----------------------------------------------------------------

    def call_function_body(self, fv, args, outcome=False, keywords=None):
        """Run a library function with constant arguments; the value it returns, or None when undecided.
        ``outcome``: return ("value", v) / ("raise", exception name) / ("unknown", None) instead."""
        r = self._call_function_body(fv, args, keywords)
        if outcome:
            return r
        return r[1] if r[0] == "value" else None

    def _call_function_body(self, fv, args, keywords=None):
        node = fv.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fv.scope is None:
            return ("unknown", None)
        a = node.args
        params = [p.arg for p in list(getattr(a, "posonlyargs", [])) + list(a.args)]
        # a function defined in another function's body sees that body's names (its closure)
        local = dict(fv.closure or {})
        for p, v in zip(params, args):
            local[p] = v
        keywords = keywords or {}
        defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
        for p, d in list(zip(params, defaults)) + [(k.arg, d) for k, d in zip(a.kwonlyargs, a.kw_defaults)]:
            if p in keywords:
                local[p] = keywords[p]
            elif p not in local and d is not None:
                try:
                    local[p] = self.eval(d, Scope(self, fv.scope))
                except (Raise, Return):
                    pass
        scope = Scope(self, fv.scope, local=local)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                return ("unknown", None)
            self._exec_function_body(node.body, scope)
        except Return as r:
            return ("value", r.value)
        except Raise as r:
            return ("raise", r.type_name)
        except (_Undecided, _Break, _Continue):
            return ("unknown", None)
        finally:
            self.depth -= 1
        return ("value", ConstValue(None))

    def _exec_function_body(self, body, scope):
        for stmt in body:
            if isinstance(stmt, ast.If):
                t = self.truth(stmt.test, scope)
                if t is None and _only_side_effects(stmt.body) and _only_side_effects(stmt.orelse):
                    continue  # a branch that only warns (or imports to warn) changes nothing the result depends on
                if t is None:
                    raise _Undecided()
                self._exec_function_body(stmt.body if t else stmt.orelse, scope)
            elif isinstance(stmt, ast.Try):
                try:
                    self._exec_function_body(stmt.body, scope)
                except Raise as r:
                    for h in stmt.handlers:
                        if _matches(r.type_name, self.handler_names(h, scope)):
                            self._exec_function_body(h.body, scope)
                            break
                    else:
                        raise
                else:
                    self._exec_function_body(stmt.orelse, scope)
                self._exec_function_body(stmt.finalbody, scope)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Subscript):
                # msg = __expired_functions__[attr]  -> KeyError when the key is known to be absent
                base = self.eval(stmt.value.value, scope)
                sl = stmt.value.slice
                if isinstance(sl, ast.Index):
                    sl = sl.value
                key = self.eval(sl, scope)
                if isinstance(base, ContainerValue) and base.type_name == "dict" and isinstance(key, ConstValue):
                    if base.keys is not None and base.complete and key.known:
                        if key.value not in base.keys:
                            raise Raise("KeyError", "key")
                    elif not base.complete:
                        raise _Undecided()
                self.exec_stmt(stmt, scope)
            elif isinstance(stmt, ast.For) and self.installing:
                # installing members: ``for name, method in new_methods.items(): setattr(cls, name, method)``
                # over a dict the body built is read item by item
                items = self._loop_items(self.eval(stmt.iter, scope))
                if items is None or stmt.orelse:
                    raise _Undecided()
                for v in items:
                    self.assign(stmt.target, None, scope, v)
                    try:
                        self._exec_function_body(stmt.body, scope)
                    except _Break:
                        break
                    except _Continue:
                        continue
            elif isinstance(stmt, (ast.For, ast.While, ast.With)):
                raise _Undecided()
            else:
                self.exec_stmt(stmt, scope)


_STR_METHODS = frozenset(("replace", "strip", "lstrip", "rstrip", "lower", "upper", "format", "join", "title",
                          "capitalize", "split", "rsplit", "splitlines", "removeprefix", "removesuffix",
                          "startswith", "endswith", "isidentifier", "isupper", "islower", "isdigit", "isalpha"))


_MUTATORS = frozenset(("append", "extend", "insert", "update", "setdefault", "add", "pop", "popitem", "remove",
                       "discard", "clear", "sort"))


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Undecided(Exception):
    pass


def _binds_dynamically(node):
    for n in ast.walk(node):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store):
            v = n.value
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("globals", "vars"):
                return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend"):
            if isinstance(n.func.value, ast.Name) and n.func.value.id == "__all__":
                return True
    return False


def _numpydoc_return_type(node):
    """The type of a single ``Returns`` entry of a numpydoc docstring (``value : float``), if a constant type."""
    try:
        doc = ast.get_docstring(node)
    except Exception:
        return None
    if not doc:
        return None
    lines = doc.splitlines()
    for i, line in enumerate(lines[:-2]):
        if line.strip() == "Returns" and set(lines[i + 1].strip()) == {"-"}:
            entry = lines[i + 2].strip()
            rest = lines[i + 3:]
            for j, l in enumerate(rest):
                if l.strip() and not l[:1].isspace():
                    # the next unindented line: another return value, or the next section
                    if j + 1 < len(rest) and set(rest[j + 1].strip()) == {"-"}:
                        break
                    return None
            t = entry.split(":", 1)[1].strip() if ":" in entry else entry
            t = t.split(",")[0].strip()
            if t in ("float", "int", "str", "bool", "complex", "bytes"):
                return t
            return None
    return None


def _annotated_value_type(ann):
    """``dict[str, str]`` / ``Dict[str, int]`` -> the value type when it is a constant type."""
    if isinstance(ann, ast.Subscript):
        base = dotted_name(ann.value) or ""
        if base.split(".")[-1] in ("dict", "Dict", "Mapping"):
            sl = ann.slice
            if isinstance(sl, ast.Index):
                sl = sl.value
            if isinstance(sl, ast.Tuple) and len(sl.elts) == 2:
                v = dotted_name(sl.elts[1])
                return {"str": str, "int": int, "float": float, "bool": bool, "bytes": bytes}.get(v or "")
    return None


def _defs_mutating_globals(tree, text=None):
    """Top-level defs that append to ``__all__`` or declare ``global __all__``."""
    out = set()
    if text is not None and "__all__" not in text:
        return out
    lines = text.splitlines() if text is not None else None
    for top in tree.body:
        if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if lines is not None and getattr(top, "end_lineno", None):
            if not any("__all__" in l for l in lines[top.lineno - 1:top.end_lineno]):
                continue
        for n in ast.walk(top):
            if isinstance(n, ast.Global) and "__all__" in n.names:
                out.add(top)
                break
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "__all__" and \
                    n.attr in ("append", "extend", "insert"):
                out.add(top)
                break
    return out


def _mutates_globals(fn):
    """A module-level function that appends to ``__all__``, declares ``global __all__`` or writes globals()."""
    for n in ast.walk(fn):
        if isinstance(n, ast.Global) and "__all__" in n.names:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend",
                                                                                             "insert"):
            if isinstance(n.func.value, ast.Name) and n.func.value.id == "__all__":
                return True
    return False


def _type_check_only(node):
    for d in getattr(node, "decorator_list", []):
        n = dotted_name(d)
        if n and n.split(".")[-1] == "type_check_only":
            return True
    return False


def _raises(body):
    return bool(body) and isinstance(body[-1], ast.Raise)


def _is_overload(node):
    for d in getattr(node, "decorator_list", []):
        n = dotted_name(d)
        if n and n.split(".")[-1] == "overload":
            return True
    return False


def _copy_function(fv):
    w = FunctionValue(fv.node, fv.module, fv.qualname, fv.source, fv.scope)
    w.module_override = fv.module_override
    w.decorators = fv.decorators
    w.wrapped_signature = fv.wrapped_signature
    w.signature_source = fv.signature_source
    return w


def _unknown_const(t):
    c = ConstValue(None)
    c.known = False
    c.type = t
    return c


ConstValue.known = True


def _short(state, node):
    try:
        text = state.source.segment(node) if state.source is not None else None
    except Exception:
        text = None
    text = " ".join((text or type(node).__name__).split())
    return text if len(text) <= 80 else text[:79] + "\u2026"


def _cmp_const(op, actual, value):
    try:
        return bool(_CMP[type(op)](actual, value))
    except Exception:
        return None


def _version_info_value(node, target):
    """Value of sys.version_info-style expressions for the target Python (major, minor)."""
    d = dotted_name(node)
    full = (target[0], target[1], 0, "final", 0)
    if d == "sys.version_info":
        return full
    if d in ("sys.version_info.major",):
        return target[0]
    if d in ("sys.version_info.minor",):
        return target[1]
    if d in ("PY3", "PY2"):
        return None
    if isinstance(node, ast.Subscript) and dotted_name(node.value) == "sys.version_info":
        sl = node.slice
        if isinstance(sl, ast.Index):
            sl = sl.value
        if isinstance(sl, ast.Constant) and isinstance(sl.value, int):
            return full[sl.value]
        if isinstance(sl, ast.Slice):
            try:
                lo = ast.literal_eval(sl.lower) if sl.lower is not None else None
                hi = ast.literal_eval(sl.upper) if sl.upper is not None else None
                return full[lo:hi]
            except Exception:
                return None
    return None


import operator as _op

_CMP = {
    ast.Eq: _op.eq,
    ast.NotEq: _op.ne,
    ast.Lt: _op.lt,
    ast.LtE: _op.le,
    ast.Gt: _op.gt,
    ast.GtE: _op.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: lambda a, b: a is b,
    ast.IsNot: lambda a, b: a is not b,
}

_BINOPS = {
    ast.Add: _op.add,
    ast.Sub: _op.sub,
    ast.Mult: _op.mul,
    ast.Div: _op.truediv,
    ast.FloorDiv: _op.floordiv,
    ast.Mod: _op.mod,
    ast.Pow: _op.pow,
    ast.LShift: _op.lshift,
    ast.RShift: _op.rshift,
    ast.BitOr: _op.or_,
    ast.BitAnd: _op.and_,
    ast.BitXor: _op.xor,
}

_UNARY = {
    ast.USub: _op.neg,
    ast.UAdd: _op.pos,
    ast.Not: _op.not_,
    ast.Invert: _op.invert,
}


def _only_side_effects(body):
    """Statements that bind nothing the rest of a function reads and never leave it: calls (warnings.warn),
    imports made for them, pass."""
    return all(isinstance(stmt, (ast.Expr, ast.Import, ast.ImportFrom, ast.Pass)) for stmt in body)
