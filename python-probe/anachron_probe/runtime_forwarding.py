"""The runtime probe's side of forwarded ``**kwargs`` (forwarded_kwargs.py): a live function's definition, read from
its source, with each callee it hands ``**kwargs`` to looked up in the function's globals. Only plain functions
(no ``__wrapped__``, no ``__signature__``: a decorator's wrapper may take keywords the definition does not show) and
classes whose constructor is such an ``__init__``; callees of other libraries leave the keywords open."""
import ast
import inspect
import textwrap
import types

from .forwarded_kwargs import accepted_keywords, callee_chain


def forwarded_keywords(target, parameters, in_library, signature_of, active):
    """The ``keywords`` list for the ``**kwargs`` of ``target`` (whose signature has ``parameters``), or None.
    ``in_library(module_name)``: whether a callee belongs to the library being probed; ``signature_of(obj)``: the
    probe's signature of a callee (a dict, or None); ``active``: ids of definitions being worked out (a cycle
    leaves them open)."""
    fn = _definition(target)
    if fn is None or id(fn) in active:
        return None
    fdef = _parsed(fn)
    if fdef is None:
        return None
    active.add(id(fn))
    try:
        return accepted_keywords(fdef, parameters, lambda call: _callee_parameters(call, fn, in_library, signature_of))
    finally:
        active.discard(id(fn))


def _plain(fn):
    return isinstance(fn, types.FunctionType) and "__wrapped__" not in fn.__dict__ and "__signature__" not in fn.__dict__


def _definition(target):
    if isinstance(target, type):
        if type(target).__call__ is not type.__call__ or target.__new__ is not object.__new__:
            return None
        init = None
        for klass in target.__mro__:
            if "__init__" in klass.__dict__:
                init = klass.__dict__["__init__"]
                break
        return init if _plain(init) else None
    return target if _plain(target) else None


def _parsed(fn):
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        module = ast.parse(source)
    except Exception:  # no source (built from a string, a zip without it), or a source that is not the code's
        return None
    if len(module.body) != 1 or not isinstance(module.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    fdef = module.body[0]
    return fdef if fdef.name == fn.__name__ else None


def _callee_parameters(call, fn, in_library, signature_of):
    chain = callee_chain(call)
    if chain is None or chain[0] in fn.__code__.co_freevars or chain[0] not in fn.__globals__:
        return None
    obj = fn.__globals__[chain[0]]
    for attr in chain[1:]:
        try:
            obj = inspect.getattr_static(obj, attr)
        except AttributeError:
            return None
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__ if isinstance(obj, staticmethod) else None
    if not callable(obj) or isinstance(obj, types.MethodType) or not in_library(getattr(obj, "__module__", None)):
        return None
    sig = signature_of(obj)
    if sig is None or sig.get("source") not in ("inspect", "parser", "stub"):
        return None
    kinds = [p["kind"] for p in sig["parameters"]]
    if kinds == ["var_positional", "var_keyword"] and sig["parameters"][-1].get("keywords") is None:
        return None
    return sig["parameters"]

