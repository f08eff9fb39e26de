"""typeshed's stdlib at one commit: the stub files parsed once, stdlib/VERSIONS, and a View of them at one Python
minor on one platform that resolves names (imports, re-exports, aliases, classes and their bases) the way a type
checker does."""
import ast
import re

from ..c3 import c3_merge
from .scopes import PROPERTY_DECORATORS, Entry, absolute_module, decorator_names, evaluate_body

# In typeshed's stdlib folder, though not part of the standard library: typing_extensions (a PyPI package the type
# checkers bundle), _typeshed (names that exist only for type checking), mypy_extensions.
NOT_STDLIB = frozenset(("typing_extensions", "_typeshed", "mypy_extensions"))
# Names typeshed keeps for type checkers although no Python has them at run time, and does not mark
# @type_check_only (the runtime surfaces of every minor lack them): `ellipsis`, its alias of types.EllipsisType
# "for folks who relied on the ellipsis type existing in typeshed in Python 3.9 and earlier".
TYPE_CHECKING_ONLY = frozenset(("builtins.ellipsis",))

_VERSIONS_LINE = re.compile(r"^([A-Za-z0-9_.]+):\s*3\.(\d+)-(?:3\.(\d+))?\s*$")


def parse_versions(text):
    """stdlib/VERSIONS: {module: (first minor, last minor or None)}."""
    ranges = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _VERSIONS_LINE.match(line)
        if not m:
            raise ValueError("stdlib/VERSIONS: cannot read %r" % raw)
        ranges[m.group(1)] = (int(m.group(2)), int(m.group(3)) if m.group(3) else None)
    return ranges


class StubModule(object):
    __slots__ = ("name", "is_package", "tree", "text")

    def __init__(self, name, is_package, tree, text):
        self.name = name
        self.is_package = is_package
        self.tree = tree
        self.text = text


class StubSet(object):
    """Every stub module of typeshed's stdlib at one commit."""

    def __init__(self, files):
        self.modules = {}
        self.versions = parse_versions(files["stdlib/VERSIONS"])
        for path, text in files.items():
            if not path.endswith(".pyi") or "/@" in path:
                continue
            rel = path[len("stdlib/") : -len(".pyi")]
            parts = rel.split("/")
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            name = ".".join(parts)
            if name.split(".")[0] in NOT_STDLIB:
                continue
            self.modules[name] = StubModule(name, is_package, ast.parse(text, filename=path), text)
        self.children = {}
        for name in self.modules:
            if "." in name:
                parent, _, leaf = name.rpartition(".")
                self.children.setdefault(parent, []).append(leaf)

    def exists(self, module, minor):
        """VERSIONS says the module exists at 3.``minor`` (a submodule not listed lives as long as its parent)."""
        if module not in self.modules:
            return False
        parts = module.split(".")
        for i in range(len(parts), 0, -1):
            key = ".".join(parts[:i])
            if key in self.versions:
                first, last = self.versions[key]
                if not (first <= minor and (last is None or minor <= last)):
                    return False
                break
        else:
            return False
        return len(parts) == 1 or self.exists(".".join(parts[:-1]), minor)


class Target(object):
    """What a name resolves to. kind: module | class | function | attribute."""

    __slots__ = ("kind", "module", "qualname", "nodes")

    def __init__(self, kind, module, qualname, nodes=None):
        self.kind = kind
        self.module = module  # the module that defines it (for a module: its own name)
        self.qualname = qualname
        self.nodes = nodes or []

    def key(self):
        return (self.kind, self.module, self.qualname)


_MAX_DEPTH = 24


class View(object):
    """The stubs at Python 3.``minor`` on ``platform``."""

    def __init__(self, stubs, minor, platform):
        self.stubs = stubs
        self.minor = minor
        self.platform = platform
        self._scopes = {}
        self._class_scopes = {}
        self._mro = {}
        self._members = {}
        self.unknown_conditions = set()

    # -- scopes ----------------------------------------------------------------------------------------------

    def module_exists(self, module):
        return self.stubs.exists(module, self.minor)

    def scope(self, module):
        s = self._scopes.get(module)
        if s is None:
            stub = self.stubs.modules[module]
            s = evaluate_body(stub.tree.body, self.minor, self.platform, module, stub.is_package)
            for c in s.unknown_conditions:
                self.unknown_conditions.add("%s: %s" % (module, c))
            self._scopes[module] = s
        return s

    def class_scope(self, target):
        key = (target.module, target.qualname)
        s = self._class_scopes.get(key)
        if s is None:
            stub = self.stubs.modules[target.module]
            s = evaluate_body(target.nodes[0].body, self.minor, self.platform, target.module, stub.is_package, in_class=True)
            for c in s.unknown_conditions:
                self.unknown_conditions.add("%s.%s: %s" % (target.module, target.qualname, c))
            self._class_scopes[key] = s
        return s

    # -- names -----------------------------------------------------------------------------------------------

    def public_names(self, module):
        """[(name, Entry or None, exported)] a module shows: its own public names, re-exports, star imports and
        its submodules (Entry None)."""
        scope = self.scope(module)
        listed = set(scope.all) if scope.all is not None else None
        out = {}
        for name, entry in scope.entries.items():
            if name.startswith("_") and not (listed and name in listed):
                continue
            if entry.kind in ("import-module", "import-name") and not entry.reexported and not (listed and name in listed):
                continue
            out[name] = (entry, listed is None or name in listed)
        for source in scope.stars:
            if source not in self.stubs.modules or not self.module_exists(source):
                continue
            for name, (entry, exported) in self._star_names(source, 0).items():
                if name not in out:
                    out[name] = (Entry("import-name", [], source, name), listed is None or name in listed)
        for child in self.stubs.children.get(module, ()):
            full = module + "." + child
            if not child.startswith("_") and child not in out and self.module_exists(full):
                out[child] = (None, listed is None or child in listed)
        return sorted((n, e, x) for n, (e, x) in out.items())

    def _star_names(self, module, depth):
        scope = self.scope(module)
        if scope.all is not None:
            return dict((n, (None, True)) for n in scope.all)
        names = {}
        for name, entry in scope.entries.items():
            if name.startswith("_"):
                continue
            if entry.kind in ("import-module", "import-name") and not entry.reexported:
                continue
            names[name] = (entry, True)
        if depth < 4:
            for source in scope.stars:
                if source in self.stubs.modules:
                    for n, v in self._star_names(source, depth + 1).items():
                        names.setdefault(n, v)
        return names

    def resolve_name(self, module, name, depth=0):
        """The Target ``name`` means in ``module``'s namespace (builtins last), or None."""
        if depth > _MAX_DEPTH or module not in self.stubs.modules:
            return None
        scope = self.scope(module)
        entry = scope.entries.get(name)
        if entry is not None:
            return self.resolve_entry(module, name, entry, depth + 1)
        for source in scope.stars:
            if source in self.stubs.modules and name in self._star_names(source, 0):
                found = self.resolve_name(source, name, depth + 1)
                if found is not None:
                    return found
        full = module + "." + name
        if full in self.stubs.modules:
            return Target("module", full, "")
        if module != "builtins":
            return self.resolve_name("builtins", name, depth + 1) if name in self.scope("builtins").entries else None
        return None

    def resolve_entry(self, module, name, entry, depth=0, owner=None):
        if depth > _MAX_DEPTH:
            return None
        if entry is None:
            full = module + "." + name
            return Target("module", full, "") if full in self.stubs.modules else None
        if entry.kind == "def":
            return Target("function", module, (owner + "." if owner else "") + name, entry.nodes)
        if entry.kind == "class":
            return Target("class", module, (owner + "." if owner else "") + name, entry.nodes)
        if entry.kind == "import-module":
            return Target("module", entry.target, "") if entry.target in self.stubs.modules else None
        if entry.kind == "import-name":
            full = entry.target + "." + entry.name
            if entry.target in self.stubs.modules:
                scope = self.scope(entry.target)
                if entry.name in scope.entries or any(entry.name in self._star_names(s, 0) for s in scope.stars if s in self.stubs.modules):
                    return self.resolve_name(entry.target, entry.name, depth + 1)
            if full in self.stubs.modules:
                return Target("module", full, "")
            return None
        if entry.kind == "var":
            stmt = entry.nodes[0]
            value = stmt.value
            annotation = getattr(stmt, "annotation", None)
            if value is not None and isinstance(value, (ast.Name, ast.Attribute)) and not _is_type_alias(annotation):
                aliased = self.resolve_expr(module, value, depth + 1)
                if aliased is not None:
                    return aliased
            return Target("attribute", module, (owner + "." if owner else "") + name, [stmt])
        return None

    def resolve_expr(self, module, node, depth=0):
        if depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Subscript):
            return self.resolve_expr(module, node.value, depth + 1)
        if isinstance(node, ast.Name):
            return self.resolve_name(module, node.id, depth + 1)
        if isinstance(node, ast.Attribute):
            base = self.resolve_expr(module, node.value, depth + 1)
            if base is None:
                return None
            if base.kind == "module":
                return self.resolve_name(base.module, node.attr, depth + 1)
            if base.kind == "class":
                member = self.members(base, depth + 1).get(node.attr)
                return member[0] if member else None
        return None

    # -- classes ---------------------------------------------------------------------------------------------

    def bases(self, target):
        out = []
        for b in target.nodes[0].bases:
            t = self.resolve_expr(target.module, b)
            if t is not None and t.kind == "class":
                out.append(t)
        return out

    def mro(self, target, depth=0):
        """C3 linearisation of the stub classes (falls back to depth-first when the stubs are inconsistent)."""
        key = target.key()
        if key in self._mro:
            return self._mro[key]
        self._mro[key] = [target]  # cycle guard
        if depth > _MAX_DEPTH:
            return [target]
        bases = self.bases(target)
        if not bases and not (target.module == "builtins" and target.qualname == "object"):
            obj = self.resolve_name("builtins", "object")
            bases = [obj] if obj is not None else []
        result = c3_merge(target, [list(self.mro(b, depth + 1)) for b in bases] + [list(bases)], lambda x: x.key())
        self._mro[key] = result
        return result

    def members(self, target, depth=0):
        """{name: (Target, member kind, owner Target)} of a class with what it inherits (object's left out)."""
        key = target.key()
        cached = self._members.get(key)
        if cached is not None:
            return cached
        out = {}
        self._members[key] = out  # a class body that refers to itself sees what is collected so far
        typed_dict = any(c.qualname == "TypedDict" for c in self.mro(target)) or any(
            isinstance(b, ast.Name) and b.id == "TypedDict" for b in target.nodes[0].bases
        )
        for cls in self.mro(target):
            if cls.module == "builtins" and cls.qualname == "object":
                continue
            scope = self.class_scope(cls)
            for name, entry in scope.entries.items():
                if name in out:
                    continue
                if entry.kind == "def":
                    decos = set()
                    for d in entry.nodes:
                        decos |= decorator_names(d)
                    is_property = bool(decos & PROPERTY_DECORATORS) or any(n.endswith(".setter") or n.endswith(".getter") for n in decos)
                    member = Target("function", cls.module, cls.qualname + "." + name, entry.nodes)
                    out[name] = (member, "property" if is_property else "method", cls)
                elif entry.kind == "class":
                    out[name] = (Target("class", cls.module, cls.qualname + "." + name, entry.nodes), "class", cls)
                elif entry.kind == "var":
                    if typed_dict and cls is target:
                        continue  # a TypedDict's annotations are keys, not attributes
                    resolved = self.resolve_entry(cls.module, name, entry, depth + 1, owner=cls.qualname)
                    kind = "attribute"
                    if resolved is not None and resolved.kind == "function" and resolved.qualname != cls.qualname + "." + name:
                        kind = "method"  # `__iter__ = keys`-style aliases of functions
                    out[name] = (resolved, kind, cls)
        return out

    def class_flags(self, target):
        mro = self.mro(target)
        names = set((c.module, c.qualname) for c in mro)
        named_tuple = any(isinstance(b, ast.Name) and b.id == "NamedTuple" or isinstance(b, ast.Attribute) and b.attr == "NamedTuple" for b in target.nodes[0].bases)
        return {
            "enum": ("enum", "Enum") in names,
            "named_tuple": named_tuple,
        }


def _is_type_alias(annotation):
    return annotation is not None and (
        (isinstance(annotation, ast.Name) and annotation.id == "TypeAlias")
        or (isinstance(annotation, ast.Attribute) and annotation.attr == "TypeAlias")
    )
