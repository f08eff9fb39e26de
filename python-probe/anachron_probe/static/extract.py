"""Static extraction: the public API surface of a library read from its source tree at a release tag."""
import ast
import re
import sys
import time

from ..c3 import c3_merge
from ..signatures import Source
from ..text import doc_summary, error_text
from ..signatures import signature_lines_consumed
from . import cython, stdlib
from .interp import AllList, Interp, ModuleState, Raise, Return, Scope
from .knowledge import knowledge_for
from .modules import discover
from .sigs import Signatures
from .downlevel import drop_type_parameters
from .treestubs import TreeStubIndex
from .values import (
    BoundMethodValue, ClassValue, CompiledValue, ConstValue, ContainerValue, ExternalValue, FunctionValue,
    InstanceValue, ModuleValue, PartialValue, UnknownValue, is_constant_value
)
from ..walker import CALLABLE_KINDS, TEST_COMPONENTS, is_public_module  # the runtime probe's rules, shared

class Extractor(object):
    def __init__(self, library, tree, package_dir=None, version=None, target_python=None, parent=None,
                 external_surfaces=None, siblings=None):
        """``parent``: build the stub view of ``parent``'s tree (modules read from their ``.pyi`` where
        the release ships one, as a type checker would). ``siblings``: other top-level packages of the same
        release (attrs 22.2+ ships ``attrs`` beside ``attr`` and re-exports its names): read from the same tree,
        lazily, so what this library takes from them is described as they define it."""
        self.library = library
        self.tree = tree
        self.version = version
        self.parent = parent
        self.stub_mode = parent is not None
        self._stub_world = None
        self.external = dict(external_surfaces or {}) if parent is None else parent.external
        self.sibling_names = frozenset(siblings or ()) - {library} if parent is None else parent.sibling_names
        self._siblings = {} if parent is None else parent._siblings
        if parent is not None:
            self.notes = parent.notes
            self.removal_notes = parent.removal_notes
            self.python_conditional = parent.python_conditional
            self.files = parent.files
            self.package_dir = parent.package_dir
            self._texts = parent._texts
            self.layout = parent.layout
            self.target_python = parent.target_python
        else:
            self.notes = set()
            self.removal_notes = {}  # path -> the library's own note on a removed name (text.REMOVAL_NOTE_TABLES)
            self.python_conditional = {}  # module -> why it exists on some supported Pythons only
            self.forced_target = target_python
            self.files = tree.files()
            self.package_dir = package_dir or _find_package_dir(self.files, library)
            self._texts = {}
            self.layout = discover(self, library, self.package_dir)
            self.target_python = target_python or self.layout.target_python or (3, 12)
            self.python_conditional.update(self.layout.python_conditional)
        self.modules = {}
        for name, info in self.layout.modules.items():
            st = ModuleState(name, info.path, info.is_package, info.kind)
            if name in self.layout.stubs and (info.kind == "compiled" or self.stub_mode):
                st.path, st.is_package = self.layout.stubs[name]
                st.kind = "stub"
            self.modules[name] = st
        self.requirements = self.layout.requirements
        self.decorator_parameters = parent.decorator_parameters if parent is not None else _decorator_parameters(library)
        self.interp = Interp(self)
        from .knowledge import Knowledge

        self.knowledge = Knowledge(self) if self.stub_mode else knowledge_for(library)(self)
        for name in list(self.modules):
            st = self.modules[name]
            if st.kind == "stub" and self.knowledge.generated_module(name) is not None:
                del self.modules[name]
        self.stubs = TreeStubIndex(self)
        self.sigs = Signatures(self)
        self.load_order = []

    @property
    def c_parsers(self):
        """What the release's C sources parse (cparsers.py), read once when a compiled signature first asks."""
        if self.parent is not None:
            return self.parent.c_parsers
        if getattr(self, "_c_parsers", None) is None:
            from .cparsers import CParsers

            self._c_parsers = CParsers(self)
        return self._c_parsers

    @property
    def stub_world(self):
        if self._stub_world is None:
            self._stub_world = Extractor(self.library, self.tree, parent=self)
        return self._stub_world

    def stub_lookup(self, modname, name):
        """``modname.name`` as the release's stubs describe it (None without a stub for the module)."""
        if self.stub_mode or modname not in self.layout.stubs:
            return None
        sw = self.stub_world
        st = sw.load(modname)
        if st is None or st.status != "done":
            return None
        if name in st.ns:
            v = st.ns[name]
            if isinstance(v, UnknownValue):
                v = self._stub_reevaluated(sw, st, name)
            return None if v is None or isinstance(v, UnknownValue) else v
        return None

    def _stub_reevaluated(self, sw, st, name):
        """A stub's ``name = expr`` evaluated again once every stub is loaded: stubs are declarations, so a name
        that was not yet bound while modules imported each other (``np.dtype`` inside numpy's own stubs) counts."""
        try:
            body = sw.parse_file(st.path).body if st.path is not None else []
        except SyntaxError:
            return None
        for stmt in body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                try:
                    return sw.interp.eval(stmt.value, Scope(sw.interp, st))
                except Exception:  # the value stays unknown; the reader never fails on a stub
                    return None
        return None

    def stub_all(self, modname):
        if self.stub_mode or modname not in self.layout.stubs:
            return None
        st = self.stub_world.load(modname)
        if st is None or st.status != "done" or st.all_ is None:
            return None
        if not st.all_.complete and not st.all_.items and st.path is not None:
            # "__all__: list[str]" declares without listing: the stub's own public definitions are the names
            # (numpy 2.0's dtypes.pyi, whose module adds its classes at import time)
            try:
                return _defined_public_names(self.stub_world.parse_file(st.path).body)
            except SyntaxError:
                return None
        return list(st.all_.items)

    # -- plumbing ----------------------------------------------------------------------------------------------

    def note(self, module, text):
        self.notes.add((module, text))

    def in_library(self, name):
        return name == self.library or name.startswith(self.library + ".")

    def read_text(self, path):
        if path in self._texts:
            return self._texts[path]
        data = self.tree.read(path)
        text = None
        if data is None:
            self._texts[path] = None
            return None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        self._texts[path] = text
        return text

    def parse_file(self, path):
        """The AST of a file of the tree (cached; raises SyntaxError)."""
        cache = self.__dict__.setdefault("_ast_cache", {}) if self.parent is None else \
            self.parent.__dict__.setdefault("_ast_cache", {})
        hit = cache.get(path)
        if hit is None:
            text = self.read_text(path)
            if text is None:
                hit = SyntaxError("missing blob")
            else:
                try:
                    hit = parse_newer(text, path)
                except (SyntaxError, ValueError) as e:
                    hit = e if isinstance(e, SyntaxError) else SyntaxError(str(e))
            cache[path] = hit
        if isinstance(hit, SyntaxError):
            raise hit
        return hit

    def external_available(self, name):
        top = name.split(".")[0]
        added = stdlib.ADDED_IN.get(top)
        if added is not None:
            return tuple(self.target_python[:2]) >= added
        if stdlib.is_stdlib(top):
            removed = stdlib.REMOVED_IN.get(top)
            # present on the oldest supported Python is enough: the library's modules that import it exist there
            oldest = self.layout.oldest_python or self.target_python
            return removed is None or tuple(oldest[:2]) < removed
        return top in self.requirements or top in self.sibling_names

    def external_python_condition(self, name):
        """Why importing ``name`` works on some supported Pythons only (a standard-library module a newer one
        removed), else None."""
        removed = stdlib.REMOVED_IN.get(name.split(".")[0])
        if removed is None or not stdlib.is_stdlib(name.split(".")[0]) or tuple(self.target_python[:2]) < removed:
            return None
        return "imports %s, which Python %d.%d removed" % ((name.split(".")[0],) + tuple(removed))

    def mark_python_conditional(self, module, why):
        """``module`` exists on some of the Pythons the release supports only (recorded in the surface: a runtime
        on another Python lacking it is no disagreement)."""
        self.python_conditional.setdefault(module, why)

    def external_value(self, dotted):
        """Something outside the library: described by a given surface of its library, else (standard library)
        by this interpreter."""
        top = dotted.split(".")[0]
        if top in self.sibling_names:
            v = self.sibling_value(dotted)
            if v is not None:
                return v
        surf = self.external.get(top)
        if surf is not None:
            rec = surf.record(dotted)
            if rec is not None:
                if rec.get("kind") == "module":
                    return ModuleValue(rec.get("defined_in") or dotted, False)
                v = ExternalValue(dotted, rec.get("kind"), False)
                v.record = rec
                return v
            if dotted in surf.modules or dotted == top:
                return ModuleValue(dotted, False)
        return stdlib.external_value(dotted)

    def sibling(self, top):
        """The reader of the sibling package ``top`` (same tree, same version and target Python; never run)."""
        sib = self._siblings.get(top)
        if sib is None:
            sib = Extractor(top, self.tree, None, self.version, self.target_python,
                            siblings=(self.sibling_names | {self.library}) - {top})
            self._siblings[top] = sib
        return sib

    def sibling_value(self, dotted):
        """``dotted`` in a sibling package: a module there is an outside module of this library (its names are
        looked up here again, through this method); anything else is the sibling's own value (a function keeps its
        signature, a class its members). None when the sibling does not define it."""
        sib = self.sibling(dotted.split(".")[0])
        if sib.module_exists(dotted):
            st = sib.load(dotted)
            return ModuleValue(dotted, False) if st is not None and st.status == "done" else None
        modname, _, name = dotted.rpartition(".")
        if not modname or not sib.module_exists(modname):
            return None
        st = sib.load(modname)
        if st is None or st.status != "done":
            return None
        v = sib.module_getattr(modname, name)
        if v is None or isinstance(v, UnknownValue):
            return None
        if isinstance(v, ModuleValue):
            return ModuleValue(v.name, False)
        return v

    def external_star_names(self, module):
        top = module.split(".")[0]
        if top in self.sibling_names and self.sibling(top).module_exists(module):
            sib = self.sibling(top)
            st = sib.load(module)
            if st is not None and st.status == "done":
                return [n for n in sib.star_names(st) if not n.startswith("_")]
        surf = self.external.get(top)
        if surf is not None and (module in surf.modules or surf.children.get(module)):
            return [n for n in surf.module_names(module) if not n.startswith("_")]
        return stdlib.star_names(module)

    def module_exists(self, name):
        return name in self.modules or self.knowledge.generated_module(name) is not None

    # -- loading -----------------------------------------------------------------------------------------------

    def parse(self, state):
        """AST of a module's source (Python, stub or Cython), or None (recorded)."""
        text = state.text
        if text is None:
            return None
        try:
            if state.kind == "pyx":
                pxd = self.read_text(state.path[:-4] + ".pxd") if state.path and state.path.endswith(".pyx") else None
                tree, problems = cython.to_python_ast(text, state.path, pxd)
                for p in problems:
                    self.note(state.name, p)
                return tree
            if state.path is not None and text is self._texts.get(state.path):
                return self.parse_file(state.path)
            return parse_newer(text, state.path or state.name)
        except SyntaxError as e:
            self.note(state.name, "SyntaxError: %s (line %s)" % (e.msg, e.lineno))
            if tuple(self.target_python[:2]) > tuple(sys.version_info[:2]):
                # newer syntax than this interpreter reads: the module imports on the target Python; its names
                # stay unknown (run the extractor with a newer Python to read it)
                self.note(state.name, "not read: Python %d.%d syntax (this interpreter is %d.%d)" % (
                    tuple(self.target_python[:2]) + tuple(sys.version_info[:2])))
                state.kind = "compiled"
                state.path = None
                return None
            state.error = "SyntaxError: %s" % e.msg
            raise Raise("SyntaxError", state.error)
        except (ValueError, RecursionError, MemoryError) as e:
            state.error = error_text(e)
            self.note(state.name, "parse: " + state.error)
            raise Raise("Other", state.error)

    def load(self, name, importer=None):
        """Import ``name`` (a library module) the way Python would: parents first, each body once."""
        state = self.modules.get(name)
        if state is None:
            gen = self.knowledge.generated_module(name)
            if gen is None:
                # Not in the tree: a compiled extension, a file generated at build time, or a package vendored
                # from a git submodule (whose files the repository does not hold).
                state = ModuleState(name, None, "." not in name, "compiled")
                state.placeholder = True
                self.modules[name] = state
                rel = "/".join([self.package_dir] + name.split(".")[1:])
                sub = [s for s in getattr(self.tree, "submodules", []) if rel == s or rel.startswith(s + "/")]
                if sub:
                    self.note(name, "vendored from the git submodule %s (not in the repository): names unknown"
                              % sub[0])
                else:
                    self.note(name, "module not in the source tree (compiled or generated at build time); "
                                    "its names are unknown unless documented elsewhere")
            else:
                kind, text = gen
                state = ModuleState(name, None, False, kind, text)
                self.modules[name] = state
        if state.status != "new":
            return state
        parent = name.rsplit(".", 1)[0] if "." in name else None
        if parent is not None:
            pst = self.load(parent)
            if pst is None or pst.status == "failed":
                state.status = "failed"
                state.error = "parent package %s failed" % parent
                return state
            if state.status != "new":
                return state
        state.status = "running"
        self.load_order.append(name)
        if state.path is not None and state.text is None:
            state.text = self.read_text(state.path)
            if state.text is None:
                self.note(name, "source blob missing from the repository (%s)" % state.path)
                state.kind = "compiled"
        if state.text is not None:
            state.source = Source(state.text)
        try:
            try:
                if state.text is not None:
                    self.interp.run_module(state)
                self.knowledge.module_loaded(state)
            except (Raise, Return, RecursionError):
                raise
            except Exception as e:  # a defect of the reader: the module stays as far as it was read
                self.note(name, "static reader: %s (module read in part)" % error_text(e))
        except Raise as r:
            state.status = "failed"
            state.error = state.error or ("%s: %s" % (r.type_name, r.message))
            return state
        except Return:
            pass
        except RecursionError:
            state.status = "failed"
            state.error = "RecursionError while reading the module"
            return state
        state.status = "done"
        if parent is not None:
            pst = self.modules.get(parent)
            last = name.rsplit(".", 1)[1]
            if pst is not None:
                pst.bind(last, ModuleValue(name, True))
                pst.loaded_children.add(last)
        return state

    # -- lookups -----------------------------------------------------------------------------------------------

    def module_getattr(self, modname, name, depth=0):
        st = self.modules.get(modname)
        if st is None:
            st = self.load(modname)
            if st is None:
                return None
        if st.status == "new":
            self.load(modname)
        if name == "__all__" and st.all_ is not None:
            return self.interp.module_all_value(modname)
        if name in st.ns:
            return st.ns[name]
        if name == "__name__":
            return ConstValue(modname)
        if name == "__doc__":
            return ConstValue(st.doc)
        if name in ("__file__", "__package__"):
            from .interp import _unknown_const

            return _unknown_const(str)
        if name in ("__path__",) and st.is_package:
            return ContainerValue("list", None, complete=False)
        if name in ("__spec__", "__loader__", "__builtins__", "__dict__"):
            return UnknownValue(name)
        if st.getattr_fn is not None and depth < 4:
            v = self.interp.call_function_body(st.getattr_fn, [ConstValue(name)])
            if v is not None:
                return v
        for src, is_lib in st.open_sources:
            v = self.open_lookup(src, is_lib, name)
            if v is not None:
                return v
        if getattr(st, "dynamic", False):
            v = self.stub_lookup(modname, name) or self.knowledge.registered_names(modname).get(name)
            if v is not None:
                return v
        if st.kind in ("compiled", "generated") and st.path is None:
            return self.knowledge.compiled_value(modname, name, create=True)
        if st.kind == "stub":
            # a compiled module described by its stub: what the build scripts say about it
            return self.knowledge.compiled_value(modname, name, create=False, described_only=True)
        return None

    def module_closed(self, modname):
        """True when the reader knows every name of the module (plain Python, nothing dynamic)."""
        st = self.modules.get(modname)
        if st is None or st.status != "done" or st.kind not in ("py", "generated", "pyx"):
            return False
        return not (st.open_sources or getattr(st, "dynamic", False) or st.getattr_fn is not None)

    def resolve_path(self, ref):
        """The value a dotted reference names (``ndarray.sum``, ``numpy.ndarray.sum``), from the root module."""
        parts = ref.split(".")
        if parts and parts[0] == self.library:
            parts = parts[1:]
        if not parts:
            return None
        cur = ModuleValue(self.library, True)
        for p in parts:
            if isinstance(cur, ModuleValue) and cur.library:
                cur = self.module_getattr(cur.name, p)
            elif isinstance(cur, ClassValue):
                cur = self.class_member(cur, p)
            elif isinstance(cur, CompiledValue):
                cur = self.compiled_member(cur, p)
            else:
                return None
            if cur is None:
                return None
        return cur

    def module_has(self, modname, name):
        """Whether ``getattr(module, name)`` succeeds: True / False / None (cannot tell)."""
        st = self.modules.get(modname)
        if st is None or st.status != "done":
            return None
        if name in st.ns or (name == "__all__" and st.all_ is not None):
            return True
        if st.kind not in ("py", "generated", "pyx") or getattr(st, "dynamic", False):
            return None
        if st.getattr_fn is not None:
            kind, v = self.interp.call_function_body(st.getattr_fn, [ConstValue(name)], outcome=True)
            if kind == "value":
                return True
            if kind == "raise" and v == "AttributeError" and not st.open_sources:
                return False
            return None
        if st.open_sources:
            # a star import from a compiled module: what the source says about it is not all it holds
            return None
        return False

    def open_lookup(self, src, is_lib, name):
        if is_lib:
            st = self.modules.get(src)
            if st is not None and name in st.ns:
                return st.ns[name]
            return self.knowledge.compiled_value(src, name, create=True)
        if name.startswith("_"):
            return None
        return None

    def star_names(self, state):
        if state.all_ is not None:
            if not state.all_.complete:
                # __all__ only partly known: its known part and what the module itself defines (imports left out)
                names = list(state.all_.items)
                have = set(names)
                for n in state.order:
                    if n.startswith("_") or n in have or n in state.stub_hidden:
                        continue
                    v = state.ns.get(n)
                    if isinstance(v, (FunctionValue, ClassValue)) and v.module == state.name or \
                            isinstance(v, InstanceValue) and isinstance(v.cls, ClassValue):
                        names.append(n)
                return names
            return list(state.all_.items)
        names = [n for n in state.order if not n.startswith("_") and n not in state.stub_hidden]
        if state.kind in ("compiled", "generated") or state.open_sources:
            extra = self.knowledge.compiled_names(state.name)
            names += [n for n in extra if not n.startswith("_") and n not in state.ns]
        return names

    def class_member(self, cls, attr):
        for c in self.mro(cls):
            if isinstance(c, ClassValue) and attr in c.ns:
                return c.ns[attr]
            if isinstance(c, CompiledValue) and c.members and attr in c.members:
                return self.compiled_member(c, attr)
        return None

    def compiled_member(self, cv, attr):
        if cv.members and attr in cv.members:
            kind, sig, doc = cv.members[attr]
            v = CompiledValue(cv.module, cv.name + "." + attr, kind, sig, doc, defined_in=cv.module_attr())
            return v
        return None

    def mro(self, cls, _depth=0):
        """C3 linearisation over the library's classes; classes from elsewhere stay at their place, once."""
        if _depth > 30:
            return [cls]
        key = id(cls)
        cache = getattr(self, "_mro_cache", None)
        if cache is None:
            cache = self._mro_cache = {}
        if key in cache:
            return cache[key][1]
        bases = []
        if isinstance(cls, ClassValue):
            bases = [b for b in cls.bases if isinstance(b, (ClassValue, CompiledValue, ExternalValue))]
        elif isinstance(cls, CompiledValue):
            bases = list(getattr(cls, "bases", None) or [])
        out = c3_merge(cls, [self.mro(b, _depth + 1) for b in bases] + [list(bases)], id)
        cache[key] = (cls, out)
        return out

    def is_property_like(self, cls):
        for c in self.mro(cls):
            if isinstance(c, ClassValue) and "__get__" in c.ns:
                return True
        return False

    def cython_binding(self, state):
        """Whether Cython functions of this module are introspectable (``binding=True``): the file's
        directive comment, else the default of the Cython the release requires (3.x: True)."""
        cached = getattr(state, "cython_binding", None)
        if cached is not None:
            return cached
        value = None
        for line in (state.text or "").splitlines()[:30]:
            m = re.match(r"^\s*#\s*cython\s*:(.*)$", line)
            if m:
                b = re.search(r"binding\s*=\s*(True|False)", m.group(1))
                if b:
                    value = b.group(1) == "True"
        if value is None:
            default = getattr(self, "_cython_default", None)
            if default is None:
                default = False
                for f in ("pyproject.toml", "setup.py", "requirements/build_requirements.txt"):
                    if f in self.files:
                        m = re.search(r"[Cc]ython\s*>=?\s*(\d+)", self.read_text(f) or "")
                        if m:
                            default = int(m.group(1)) >= 3
                            break
                self._cython_default = default
            value = default
        state.cython_binding = value
        return value

    def returned_class(self, fv):
        """The library class every ``return`` of ``fv`` instantiates (or ``property``: a factory of properties, as
        pandas' ``_create_delegator_property``), or None."""
        node = fv.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fv.scope is None:
            return None
        cache = getattr(self, "_returns_cache", None)
        if cache is None:
            cache = self._returns_cache = {}
        key = id(node)
        if key in cache:
            return cache[key][1]
        cache[key] = (node, None)
        found = None
        ok = True
        for n in _walk_function(node):
            if isinstance(n, ast.Return):
                if not isinstance(n.value, ast.Call):
                    ok = False
                    break
                try:
                    v = self.interp.eval(n.value.func, Scope(self.interp, fv.scope))
                except (Raise, Return):
                    v = None
                if isinstance(v, ExternalValue) and v.dotted == "builtins.property":
                    v = found if isinstance(found, ExternalValue) else v
                if not isinstance(v, (ClassValue, ExternalValue)) or (isinstance(v, ExternalValue) and
                                                                       v.dotted != "builtins.property") or \
                        (found is not None and v is not found):
                    ok = False
                    break
                found = v
        result = found if ok else None
        cache[key] = (node, result)
        return result

    def returned_nested_def(self, fv):
        """A function whose every ``return`` hands back one def nested in it returns that function."""
        node = fv.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fv.scope is None:
            return None
        nested = dict((n.name, n) for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        if not nested:
            return None
        found = None
        for n in _walk_function(node):
            if isinstance(n, ast.Return):
                name = self._returned_name(n.value, fv)
                if name not in nested or (found is not None and found.name != name):
                    return None
                found = nested[name]
        if found is None:
            return None
        return FunctionValue(found, fv.module, fv.qualname + ".<locals>." + found.name, fv.source, fv.scope)

    def _returned_name(self, value, fv):
        """The name a ``return`` hands back: ``return f``, or ``return set_function_name(f, name, cls)`` through a
        library function that returns that argument (pandas' stat-method factories)."""
        if isinstance(value, ast.Name):
            return value.id
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            callee = self.modules.get(fv.module).ns.get(value.func.id) if fv.module in self.modules else None
            at = self.returned_argument(callee) if isinstance(callee, FunctionValue) else None
            if at is not None and at < len(value.args) and isinstance(value.args[at], ast.Name):
                return value.args[at].id
        return None

    def returned_argument(self, fv):
        """Index of the parameter every ``return`` of library function ``fv`` hands back unchanged, or None."""
        node = fv.node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        params = [p.arg for p in list(getattr(node.args, "posonlyargs", [])) + list(node.args.args)]
        returns = [n for n in _walk_function(node) if isinstance(n, ast.Return)]
        names = set(r.value.id if isinstance(r.value, ast.Name) else None for r in returns)
        if len(names) != 1 or None in names or names.copy().pop() not in params:
            return None
        return params.index(names.pop())

    def call_returns_argument(self, cls):
        """Does calling an instance of library class ``cls`` return what it is called with (a decorator class:
        pandas' ``Appender``/``Substitution``, whose ``__call__(self, func)`` sets ``func.__doc__`` and returns
        ``func``)?"""
        if not isinstance(cls, ClassValue):
            return False
        call = self.class_member(cls, "__call__")
        node = getattr(call, "node", None) if isinstance(call, FunctionValue) else None
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(node.args.args) < 2:
            return False
        arg = node.args.args[1].arg
        returns = [n for n in _walk_function(node) if isinstance(n, ast.Return)]
        return bool(returns) and all(isinstance(r.value, ast.Name) and r.value.id == arg for r in returns)

    def accessor_class(self, raw, owner, cls):
        """The class an accessor in a class body stands for (the runtime probe's ``Probe.accessor_class``, read from
        the source): ``raw`` is an instance of a library class with no __set__ or __delete__ whose __get__ hands
        back, read on the class (``if obj is None: return self._accessor``), what its __init__ kept of a parameter
        (``self._accessor = accessor``); the argument the class body's call passes there, when it is a library class
        (pandas: ``str = CachedAccessor("str", StringMethods)``). None for anything else."""
        if not isinstance(raw, InstanceValue) or not isinstance(raw.cls, ClassValue) or \
                not isinstance(raw.call, ast.Call) or not isinstance(owner, ClassValue):
            return None
        if self.class_member(raw.cls, "__set__") is not None or self.class_member(raw.cls, "__delete__") is not None:
            return None
        get, init = self.class_member(raw.cls, "__get__"), self.class_member(raw.cls, "__init__")
        if not isinstance(get, FunctionValue) or not isinstance(init, FunctionValue):
            return None
        attr = _class_level_return(get.node)
        param = _kept_parameter(init.node, attr) if attr is not None else None
        if param is None:
            return None
        call = raw.call
        names = [a.arg for a in init.node.args.args[1:]]
        arg = None
        if param in names and names.index(param) < len(call.args) and \
                not any(isinstance(a, ast.Starred) for a in call.args[:names.index(param) + 1]):
            arg = call.args[names.index(param)]
        else:
            arg = next((k.value for k in call.keywords if k.arg == param), None)
        if arg is None:
            return None
        value = self.interp.eval(arg, Scope(self.interp, owner.scope))
        if not isinstance(value, ClassValue) or value is raw.cls or value is cls:
            return None
        return value if self.in_library(value.module_attr() or "") else None

    def apply_library_decorator(self, value, dec_fn, dec_node, scope):
        return self.sigs.apply_library_decorator(value, dec_fn, dec_node, scope)

    # -- the run -----------------------------------------------------------------------------------------------

    def run(self):
        t0 = time.time()
        root = self.load(self.library)
        if root is None:
            self.note(self.library, "package %s not found under %s" % (self.library, self.package_dir))
            return
        # Like the runtime walk: every public module below an importable package, breadth first.
        queue = [self.library]
        self.walked = []
        seen = set()
        while queue:
            pkg = queue.pop(0)
            st = self.modules.get(pkg)
            if st is None or st.status != "done" or not st.is_package:
                continue
            children = sorted(n for n in self.modules if n.startswith(pkg + ".") and "." not in n[len(pkg) + 1:])
            children += sorted(n for n in self.knowledge.extra_modules() if n.startswith(pkg + ".")
                               and "." not in n[len(pkg) + 1:] and n not in self.modules)
            for name in children:
                if name in seen or not is_public_module(name):
                    continue
                if self.modules.get(name) is not None and (self.modules[name].kind == "namespace" or
                                                           getattr(self.modules[name], "placeholder", False)):
                    continue
                seen.add(name)
                cst = self.load(name)
                if cst is None:
                    continue
                self.walked.append(name)
                if cst.status == "done" and cst.is_package:
                    queue.append(name)
        self.elapsed_load = time.time() - t0

    def module_records(self):
        from .collect import Collector

        return Collector(self).collect()


def _class_level_return(get):
    """``ATTR`` where a descriptor's ``__get__(self, obj, ...)`` starts a branch ``if obj is None: return self.ATTR``."""
    args = getattr(get, "args", None)
    if args is None or len(args.args) < 2:
        return None
    me, obj = args.args[0].arg, args.args[1].arg
    for stmt in get.body:
        if not isinstance(stmt, ast.If) or not stmt.body:
            continue
        t = stmt.test
        if isinstance(t, ast.Compare) and isinstance(t.left, ast.Name) and t.left.id == obj and len(t.ops) == 1 and \
                isinstance(t.ops[0], ast.Is) and isinstance(t.comparators[0], ast.Constant) and \
                t.comparators[0].value is None:
            ret = stmt.body[0]
            if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Attribute) and \
                    isinstance(ret.value.value, ast.Name) and ret.value.value.id == me:
                return ret.value.attr
            return None
    return None


def _kept_parameter(init, attr):
    """The parameter of ``__init__(self, ...)`` its body keeps as ``self.ATTR = parameter``."""
    args = getattr(init, "args", None)
    if args is None or not args.args:
        return None
    me, params = args.args[0].arg, set(a.arg for a in args.args[1:] + args.kwonlyargs)
    for stmt in init.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Name):
            t = stmt.targets[0]
            if isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and \
                    t.value.id == me and stmt.value.id in params:
                return stmt.value.id
    return None


def _walk_function(node):
    """Nodes of a function body, not descending into nested functions or classes."""
    stack = list(node.body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue  # a def in the body is there, its own statements are not
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            stack.append(child)


def _decorator_parameters(library):
    """The library file's ``[static] decorator-parameters``: dotted path of a decorator class -> (keyword-only
    parameters it adds, as (name, default text), the ``**name`` it adds where the function has none)."""
    from ..libraries import find
    from ..signatures import expr_default_text

    definition = find(library)
    out = {}
    for path, text in sorted(((definition or {}).get("static") or {}).get("decoratorParameters", {}).items()):
        src = "def _f(*, " + text + "): pass"
        a = ast.parse(src).body[0].args
        kwonly = [(p.arg, expr_default_text(d, src, {}) if d is not None else None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
        out[path] = (kwonly, a.kwarg.arg if a.kwarg is not None else None)
    return out


def _find_package_dir(files, library):
    cands = [f[: -len("/__init__.py")] for f in files if f.endswith(library + "/__init__.py")]
    cands = [c for c in cands if c == library or c.endswith("/" + library)]
    cands.sort(key=lambda c: (c.count("/"), c))
    return cands[0] if cands else library


def parse_newer(text, filename):
    """``ast.parse``, and where this interpreter rejects PEP 695 type parameters, the text without them."""
    try:
        return ast.parse(text, filename=filename)
    except SyntaxError:
        lowered = drop_type_parameters(text)
        if lowered is None:
            raise
        try:
            return ast.parse(lowered, filename=filename)
        except SyntaxError:
            pass
        raise


def _defined_public_names(body):
    """Public names a stub defines itself (classes, functions, assignments; imports are not re-exports)."""
    out = []
    for stmt in body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(stmt.name)
        elif isinstance(stmt, ast.Assign):
            out.extend(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            out.append(stmt.target.id)
        elif isinstance(stmt, ast.If):
            out.extend(_defined_public_names(stmt.body) + _defined_public_names(stmt.orelse))
    return sorted(set(n for n in out if not n.startswith("_")))
