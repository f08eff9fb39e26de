"""API records (the surface format's ``apis``) of the public standard library as a View of the stubs shows it."""
import ast
import sys

from ..signatures import (
    KIND_ORDER,
    KEYWORD_ONLY,
    POSITIONAL_ONLY,
    POSITIONAL_OR_KEYWORD,
    UNKNOWN_DEFAULT,
    VAR_KEYWORD,
    VAR_POSITIONAL,
    expr_default_text,
    make_param,
    make_signature,
    returns_text,
    star_and_keyword_params,
)
from .scopes import decorator_names
from .stubset import TYPE_CHECKING_ONLY


def _is_public_module(name):
    return all(part and not part.startswith("_") for part in name.split("."))


def _annotation_text(node, text):
    if node is None:
        return None
    try:
        segment = ast.unparse(node) if sys.version_info >= (3, 9) else ast.get_source_segment(text, node)
    except Exception:
        segment = None
    return returns_text(segment)


def _def_parameters(fn, text, drop_first):
    """The parameters of one stub def. Names starting (not ending) with ``__`` are positional-only: typeshed's
    spelling from before PEP 570."""
    a = fn.args
    positional = [(p, POSITIONAL_ONLY) for p in a.posonlyargs] + [(p, POSITIONAL_OR_KEYWORD) for p in a.args]
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = []
    for i, ((p, kind), d) in enumerate(zip(positional, defaults)):
        if i == 0 and drop_first:
            continue
        if kind == POSITIONAL_OR_KEYWORD and p.arg.startswith("__") and not p.arg.endswith("__"):
            kind = POSITIONAL_ONLY
        params.append(make_param(p.arg, kind, None if d is None else expr_default_text(d, text)))
    params.extend(star_and_keyword_params(a, lambda d: expr_default_text(d, text)))
    # After the pre-PEP 570 positional-only names, an ordinary name ends them; before it they all are.
    return params


def merge_overloads(lists):
    """One parameter list for the overloads of a def: every name any overload has, taken by keyword when any
    overload takes it by keyword (a checker must not call a keyword wrong that one overload accepts), with a
    default when some overload lacks it; at most one ``*args`` and one ``**kwargs``."""
    if len(lists) == 1:
        return lists[0]
    merged = []
    index = {}
    for params in lists:
        for p in params:
            i = index.get(p["name"])
            if i is None:
                index[p["name"]] = len(merged)
                merged.append(dict(p))
                continue
            q = merged[i]
            kinds = set((q["kind"], p["kind"]))
            if POSITIONAL_ONLY in kinds and (POSITIONAL_OR_KEYWORD in kinds or KEYWORD_ONLY in kinds):
                q["kind"] = POSITIONAL_OR_KEYWORD
            elif kinds == set((POSITIONAL_OR_KEYWORD, KEYWORD_ONLY)):
                q["kind"] = POSITIONAL_OR_KEYWORD
            if q["default"] is None and p["default"] is not None:
                q["default"] = p["default"]
    for p in merged:
        if p["default"] is None and p["kind"] not in (VAR_POSITIONAL, VAR_KEYWORD):
            if any(p["name"] not in [q["name"] for q in params] for params in lists):
                p["default"] = UNKNOWN_DEFAULT
    merged.sort(key=lambda p: KIND_ORDER[p["kind"]])
    out = []
    seen = set()
    for p in merged:
        if p["kind"] in (VAR_POSITIONAL, VAR_KEYWORD):
            if p["kind"] in seen:
                continue
            seen.add(p["kind"])
        out.append(p)
    return out


def function_signature(defs, text, drop_first):
    """The stub signature of a def and its overloads (a property's setter is not a call signature)."""
    calls = [d for d in defs if not any(n.endswith(".setter") or n.endswith(".deleter") for n in decorator_names(d))]
    if not calls:
        return None
    lists = [_def_parameters(d, text, drop_first) for d in calls]
    returns = set(_annotation_text(d.returns, text) for d in calls)
    return make_signature(merge_overloads(lists), returns.pop() if len(returns) == 1 else None, "stub")


class RecordWriter(object):
    """Records of every public module of a View: {path: record}."""

    def __init__(self, view):
        self.view = view
        self.records = {}
        self.incomplete = set()  # modules whose stub has a module-level __getattr__

    def text_of(self, module):
        return self.view.stubs.modules[module].text

    def run(self):
        for module in sorted(self.view.stubs.modules):
            if _is_public_module(module) and self.view.module_exists(module):
                self.module(module)
        return self.records

    def add(self, path, kind, defined_in, signature, exported):
        if path in self.records or path in TYPE_CHECKING_ONLY:
            return
        self.records[path] = {
            "path": path,
            "kind": kind,
            "defined_in": defined_in,
            "signature": signature,
            "doc": None,
            "exported": exported,
        }

    def module(self, module):
        view = self.view
        self.add(module, "module", module, None, True)
        if view.scope(module).has_getattr:
            self.incomplete.add(module)
        for name, entry, exported in view.public_names(module):
            path = module + "." + name
            if entry is None:
                continue  # a submodule: recorded as a module of its own
            target = view.resolve_entry(module, name, entry)
            self.target(path, target, exported, module)

    def target(self, path, target, exported, module):
        if target is None:
            self.add(path, "attribute", module, None, exported)
        elif target.kind == "module":
            self.add(path, "module", target.module, None, exported)
        elif target.kind == "function":
            self.add(path, "function", target.module, function_signature(target.nodes, self.text_of(target.module), False), exported)
        elif target.kind == "class":
            self.cls(path, target, exported)
        else:
            self.add(path, "attribute", target.module, None, exported)

    def constructor(self, target):
        view = self.view
        flags = view.class_flags(target)
        if flags["enum"]:
            return None  # Enum("Name", "A B") and Color(1): the metaclass's call, not a constructor
        if flags["named_tuple"]:
            params = []
            for name, entry in view.class_scope(target).entries.items():
                if entry.kind == "var" and isinstance(entry.nodes[0], ast.AnnAssign) and not name.startswith("_"):
                    default = entry.nodes[0].value
                    params.append(make_param(name, POSITIONAL_OR_KEYWORD, None if default is None else expr_default_text(default, self.text_of(target.module))))
            return make_signature(params, None, "stub")
        for cls in view.mro(target):
            scope = view.class_scope(cls)
            for dunder in ("__init__", "__new__"):
                entry = scope.entries.get(dunder)
                if entry is not None and entry.kind == "def":
                    sig = function_signature(entry.nodes, self.text_of(cls.module), True)
                    if sig is not None:
                        sig["returns"] = None
                    return sig
        return make_signature([], None, "stub")

    def cls(self, path, target, exported):
        view = self.view
        self.add(path, "class", target.module, self.constructor(target), exported)
        for name, (member, kind, owner) in sorted(view.members(target).items()):
            if name.startswith("_"):
                continue
            mpath = path + "." + name
            if kind in ("method", "property"):
                if member is None or member.kind != "function":
                    self.add(mpath, kind, owner.module, None, exported)
                    continue
                decos = set()
                for d in member.nodes:
                    decos |= decorator_names(d)
                drop = "staticmethod" not in decos
                sig = function_signature(member.nodes, self.text_of(member.module), drop) if kind == "method" else None
                self.add(mpath, kind, member.module, sig, exported)
            elif kind == "class":
                self.add(mpath, "class", member.module, self.constructor(member), exported)
            else:
                if member is not None and member.kind == "class":
                    self.add(mpath, "class", member.module, self.constructor(member), exported)
                elif member is not None and member.kind == "function":
                    self.add(mpath, "method", member.module, function_signature(member.nodes, self.text_of(member.module), True), exported)
                else:
                    self.add(mpath, "attribute", owner.module, None, exported)
