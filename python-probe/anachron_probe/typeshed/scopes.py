"""The names a typeshed stub defines at one Python minor on one platform: its branches evaluated, its imports,
re-exports and ``__all__`` read as the type checkers read them."""
import ast

from .conditions import UnknownCondition, evaluate

# Decorators that make a def a property.
PROPERTY_DECORATORS = frozenset(("property", "cached_property", "abstractproperty", "_magic_enum_attr", "DynamicClassAttribute"))


def decorator_names(node):
    names = set()
    for d in getattr(node, "decorator_list", ()):
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Name):
            names.add(target.id)
        elif isinstance(target, ast.Attribute):
            names.add(target.attr)
            if isinstance(target.value, ast.Name):
                names.add(target.value.id + "." + target.attr)
    return names


class Entry(object):
    """One name of a scope. kind: def | class | var | import-module | import-name | star."""

    __slots__ = ("kind", "nodes", "target", "name", "reexported")

    def __init__(self, kind, nodes, target=None, name=None, reexported=True):
        self.kind = kind
        self.nodes = nodes  # defs: every FunctionDef of the name (overloads); class: [ClassDef]; var: [stmt]
        self.target = target  # imports: the absolute module
        self.name = name  # import-name: the name imported from it
        self.reexported = reexported


class Scope(object):
    def __init__(self):
        self.entries = {}  # name -> Entry, in definition order
        self.all = None  # __all__ entries when the scope declares them
        self.stars = []  # absolute modules star-imported
        self.has_getattr = False  # a module-level __getattr__: the stub does not list every name
        self.unknown_conditions = []


def absolute_module(module, is_package, level, name):
    if not level:
        return name
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _string_list(node):
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return None


def evaluate_body(stmts, minor, platform, module, is_package, in_class=False, scope=None):
    """The scope ``stmts`` define at 3.``minor`` on ``platform``. A condition the evaluator does not know takes
    both branches (and is recorded), so a name is never lost to it."""
    scope = scope if scope is not None else Scope()

    def add(name, entry):
        old = scope.entries.get(name)
        if old is not None and old.kind == "def" and entry.kind == "def":
            old.nodes = old.nodes + entry.nodes  # overloads, or a property and its setter
        else:
            scope.entries[name] = entry

    def walk(body):
        for stmt in body:
            if isinstance(stmt, ast.If):
                try:
                    taken = evaluate(stmt.test, minor, platform)
                except UnknownCondition as e:
                    scope.unknown_conditions.append(str(e))
                    walk(stmt.body)
                    walk(stmt.orelse)
                    continue
                walk(stmt.body if taken else stmt.orelse)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if "type_check_only" in decorator_names(stmt):
                    continue
                if not in_class and stmt.name == "__getattr__":
                    scope.has_getattr = True
                add(stmt.name, Entry("def", [stmt]))
            elif isinstance(stmt, ast.ClassDef):
                if "type_check_only" in decorator_names(stmt):
                    continue
                add(stmt.name, Entry("class", [stmt]))
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                add(stmt.target.id, Entry("var", [stmt]))
            elif isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        if target.id == "__all__":
                            scope.all = _string_list(stmt.value) or []
                        else:
                            add(target.id, Entry("var", [stmt]))
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__":
                scope.all = (scope.all or []) + (_string_list(stmt.value) or [])
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                # __all__.extend([...]) / __all__.append("x")
                func = stmt.value.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "__all__":
                    if func.attr == "extend" and stmt.value.args:
                        scope.all = (scope.all or []) + (_string_list(stmt.value.args[0]) or [])
                    elif func.attr == "append" and stmt.value.args and isinstance(stmt.value.args[0], ast.Constant):
                        scope.all = (scope.all or []) + [stmt.value.args[0].value]
            elif isinstance(stmt, ast.Import) and not in_class:
                for alias in stmt.names:
                    if alias.asname:
                        add(alias.asname, Entry("import-module", [stmt], alias.name, None, alias.asname == alias.name))
                    else:
                        top = alias.name.split(".")[0]
                        add(top, Entry("import-module", [stmt], top, None, False))
            elif isinstance(stmt, ast.ImportFrom) and not in_class:
                source = absolute_module(module, is_package, stmt.level, stmt.module)
                for alias in stmt.names:
                    if alias.name == "*":
                        scope.stars.append(source)
                        continue
                    shown = alias.asname or alias.name
                    # A stub re-exports only `import a as a` / `from m import a as a` (and __all__, star imports);
                    # `from . import sub` in a package re-exports the submodule too.
                    reexported = alias.asname == alias.name or (stmt.level > 0 and is_package and alias.asname is None and stmt.module is None)
                    add(shown, Entry("import-name", [stmt], source, alias.name, reexported))

    walk(stmts)
    return scope
