"""Names a module serves only through ``__getattr__``.

``dir(module)`` does not list them (numpy 2's ``np.chararray`` and ``np.lib.math``, both deprecated but working),
so neither the runtime walk nor the static reader would see them. Both read the names the same way: the string
literals ``__getattr__`` compares its argument with (``name == "x"``, ``name in ("x", "y")``), and, for a
``__getattr__`` that forwards to another module (``return getattr(_linalg, name)``: numpy 2's deprecation shims
``numpy.linalg.linalg`` and ``numpy.core.*``, which serve every name of the private module they were renamed to),
the public names of that module (``forwarded_modules``). Whether a name really resolves is then decided by getting
it, at runtime or in the static reader; a branch that raises drops it."""
import ast
import importlib
import inspect
import textwrap
import types


def served_names(function_def):
    """String literals the ``__getattr__`` definition (an ``ast.FunctionDef``) compares its first argument with."""
    args = function_def.args
    params = list(getattr(args, "posonlyargs", [])) + list(args.args)
    if not params:
        return []
    param = params[0].arg
    found = set()
    for node in ast.walk(function_def):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, op, right = node.left, node.ops[0], node.comparators[0]
        if isinstance(op, ast.Eq):
            for a, b in ((left, right), (right, left)):
                if _is_name(a, param) and isinstance(b, ast.Constant) and isinstance(b.value, str):
                    found.add(b.value)
        elif isinstance(op, ast.In) and _is_name(left, param) and isinstance(right, (ast.Set, ast.Tuple, ast.List)):
            found.update(e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
    return sorted(n for n in found if n.isidentifier())


def forwarded_modules(function_def):
    """What a ``__getattr__`` definition forwards to: the ``X`` of ``getattr(X, name[, default])`` with its own
    argument, as ``("import", level, module, attribute)`` when a ``from module import attribute`` (``import module``)
    inside the function binds ``X``, else ``("global", "X")``."""
    args = function_def.args
    params = list(getattr(args, "posonlyargs", [])) + list(args.args)
    if not params:
        return []
    param = params[0].arg
    imports = {}
    for node in ast.walk(function_def):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                imports[a.asname or a.name] = ("import", node.level or 0, node.module or "", a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    imports[a.asname] = ("import", 0, a.name, None)
                else:
                    top = a.name.split(".")[0]
                    imports[top] = ("import", 0, top, None)
    out = []
    for node in ast.walk(function_def):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                and len(node.args) >= 2 and _is_name(node.args[1], param) and isinstance(node.args[0], ast.Name)):
            target = imports.get(node.args[0].id) or ("global", node.args[0].id)
            if target not in out:
                out.append(target)
    return out


def absolute_module(target, package):
    """The module an ``("import", level, module, attribute)`` target names from inside ``package`` (the attribute
    may be a submodule or a name; the caller decides)."""
    _, level, module, attr = target
    if level:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - (level - 1)]) if level > 1 else package
        module = base + ("." + module if module else "")
    return module, attr


def served_names_of(module):
    """``served_names`` for a live module's ``__getattr__`` (its source), and the public names of the modules of
    the same package it forwards to; [] when there is no ``__getattr__`` or no source."""
    fn = getattr(module, "__dict__", {}).get("__getattr__")
    if fn is None:
        return []
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, ValueError):
        return []
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if not defs:
        return []
    names = served_names(defs[0])
    top = getattr(module, "__name__", "").split(".")[0]
    for target in forwarded_modules(defs[0]):
        forwarded = _live_target(target, module, fn)
        name = getattr(forwarded, "__name__", None) if isinstance(forwarded, types.ModuleType) else None
        if name and name.split(".")[0] == top and forwarded is not module:
            names += [n for n in dir(forwarded) if isinstance(n, str) and not n.startswith("_")]
    return sorted(set(names))


def _live_target(target, module, fn):
    if target[0] == "global":
        return getattr(fn, "__globals__", {}).get(target[1])
    package = getattr(module, "__package__", None) or getattr(module, "__name__", "")
    name, attr = absolute_module(target, package)
    try:
        base = importlib.import_module(name)
    except Exception:
        return None
    if attr is None:
        return base
    value = getattr(base, attr, None)
    if value is None:
        try:
            value = importlib.import_module(name + "." + attr)
        except Exception:
            return None
    return value


def _is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name
