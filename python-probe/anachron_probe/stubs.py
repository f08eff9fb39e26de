"""Signatures from the .pyi stubs a library ships, parsed with ast (never imported)."""
import ast
import os

from .ast_names import absolute_import, dotted_name
from .signatures import (
    KIND_ORDER, POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, UNKNOWN_DEFAULT, VAR_KEYWORD, VAR_POSITIONAL,
    Source, agreed_returns, expr_default_text, make_param, make_signature, merge_parameter_lists, returns_text,
    star_and_keyword_params
)

_MAX_HOPS = 8


def _decorator_names(fn):
    names = set()
    for d in fn.decorator_list:
        node = d.func if isinstance(d, ast.Call) else d
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


class _Scope(object):
    """Top-level or class-body definitions of a stub."""

    def __init__(self):
        self.defs = {}  # name -> [FunctionDef, ...] in source order
        self.classes = {}  # name -> _ClassScope
        self.imports = {}  # name -> (absolute module, original name or None for a module import)
        self.aliases = {}  # name -> dotted name (``float_ = float64``)
        self.star_imports = []  # absolute module names
        self.instances = {}  # name -> dotted class name (``_rand: RandomState``)


class _ClassScope(_Scope):
    def __init__(self, node):
        _Scope.__init__(self)
        self.node = node
        self.bases = []  # dotted names


class StubModule(object):
    def __init__(self, name, path, is_package, source):
        self.name = name
        self.path = path
        self.is_package = is_package
        self.source = Source(source)
        tree = ast.parse(source, filename=path)
        self.scope = _Scope()
        self._fill(self.scope, tree.body, top=True)

    def _fill(self, scope, body, top):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                scope.defs.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.ClassDef):
                if node.name not in scope.classes:
                    cs = _ClassScope(node)
                    cs.bases = [b for b in (dotted_name(x, True) for x in node.bases) if b]
                    self._fill(cs, node.body, top=False)
                    scope.classes[node.name] = cs
            elif isinstance(node, ast.If):
                self._fill(scope, node.body, top)
                self._fill(scope, node.orelse, top)
            elif isinstance(node, ast.Try):
                self._fill(scope, node.body, top)
            elif top and isinstance(node, ast.ImportFrom):
                module = absolute_import(self.name, self.is_package, node.module or "", node.level or 0)
                for alias in node.names:
                    if alias.name == "*":
                        scope.star_imports.append(module)
                    else:
                        scope.imports.setdefault(alias.asname or alias.name, (module, alias.name))
            elif top and isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        scope.imports.setdefault(alias.asname, (alias.name, None))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                if value is None:
                    ann = dotted_name(node.annotation, True)
                    if ann and isinstance(node.target, ast.Name):
                        scope.instances.setdefault(node.target.id, ann)
                    continue
                dotted = dotted_name(value, True)
                if dotted is None:
                    continue
                for t in targets:
                    if isinstance(t, ast.Name) and t.id != dotted:
                        scope.aliases.setdefault(t.id, dotted)


def _params_of(fn, source):
    a = fn.args
    out = []
    positional = list(getattr(a, "posonlyargs", [])) + list(a.args)
    n_posonly = len(getattr(a, "posonlyargs", []))
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for i, (arg, d) in enumerate(zip(positional, defaults)):
        kind = POSITIONAL_ONLY if i < n_posonly else POSITIONAL_OR_KEYWORD
        name = arg.arg
        if kind == POSITIONAL_OR_KEYWORD and name.startswith("__") and not name.endswith("__"):
            # pre-PEP 570 stub convention for positional-only parameters
            kind = POSITIONAL_ONLY
            name = name[2:]
        out.append(make_param(name, kind, None if d is None else expr_default_text(d, source)))
    out.extend(star_and_keyword_params(a, lambda d: expr_default_text(d, source)))
    # Positional-only via the old convention must precede the others.
    if any(p["kind"] == POSITIONAL_ONLY for p in out[n_posonly:]):
        last = max(i for i, p in enumerate(out) if p["kind"] == POSITIONAL_ONLY)
        for p in out[:last]:
            if p["kind"] == POSITIONAL_OR_KEYWORD:
                p["kind"] = POSITIONAL_ONLY
    return out


def merge_overloads(defs, source, drop_self):
    """One parameter list for a function and its overloads (union of names in first-seen order); the return type
    when every overload states the same one (see agreed_returns)."""
    lists = []
    returns = []
    for fn in defs:
        params = _params_of(fn, source)
        if drop_self and params and params[0]["kind"] in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
            params = params[1:]
        lists.append(params)
        text = None
        if fn.returns is not None:
            try:
                text = source.segment(fn.returns)
            except Exception:
                text = None
        returns.append(returns_text(text) if text else None)
    merged = merge_parameter_lists(lists)
    # Overloads: a return type only when they all agree (generic arguments aside), else None.
    return make_signature(merged, agreed_returns(returns), "stub")


def _first_visit(seen, stub, cs, hops):
    """Whether a lookup through base classes meets class ``cs`` of ``stub`` for the first time, within the hop
    limit; marks it met."""
    key = (stub.name, cs.node.name, cs.node.lineno)
    if key in seen or hops > _MAX_HOPS:
        return False
    seen.add(key)
    return True


class StubIndex(object):
    """Finds and caches the .pyi files of one library (root package) and answers lookups by dotted name."""

    def __init__(self, root_name, root_dirs, root_is_package=True):
        self.root_name = root_name
        self.root_is_package = root_is_package
        self.root_dirs = [d for d in root_dirs if isinstance(d, str)]
        self._modules = {}
        self._dir_stubs = {}
        self.errors = {}

    def _stub_path(self, module_name):
        if module_name != self.root_name and not module_name.startswith(self.root_name + "."):
            return None, False
        rest = module_name.split(".")[1:]
        if not self.root_is_package:
            # A single-module library: only ``<dir>/<name>.pyi``.
            for d in self.root_dirs:
                path = os.path.join(d, self.root_name + ".pyi")
                if not rest and os.path.isfile(path):
                    return path, False
            return None, False
        for d in self.root_dirs:
            base = os.path.join(d, *rest) if rest else d
            pkg = os.path.join(base, "__init__.pyi")
            if os.path.isfile(pkg):
                return pkg, True
            if rest and os.path.isfile(base + ".pyi"):
                return base + ".pyi", False
        return None, False

    def module(self, module_name):
        """The parsed stub of ``module_name``, None where there is none or it cannot be read (then ``errors`` says
        why)."""
        if module_name not in self._modules:
            stub = None
            try:
                found = self._read(module_name)
                if found is not None:
                    stub = StubModule(module_name, *found)
            except (SyntaxError, ValueError, OSError, RecursionError) as e:
                self.errors[module_name] = "%s: %s" % (type(e).__name__, e)
            self._modules[module_name] = stub
        return self._modules[module_name]

    def _read(self, module_name):
        """(path, is_package, source text) of the stub of ``module_name``, or None where it has none."""
        path, is_package = self._stub_path(module_name)
        if not path:
            return None
        with open(path, "rb") as f:
            return path, is_package, f.read().decode("utf-8", "replace")

    def directory_stubs(self, module_name):
        """Module names of every stub in the folder of (C extension) module ``module_name`` and its package
        folder, e.g. torch._C -> torch/_C/__init__.pyi, torch/_C/_VariableFunctions.pyi, ..."""
        if module_name in self._dir_stubs:
            return self._dir_stubs[module_name]
        names = []
        if module_name == self.root_name or module_name.startswith(self.root_name + "."):
            rest = module_name.split(".")[1:]
            for d in self.root_dirs:
                folder = os.path.join(d, *rest) if rest else d
                prefix = module_name
                if not os.path.isdir(folder):
                    folder = os.path.dirname(folder)
                    prefix = module_name.rsplit(".", 1)[0] if rest else module_name
                try:
                    entries = sorted(os.listdir(folder))
                except OSError:
                    continue
                for e in entries:
                    if e.endswith(".pyi"):
                        stem = e[:-4]
                        names.append(prefix if stem == "__init__" else prefix + "." + stem)
        seen = []
        for n in names:
            if n not in seen:
                seen.append(n)
        self._dir_stubs[module_name] = seen
        return seen

    # -- lookups ---------------------------------------------------------------------------------------------

    def _resolve(self, module_name, parts, hops):
        """Follow names through a stub module. Returns (StubModule, kind, payload, parts_left) where kind is
        'defs' (payload: list of FunctionDef) or 'class' (payload: _ClassScope), or None."""
        if hops > _MAX_HOPS or not parts:
            return None
        stub = self.module(module_name)
        if stub is None:
            return None
        return self._resolve_in_scope(stub, stub.scope, parts, hops)

    def _resolve_in_scope(self, stub, scope, parts, hops):
        head, rest = parts[0], parts[1:]
        if head in scope.classes:
            cs = scope.classes[head]
            if not rest:
                return stub, "class", cs, []
            return self._resolve_member(stub, cs, rest, hops)
        if head in scope.defs:
            if rest:
                return None
            return stub, "defs", scope.defs[head], []
        if head in scope.aliases and hops < _MAX_HOPS:
            target = scope.aliases[head].split(".")
            found = self._resolve_in_scope(stub, scope, target + rest, hops + 1)
            if found:
                return found
            if target[0] in stub.scope.imports:
                return self._resolve_in_scope(stub, stub.scope, target + rest, hops + 1)
        if head in scope.instances and rest and hops < _MAX_HOPS:
            found = self._resolve_in_scope(stub, stub.scope, scope.instances[head].split("."), hops + 1)
            if found and found[1] == "class":
                return self._resolve_member(found[0], found[2], rest, hops + 1)
            return None
        if head in scope.imports:
            mod, orig = scope.imports[head]
            if orig is None:
                return self._resolve(mod, rest, hops + 1)
            found = self._resolve(mod, [orig] + rest, hops + 1)
            if found:
                return found
            # ``from pkg import submodule``
            return self._resolve(mod + "." + orig, rest, hops + 1)
        for mod in scope.star_imports:
            found = self._resolve(mod, parts, hops + 1)
            if found:
                return found
        return None

    def _resolve_member(self, stub, cs, parts, hops, seen=None):
        """Member lookup in a stub class, then in its stub base classes."""
        if seen is None:
            seen = set()
        if not _first_visit(seen, stub, cs, hops):
            return None
        head, rest = parts[0], parts[1:]
        if head in cs.classes:
            inner = cs.classes[head]
            if not rest:
                return stub, "class", inner, []
            return None
        if head in cs.defs:
            if rest:
                return None
            return stub, "method", cs.defs[head], []
        if head in cs.aliases:
            target = cs.aliases[head]
            if "." not in target and target in cs.defs and not rest:
                return stub, "method", cs.defs[target], []
        for base in cs.bases:
            found = self._resolve_in_scope(stub, stub.scope, base.split("."), hops + 1)
            if found and found[1] == "class":
                bstub, _, bcs, _ = found
                r = self._resolve_member(bstub, bcs, parts, hops + 1, seen)
                if r:
                    return r
        return None

    def signature(self, module_name, parts):
        """Signature for ``module_name.<parts>``: a function, a class (its constructor) or a class member
        (as called through an instance: without self/cls, except for static methods)."""
        found = self._resolve(module_name, list(parts), 0)
        if not found:
            return None
        stub, kind, payload, _ = found
        if kind == "class":
            return self._constructor(stub, payload)
        defs = [d for d in payload if not (_decorator_names(d) & {"property", "setter", "getter", "deleter"})]
        if not defs:
            return None
        decorators = _decorator_names(defs[0])
        drop = kind == "method" and "staticmethod" not in decorators
        return merge_overloads(defs, stub.source, drop)

    def _constructor(self, stub, cs, hops=0, seen=None):
        """Constructor signature: the nearest class (itself, then its stub bases) defining __init__ or __new__."""
        if seen is None:
            seen = set()
        if not _first_visit(seen, stub, cs, hops):
            return None
        own = [n for n in ("__init__", "__new__") if n in cs.defs]
        if own:
            # Prefer the one that says more (an __init__(self, *args, **kwargs) next to a real __new__).
            best = None
            for name in own:
                sig = merge_overloads(cs.defs[name], stub.source, True)
                if best is None or (len(best["parameters"]) == 0 and sig["parameters"]):
                    best = sig
                elif [p["kind"] for p in best["parameters"]] == [VAR_POSITIONAL, VAR_KEYWORD] and sig["parameters"]:
                    best = sig
            return best
        for base in cs.bases:
            found = self._resolve_in_scope(stub, stub.scope, base.split("."), hops + 1)
            if found and found[1] == "class":
                r = self._constructor(found[0], found[2], hops + 1, seen)
                if r:
                    return r
        return None
