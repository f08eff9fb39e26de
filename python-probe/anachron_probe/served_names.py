"""Names a module serves only through ``__getattr__``.

``dir(module)`` does not list them (numpy 2's ``np.chararray`` and ``np.lib.math``, both deprecated but working),
so neither the runtime walk nor the static reader would see them. Both read the names the same way: the string
literals ``__getattr__`` compares its argument with (``name == "x"``, ``name in ("x", "y")``). Whether a name
really resolves is then decided by getting it, at runtime or in the static reader; a branch that raises drops it."""
import ast
import inspect
import textwrap


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


def served_names_of(module):
    """``served_names`` for a live module's ``__getattr__`` (its source), [] when there is none or no source."""
    fn = getattr(module, "__dict__", {}).get("__getattr__")
    if fn is None:
        return []
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, ValueError):
        return []
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    return served_names(defs[0]) if defs else []


def _is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name
