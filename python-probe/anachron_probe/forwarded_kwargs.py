"""What a function does with its ``**kwargs``, read from its definition: the keywords it takes out itself and the
calls it hands the rest to (issue 19, class 3). Both readers use it: the static one resolves each call's callee
in the library's source, the runtime probe in the function's globals; either then says which keywords the
``**kwargs`` accepts (a ``keywords`` list on the parameter) or, where anything is unclear, nothing (anything goes).

``forwarding(def)`` is None unless every use of the ``**kwargs`` name is one of:

- ``callee(..., **kwargs)``: forwarded (the callee an attribute chain on a name the function does not bind);
- ``kwargs.pop("name", ...)``, ``kwargs.get("name", ...)``, ``kwargs.setdefault("name", ...)``, ``"name" in
  kwargs``, ``kwargs["name"]`` (read, stored or deleted): the function handles that keyword itself;
- ``if kwargs:``, ``len(kwargs)``, ``not kwargs``: what is left tested for, which accepts nothing;

and it forwards at least once (a function that only pops keywords may silently ignore the others). Anything else
(the dictionary passed by value, iterated, updated, rebound, read by a nested function, a key that is not a
literal) leaves it open."""
import ast

_KEY_METHODS = ("pop", "get", "setdefault")


class Forwarding(object):
    """The keywords a function reads from its ``**kwargs`` and the calls it forwards them to."""

    def __init__(self, reads, calls):
        self.reads = reads  # literal keys, in order of appearance
        self.calls = calls  # ast.Call nodes that pass ``**kwargs`` on


def forwarding(fdef):
    """The Forwarding of ``fdef`` (an ``ast.FunctionDef``/``AsyncFunctionDef``), or None when it is not clear."""
    kw = fdef.args.kwarg
    if kw is None:
        return None
    name = kw.arg
    parents = {}
    for node in ast.walk(fdef):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    reads, calls = [], []
    for node in ast.walk(fdef):
        if not (isinstance(node, ast.Name) and node.id == name) or node is fdef:
            continue
        if _inside_nested_scope(node, fdef, parents):
            return None
        use = _use(node, parents)
        if use is None:
            return None
        kind, detail = use
        if kind == "read" and detail not in reads:
            reads.append(detail)
        elif kind == "call":
            calls.append(detail)
    return Forwarding(reads, calls) if calls else None


def locally_bound(fdef):
    """Names the function's own body binds (parameters, assignments, loops, imports, nested definitions): a callee
    rooted at one of them is not the module-level name of the same spelling."""
    a = fdef.args
    names = set(p.arg for p in list(getattr(a, "posonlyargs", [])) + list(a.args) + list(a.kwonlyargs))
    names.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    for node in ast.walk(fdef):
        if node is fdef:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)  # rebinding a global in the body: what it is at the call is not known
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)  # a nested lambda's or def's parameters
    return names


def callee_chain(call):
    """``["a", "b", "c"]`` for a call of ``a.b.c``; None for any other callee (a call's result, a subscript)."""
    parts = []
    node = call.func
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def bound_by_call(call, parameters):
    """The names of ``parameters`` (signature dicts) that ``call``'s own arguments surely bind: its positional
    arguments before any ``*args`` (in order) and its explicit keywords. Passing one of them again through
    ``**kwargs`` is a TypeError. (How many more a forwarded ``*args`` fills depends on the caller's call.)"""
    bound = set(k.arg for k in call.keywords if k.arg)
    leading = 0
    for a in call.args:
        if isinstance(a, ast.Starred):
            break
        leading += 1
    positional = [p["name"] for p in parameters if p["kind"] in ("positional_only", "positional_or_keyword")]
    bound.update(positional[:leading])
    return bound


def _inside_nested_scope(node, fdef, parents):
    n = parents.get(node)
    while n is not None and n is not fdef:
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return True
        n = parents.get(n)
    return False


def _literal_key(node):
    index = getattr(ast, "Index", None)  # Python < 3.9 wraps subscripts
    if index is not None and isinstance(node, index):
        node = node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if type(node).__name__ == "Str" and isinstance(getattr(node, "s", None), str):  # Python < 3.8 (the probe's oldest)
        return node.s
    return None


def _use(node, parents):
    """("read", key), ("call", call), ("test", None), or None for a use that leaves the keywords open."""
    parent = parents.get(node)
    if isinstance(parent, ast.keyword) and parent.arg is None:
        call = parents.get(parent)
        if isinstance(call, ast.Call) and callee_chain(call) is not None:
            return ("call", call)
        return None
    if isinstance(parent, ast.Attribute) and parent.value is node:
        call = parents.get(parent)
        if parent.attr in _KEY_METHODS and isinstance(call, ast.Call) and call.func is parent and call.args:
            key = _literal_key(call.args[0])
            return ("read", key) if key is not None else None
        return None
    if isinstance(parent, ast.Subscript) and parent.value is node:
        key = _literal_key(parent.slice)
        return ("read", key) if key is not None else None
    if isinstance(parent, ast.Compare) and len(parent.ops) == 1 and isinstance(parent.ops[0], (ast.In, ast.NotIn)) \
            and parent.comparators[0] is node:
        key = _literal_key(parent.left)
        return ("read", key) if key is not None else None
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and parent.test is node:
        return ("test", None)
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        return ("test", None)
    if isinstance(parent, ast.BoolOp) and isinstance(parents.get(parent), (ast.If, ast.While, ast.Assert)):
        return ("test", None)
    if isinstance(parent, ast.Call) and parent.args == [node] and not parent.keywords and \
            isinstance(parent.func, ast.Name) and parent.func.id == "len":
        return ("test", None)
    return None


def accepted_keywords(fdef, own_parameters, target_parameters):
    """The keywords ``fdef``'s ``**kwargs`` accepts, sorted, or None where that is not known. ``own_parameters``:
    its signature's parameter dicts (their names are never in ``**kwargs``); ``target_parameters(call)``: the
    parameter dicts of the callee of ``call`` (an attribute chain on a name the function does not bind) where the reader resolved it to a callable
    of the same library with a complete signature, else None. A callee's ``**kwargs`` counts by its own
    ``keywords`` list, or leaves this one open."""
    fw = forwarding(fdef)
    if fw is None:
        return None
    local = locally_bound(fdef)
    accepted = set(fw.reads)
    for call in fw.calls:
        chain = callee_chain(call)
        if chain is None or chain[0] in local:
            return None
        parameters = target_parameters(call)
        if parameters is None:
            return None
        bound = bound_by_call(call, parameters)
        for p in parameters:
            if p["kind"] in ("positional_or_keyword", "keyword_only") and p["name"] not in bound:
                accepted.add(p["name"])
            elif p["kind"] == "var_keyword":
                if p.get("keywords") is None:
                    return None
                accepted.update(k for k in p["keywords"] if k not in bound)
    # a keyword named like a positional-only parameter still lands in **kwargs
    own = set(p["name"] for p in own_parameters if p["kind"] in ("positional_or_keyword", "keyword_only"))
    return sorted(accepted - own)
