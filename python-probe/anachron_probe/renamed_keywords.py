"""Keywords a decorator's wrapper accepts besides the wrapped function's own: the old name of a renamed parameter.

pandas ``@deprecate_kwarg("cols", "columns")``, matplotlib ``@_api.rename_parameter("3.6", "s", "text")``,
scipy ``@_rename_parameter("mode", "method")`` and their kind wrap the function with ``functools.wraps`` (so
``inspect.signature`` shows the new name only) in a ``wrapper(*args, **kwargs)`` that looks the old name up in
``kwargs`` (``if old in kwargs``, ``kwargs.pop(old_arg_name)``), warns and passes the value on: the old keyword still
works at that version. Both readers find these the same way: the names a wrapper looks up in its ``**kwargs``
dictionary are variables of the enclosing decorator factory (``old``, ``old_arg_name``), whose values at the
decorator's call site (static reader) or in the wrapper's closure (runtime probe) are the old keywords."""
import ast


def keyword_variables(wrapper_def):
    """Names of the variables (not literals) ``wrapper_def`` (an ``ast.FunctionDef`` with ``**kwargs``) uses as keys
    it reads from, tests for, or pops off its ``**kwargs`` dictionary; stores (``kwargs[new] = value``) do not
    count."""
    kw = wrapper_def.args.kwarg
    if kw is None:
        return []
    kwargs = kw.arg
    found = []

    def add(node):
        if isinstance(node, ast.Name) and node.id != kwargs and node.id not in found:
            found.append(node.id)

    for node in ast.walk(wrapper_def):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            if _is_name(node.comparators[0], kwargs):
                add(node.left)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _is_name(node.func.value, kwargs):
            if node.func.attr in ("pop", "get") and node.args:
                add(node.args[0])
        elif isinstance(node, ast.Subscript) and _is_name(node.value, kwargs) and not isinstance(node.ctx, ast.Store):
            index = getattr(ast, "Index", None)  # Python < 3.9 wraps subscripts
            key = node.slice.value if index is not None and isinstance(node.slice, index) else node.slice
            add(key)
    return found


def wrappers(node):
    """Nested function definitions with ``**kwargs`` inside ``node`` (a decorator or decorator factory)."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n is not node and n.args.kwarg is not None:
            out.append(n)
    return out


def _is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name
