"""Signatures of what the static reader found, in the runtime probe's order of preference:
the definition itself (what ``inspect`` would report) unless it says only ``(*args, **kwargs)``, then the first
line of the docstring, then a docstring cross-reference, then the shipped ``.pyi`` stubs, then the bare
``(*args, **kwargs)``."""
import ast
import inspect
import re

from ..signatures import (
    KEYWORD_ONLY, POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, UNKNOWN_DEFAULT, VAR_KEYWORD, VAR_POSITIONAL,
    docstring_signature, drop_first, from_inspect, is_meaningless, with_open_keywords, make_param, make_signature,
    returns_text, star_and_keyword_params
)
from ..forwarded_kwargs import accepted_keywords
from ..renamed_keywords import keyword_variables, wrappers
from ..stubs import merge_overloads
from ..text import default_text, normalize_repr
from ..ast_names import dotted_name
from .interp import Raise, Return, Scope
from .cparsers import parser_signature
from .values import (
    BoundMethodValue, ClassValue, CompiledValue, ConstValue, ContainerValue, ExternalValue, FunctionValue,
    InstanceValue, ModuleValue, PartialValue, UnknownValue
)

_XREF_BACKTICK = re.compile(r"`~?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")
_XREF_CLASS = re.compile(r"attributes\s+of\s+(?:the\s+)?`?([A-Za-z_][A-Za-z0-9_.]*)`?\s+class")
_WRAPS = ("wraps", "update_wrapper")


def _is_type_check(test, name):
    """``isinstance(name, type)``"""
    return isinstance(test, ast.Call) and dotted_name(test.func) == "isinstance" and len(test.args) == 2 and \
        isinstance(test.args[0], ast.Name) and test.args[0].id == name and dotted_name(test.args[1]) == "type"


def function_doc(fv):
    if getattr(fv, "doc_override", None) is not None:
        return fv.doc_override
    node = fv.node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        try:
            return ast.get_docstring(node, clean=False)
        except Exception:
            return None
    return None


class Signatures(object):
    def __init__(self, extractor):
        self.x = extractor
        self._cache = {}
        self._xref_depth = 0

    # -- parameters of a def ---------------------------------------------------------------------------------

    def params_of(self, node, fv):
        a = node.args
        out = []
        posonly = list(getattr(a, "posonlyargs", []))
        positional = posonly + list(a.args)
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for i, (arg, d) in enumerate(zip(positional, defaults)):
            kind = POSITIONAL_ONLY if i < len(posonly) else POSITIONAL_OR_KEYWORD
            out.append(make_param(arg.arg, kind, None if d is None else self.render_default(d, fv)))
        return out + star_and_keyword_params(a, lambda d: self.render_default(d, fv))

    def render_default(self, node, fv):
        """Text of a default like the runtime's repr: literals exactly, names through what they are bound to,
        otherwise the source text."""
        if isinstance(node, ast.Constant) and node.value is Ellipsis:
            return UNKNOWN_DEFAULT
        try:
            value = ast.literal_eval(node)
        except Exception:
            pass
        else:
            return default_text(value)
        if isinstance(node, (ast.Name, ast.Attribute)) and fv is not None and fv.scope is not None:
            try:
                v = self.x.interp.eval(node, Scope(self.x.interp, fv.scope))
            except (Raise, Return, Exception):
                v = None
            text = self.value_repr(v)
            if text is not None:
                return normalize_repr(text)
        seg = None
        try:
            if fv is not None and fv.source is not None:
                seg = fv.source.segment(node)
        except Exception:
            seg = None
        if not seg:
            return UNKNOWN_DEFAULT
        return normalize_repr(seg)

    def value_repr(self, v):
        if isinstance(v, ConstValue) and v.known:
            return default_text(v.value)
        if isinstance(v, FunctionValue):
            return "<function %s>" % v.qualname
        if isinstance(v, ClassValue):
            return "<class '%s.%s'>" % (v.module_attr(), v.qualname)
        if isinstance(v, ExternalValue) and hasattr(v, "obj"):
            if v.obj_kind in ("class", "function", "module") or v.is_constant:
                return default_text(v.obj)
            return None
        if isinstance(v, InstanceValue) and isinstance(v.cls, ClassValue):
            rep = self.x.class_member(v.cls, "__repr__")
            if isinstance(rep, FunctionValue) and isinstance(rep.node, ast.FunctionDef):
                body = [s for s in rep.node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
                if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Constant):
                    if isinstance(body[0].value.value, str):
                        return body[0].value.value
                return None
            if rep is None:
                return "<%s.%s object>" % (v.cls.module_attr(), v.cls.qualname)
        return None

    # -- decorators ------------------------------------------------------------------------------------------

    def apply_library_decorator(self, value, dec_fn, dec_node, scope, partial=None):
        """What a decorator defined in the library does to a function's call signature and ``__module__``
        (``partial``: the decorator is ``functools.partial(dec_fn, ...)``)."""
        if not isinstance(dec_fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return value
        bindings = {}
        target = dec_fn
        if isinstance(dec_node, ast.Call) or partial is not None:
            bindings = self._bind_call(dec_fn.node, dec_node if isinstance(dec_node, ast.Call) else None, scope,
                                       partial)
            inner = self._returned_def(dec_fn.node)
            if inner is None:
                # e.g. ``array_function_from_c_func_and_dispatcher = functools.partial(...)`` handled by knowledge
                return value
            target_node = inner
        else:
            target_node = dec_fn.node
        if bindings and isinstance(value, FunctionValue):
            renamed = self.renamed_keywords(dec_fn, bindings)
            if renamed:
                self.extend_keywords(value, [(n, "None") for n in renamed], before_var_keyword=True)
        params = [p.arg for p in list(getattr(target_node.args, "posonlyargs", [])) + list(target_node.args.args)]
        if not params:
            return value
        func_param = params[0]
        ret = self._returned_def_or_name(target_node)
        module_override = self._module_assignment(target_node, bindings, func_param, ret)
        if module_override and isinstance(value, (FunctionValue, ClassValue)):
            value.module_override = module_override
        if isinstance(value, ClassValue):
            return value
        if ret is None or ret == func_param:
            return value
        if isinstance(ret, ast.FunctionDef):
            if self._wraps(ret, target_node, func_param):
                return value
            # The wrapper replaces the signature.
            if isinstance(value, FunctionValue) and not isinstance(value.wrapped_signature, dict):
                wrapper = FunctionValue(ret, dec_fn.module, value.qualname, dec_fn.source, dec_fn.scope)
                value.wrapped_signature = ("wrapper", wrapper)
            return value
        return value

    def extend_keywords(self, value, extra, before_var_keyword=False):
        """``value``'s signature with keyword-only parameters ``extra`` ((name, default)…) it lacks, as a decorator
        that rewrites ``__signature__`` leaves it (appended: an inner decorator's extension stays) or, with
        ``before_var_keyword``, as a wrapper that also takes them (in front of ``**kwargs``)."""
        found = self._keywords_to_add(value, extra)
        if found is None:
            return value
        base, params, added = found
        if not added:
            return value
        at = len(params)
        if before_var_keyword and params and params[-1]["kind"] == VAR_KEYWORD:
            at -= 1
        params = params[:at] + added + params[at:]
        if any(p["kind"] == VAR_KEYWORD for p in params[:-1]):
            return value  # inspect would refuse the new order: the decorator fails, keep the function's own
        value.wrapped_signature = make_signature(params, base.get("returns"), "inspect")
        return value

    def _keywords_to_add(self, value, keywords):
        """The signature ``value`` shows (a decorator's rewrite, else its own), a copy of its parameters, and
        keyword-only parameters for the ``keywords`` ((name, default)…) it lacks; None where it has no signature."""
        inner = getattr(value, "wrapped_signature", None)
        base = inner if isinstance(inner, dict) else self.function_signature(value, False)
        if base is None:
            return None
        params = [dict(p) for p in base["parameters"]]
        names = set(p["name"] for p in params)
        return base, params, [make_param(n, KEYWORD_ONLY, d) for n, d in keywords if n not in names]

    def add_decorator_parameters(self, value, kwonly, var_keyword):
        """``value``'s signature as a decorator class's ``__signature__`` shows it: the keyword-only parameters
        ``kwonly`` ((name, default)…) it lacks in front of its ``**kwargs``, and ``**var_keyword`` where it has
        none (networkx's ``_dispatchable``: ``backend=None, **backend_kwargs``)."""
        found = self._keywords_to_add(value, kwonly)
        if found is None:
            return value
        base, params, added = found
        if params and params[-1]["kind"] == VAR_KEYWORD:
            params = params[:-1] + added + params[-1:]
        else:
            params = params + added + ([make_param(var_keyword, VAR_KEYWORD)] if var_keyword else [])
        value.wrapped_signature = make_signature(params, base.get("returns"), "inspect")
        return value

    def renamed_keywords(self, dec_fn, bindings):
        """Old keywords a decorator's wrapper still accepts (renamed_keywords.py): the string values its factory's
        variables have at the call site, where a nested wrapper looks them up in its ``**kwargs``."""
        out = []
        for w in wrappers(dec_fn.node):
            for name in keyword_variables(w):
                v = bindings.get(name)
                if isinstance(v, ConstValue) and v.known and isinstance(v.value, str) and v.value.isidentifier() \
                        and v.value not in out:
                    out.append(v.value)
        return out

    def apply_to_value(self, value, dec_fn, dec_call, scope):
        """``dec_fn(args)(value)`` for any value: a wrapper made with functools.wraps carries the wrapped object's
        signature, ``__module__`` and doc (unless the decorator sets its own doc); ``isinstance(f, type)``
        guards that return classes unchanged are followed."""
        if isinstance(value, FunctionValue):
            return self.apply_library_decorator(value, dec_fn, dec_call, scope)
        if not isinstance(dec_fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        bindings = self._bind_call(dec_fn.node, dec_call, scope)
        inner = self._returned_def(dec_fn.node)
        if inner is None:
            return None
        params = [p.arg for p in list(getattr(inner.args, "posonlyargs", [])) + list(inner.args.args)]
        if not params:
            return None
        fparam = params[0]
        is_class = value.kind() == "class"
        wrapper = None
        for stmt in inner.body:
            if isinstance(stmt, ast.If) and is_class and _is_type_check(stmt.test, fparam):
                if any(isinstance(s, ast.Return) and isinstance(s.value, ast.Name) and s.value.id == fparam
                       for s in stmt.body):
                    return value
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                wrapper = stmt
            if isinstance(stmt, ast.Return):
                if isinstance(stmt.value, ast.Name) and stmt.value.id == fparam:
                    return value
                if wrapper is not None and isinstance(stmt.value, ast.Name) and stmt.value.id == wrapper.name:
                    break
        if wrapper is None or not self._wraps(wrapper, inner, fparam):
            return None
        doc = None
        for n in ast.walk(inner):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Attribute) and \
                    n.targets[0].attr == "__doc__" and isinstance(n.targets[0].value, ast.Name) and \
                    n.targets[0].value.id == wrapper.name and isinstance(n.value, ast.Name):
                b = bindings.get(n.value.id)
                if isinstance(b, ConstValue) and b.known and isinstance(b.value, str):
                    doc = b.value
        if isinstance(value, ExternalValue) and getattr(value, "record", None) is not None:
            rec = dict(value.record)
            rec["kind"] = "function" if rec.get("kind") != "class" else "class"
            if doc is not None:
                rec["doc"] = doc
            v = ExternalValue(value.dotted, rec["kind"], False)
            v.record = rec
            return v
        if isinstance(value, CompiledValue):
            v = CompiledValue(value.module, value.name, value.obj_kind, value.signature,
                              doc if doc is not None else value.doc, value.members, value.defined_in)
            return v
        return None

    def _bind_call(self, fnode, call, scope, partial=None):
        out = {}
        params = [p.arg for p in list(getattr(fnode.args, "posonlyargs", [])) + list(fnode.args.args)]
        pos = []
        if partial is not None:
            pos = list(getattr(partial, "arg_values", []))
            for k, v in getattr(partial, "kw_values", {}).items():
                out[k] = v
        for p, v in zip(params, pos):
            out[p] = v
        params = params[len(pos):]
        for p, a in zip(params, call.args if call is not None else []):
            try:
                out[p] = self.x.interp.eval(a, scope)
            except (Raise, Return):
                out[p] = UnknownValue("arg")
        for kw in (call.keywords if call is not None else []):
            if kw.arg:
                try:
                    out[kw.arg] = self.x.interp.eval(kw.value, scope)
                except (Raise, Return):
                    out[kw.arg] = UnknownValue("arg")
        # defaults
        a = fnode.args
        positional = params
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        for p, d in zip(positional, defaults):
            if p not in out and d is not None:
                try:
                    out[p] = ast.literal_eval(d)
                    out[p] = ConstValue(out[p])
                except Exception:
                    pass
        for arg, d in zip(a.kwonlyargs, a.kw_defaults):
            if arg.arg not in out and d is not None:
                try:
                    out[arg.arg] = ConstValue(ast.literal_eval(d))
                except Exception:
                    pass
        return out

    def _returned_def(self, fnode):
        defs = {}
        for stmt in fnode.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs[stmt.name] = stmt
        for stmt in fnode.body:
            if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id in defs:
                return defs[stmt.value.id]
        return None

    def _returned_def_or_name(self, fnode):
        """The nested def a decorator returns, or the name of the parameter it returns; None when unclear."""
        defs = {}
        returns = []
        for stmt in ast.walk(fnode):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt is not fnode:
                defs.setdefault(stmt.name, stmt)
        for stmt in fnode.body:
            if isinstance(stmt, ast.Return):
                returns.append(stmt.value)
            elif isinstance(stmt, ast.If):
                for s in stmt.body + stmt.orelse:
                    if isinstance(s, ast.Return):
                        returns.append(s.value)
        names = set()
        for r in returns:
            if isinstance(r, ast.Name):
                names.add(r.id)
            else:
                return None
        if len(names) != 1:
            return None
        name = names.pop()
        if name in defs:
            return defs[name]
        return name

    def _wraps(self, wrapper, outer, func_param):
        for d in wrapper.decorator_list:
            node = d.func if isinstance(d, ast.Call) else d
            dn = dotted_name(node) or ""
            if dn.split(".")[-1] in _WRAPS:
                return True
        for n in ast.walk(outer):
            if isinstance(n, ast.Call):
                dn = dotted_name(n.func) or ""
                if dn.split(".")[-1] in _WRAPS:
                    return True
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    if isinstance(t, ast.Attribute) and t.attr == "__wrapped__":
                        return True
        return False

    def _module_assignment(self, fnode, bindings, func_param, ret):
        names = {func_param}
        if isinstance(ret, ast.FunctionDef):
            names.add(ret.name)
        for n in ast.walk(fnode):
            if isinstance(n, ast.Assign) and len(n.targets) == 1:
                t = n.targets[0]
                if isinstance(t, ast.Attribute) and t.attr == "__module__" and isinstance(t.value, ast.Name):
                    if t.value.id in names:
                        v = n.value
                        if isinstance(v, ast.Name) and v.id in bindings:
                            b = bindings[v.id]
                            if isinstance(b, ConstValue) and isinstance(b.value, str) and b.known:
                                return b.value
                        elif isinstance(v, ast.Constant) and isinstance(v.value, str):
                            return v.value
        return None

    # -- signatures ------------------------------------------------------------------------------------------

    def function_signature(self, fv, drop_self, public_module=None, name=None, cls=None):
        """The signature of a library function (or method, called through an instance / its class)."""
        key = (id(fv), drop_self, public_module, name)
        hit = self._cache.get(key)
        if hit is not None:
            return hit[1]
        sig = self._function_signature(fv, drop_self, public_module, name, cls)
        self._cache[key] = (fv, sig)
        return sig

    def _function_signature(self, fv, drop_self, public_module, name, cls):
        fallback = None
        overloads = getattr(fv, "overload_nodes", None)
        if fv.stub_module is not None or overloads:
            nodes = overloads or [fv.node]
            sig = merge_overloads(nodes, fv.source, drop_self)
            return sig
        ws = fv.wrapped_signature
        if isinstance(ws, dict):
            if drop_self and ws.get("source") != "docstring":
                return make_signature(drop_first(list(ws["parameters"])), ws.get("returns"), ws["source"])
            return ws
        if getattr(fv, "cython_binding", None) is False:
            # Cython without binding: inspect fails, the runtime reads the docstring's first line
            dsig = docstring_signature(function_doc(fv), drop_self)
            if dsig is not None:
                return dsig
        node = fv.node
        if isinstance(ws, tuple) and ws[0] == "wrapper":
            node = ws[1].node
            params = self.params_of(node, ws[1])
        else:
            params = self.params_of(node, fv)
            self.close_forwarded_keywords(fv, node, params)
        if drop_self:
            params = drop_first(params)
        sig = make_signature(params, self._returns(node, fv), fv.signature_source)
        if not is_meaningless(params):
            return sig
        return self._doc_or_stub_signature(fv, function_doc(fv), drop_self, sig, public_module, name)

    def close_forwarded_keywords(self, fv, node, params):
        """Where ``fv``'s ``**kwargs`` only goes on to callables of this library (forwarded_kwargs.py), the keywords
        it accepts, as the ``keywords`` list of its parameter in ``params``. A function nested in another reads
        names of the enclosing body this scope cannot tell apart from module-level ones: left open."""
        if not params or params[-1]["kind"] != VAR_KEYWORD or fv.scope is None or "<locals>" in (fv.qualname or ""):
            return
        if getattr(fv, "closure", None) is not None or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return
        active = self.__dict__.setdefault("_closing_keywords", set())
        if id(fv) in active:
            return  # forwards back to itself: its keywords are the ones being worked out
        active.add(id(fv))
        try:
            keywords = accepted_keywords(node, params, lambda call: self._forwarding_target(call, fv))
        finally:
            active.discard(id(fv))
        if keywords is not None:
            params[-1]["keywords"] = keywords

    def _forwarding_target(self, call, fv):
        """The parameters of the callee of ``call`` (evaluated in ``fv``'s module) where it is a callable this
        library defines and its signature lists every keyword; None otherwise (another library's callable takes
        what that library's version takes, not this one's)."""
        try:
            value = self.x.interp.eval(call.func, Scope(self.x.interp, fv.scope))
        except (Raise, Return, Exception):
            return None
        if isinstance(value, BoundMethodValue):
            return None  # the instance's class decides, which may be a subclass
        if not isinstance(value, (FunctionValue, ClassValue, CompiledValue, PartialValue)):
            return None
        kind = "class" if isinstance(value, ClassValue) else "function"
        sig = self.value_signature(value, kind, None, None)
        if sig is None or sig.get("source") not in ("inspect", "parser", "stub") or is_meaningless(sig["parameters"]):
            return None
        return sig["parameters"]

    def _doc_or_stub_signature(self, value, doc, drop_self, fallback, public_module, name):
        """Where introspection says nothing (``(*args, **kwargs)``): the docstring's signature, else the stubs' for
        the public name or the defining one, else the fallback."""
        dsig = docstring_signature(doc, drop_self)
        if dsig is not None:
            return with_open_keywords(dsig, fallback)
        if public_module and name:
            ssig = self.stub_signature([(public_module, name.split(".")), (value.module_attr(), value.qualname.split("."))])
            if ssig is not None:
                return ssig
        return fallback

    def _returns(self, node, fv):
        ret = getattr(node, "returns", None)
        if ret is None:
            return None
        try:
            text = fv.source.segment(ret) if fv.source is not None else None
        except Exception:
            text = None
        return returns_text(text)

    def stub_signature(self, candidates):
        for module_name, parts in candidates:
            if not module_name or not parts or not all(parts):
                continue
            try:
                sig = self.x.stubs.signature(module_name, list(parts))
            except RecursionError:
                sig = None
            if sig is not None:
                return sig
        return None

    def class_signature(self, cv, public_module=None, name=None):
        key = ("class", id(cv), public_module, name)
        hit = self._cache.get(key)
        if hit is not None:
            return hit[1]
        sig = self._class_signature(cv, public_module, name)
        if cv.scope is not None and cv.scope.kind == "stub":
            # a class only a .pyi declares is built in C (numpy 2's dtypes.StringDType): its constructor's argument
            # parser says what it takes, where the stub often writes __new__(cls, /)
            parsed = self.x.c_parsers.parameters(cv.module, cv.name)
            if parsed is not None:
                sig = parser_signature(parsed, sig)
        self._cache[key] = (cv, sig)
        return sig

    def _class_signature(self, cv, public_module, name):
        if cv.synthetic_signature is not None:
            return cv.synthetic_signature
        if cv.is_enum:
            return None
        if cv.scope is not None and cv.scope.kind == "pyx":
            # extension type: its __init__ is a slot wrapper; the runtime reads the class docstring
            dsig = docstring_signature(cv.doc, False)
            if dsig is not None:
                return dsig
        mro = self.x.mro(cv)
        # namedtuple / dataclass constructors
        for c in mro:
            if isinstance(c, ClassValue) and ("__init__" in c.ns or "__new__" in c.ns):
                break
            if isinstance(c, ClassValue) and c.namedtuple_fields is not None:
                return make_signature([make_param(f, POSITIONAL_OR_KEYWORD) for f in c.namedtuple_fields], None,
                                      "inspect")
        if cv.is_dataclass and "__init__" not in cv.ns:
            return self._dataclass_signature(cv, mro)
        found = None
        for c in mro:
            if isinstance(c, ClassValue):
                new = c.ns.get("__new__")
                init = c.ns.get("__init__")
                if isinstance(new, FunctionValue):
                    found = ("f", new)
                    break
                if isinstance(init, FunctionValue):
                    found = ("f", init)
                    break
                if new is not None or init is not None:
                    found = ("unknown", None)
                    break
            elif isinstance(c, CompiledValue):
                if c.signature is not None:
                    found = ("sig", c.signature)
                    break
                if c.obj_kind == "class":
                    found = ("unknown", None)
                    break
            elif isinstance(c, ExternalValue):
                if c.dotted in ("builtins.object", "typing.Generic", "typing.Protocol", "abc.ABC") or \
                        c.dotted.startswith("typing."):
                    continue
                # a constructor inherited from outside the library: its parameters depend on that library (or on
                # the interpreter's standard library), not on this source
                found = ("unknown", None)
                break
            elif isinstance(c, (UnknownValue, InstanceValue)):
                found = ("unknown", None)
                break
        if found is None:
            return make_signature([], None, "inspect")
        fallback = None
        if found[0] == "f":
            sig = self.function_signature(found[1], True)
            if sig is not None and not is_meaningless(sig["parameters"]):
                return sig
            fallback = sig
        elif found[0] == "sig":
            if found[1] is not None and not is_meaningless(found[1]["parameters"]):
                return found[1]
            fallback = found[1]
        return self._doc_or_stub_signature(cv, cv.doc, False, fallback, public_module, name)

    def _dataclass_signature(self, cv, mro):
        fields = []
        seen = {}
        for c in reversed(mro):
            if not isinstance(c, ClassValue) or not c.is_dataclass:
                continue
            for fname, ann, default in c.annotations:
                ann_text = c.source.segment(ann) if c.source is not None else ""
                if ann_text and ("ClassVar" in ann_text):
                    continue
                d = None
                if default is not None:
                    if isinstance(default, ast.Call) and (dotted_name(default.func) or "").endswith("field"):
                        for kw in default.keywords:
                            if kw.arg == "default":
                                d = self.render_default(kw.value, c)
                            elif kw.arg == "default_factory":
                                d = "<factory>"
                            elif kw.arg == "init" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                                d = "__skip__"
                    else:
                        d = self.render_default(default, c)
                if d == "__skip__":
                    continue
                kind = KEYWORD_ONLY if c.dataclass_kw_only else POSITIONAL_OR_KEYWORD
                if fname in seen:
                    fields[seen[fname]] = make_param(fname, kind, d)
                else:
                    seen[fname] = len(fields)
                    fields.append(make_param(fname, kind, d))
        pos = [f for f in fields if f["kind"] == POSITIONAL_OR_KEYWORD]
        kw = [f for f in fields if f["kind"] == KEYWORD_ONLY]
        return make_signature(pos + kw, "None", "inspect")

    def compiled_signature(self, cv, public_module=None, name=None):
        sig = self._compiled_signature(cv, public_module, name)
        parsed = self.x.c_parsers.parameters(cv.module, cv.name) if cv.obj_kind in ("function", "method", "class") \
            and not getattr(cv, "ufunc", False) else None
        # the keywords the C function's argument parser takes, where it can be read, beat a docstring's list
        return parser_signature(parsed, sig) if parsed is not None else sig

    def _compiled_signature(self, cv, public_module, name):
        if cv.signature is not None and not is_meaningless(cv.signature["parameters"]):
            return cv.signature
        doc_sig = None
        if cv.doc:
            doc_sig = docstring_signature(cv.doc, cv.obj_kind == "method")
            if doc_sig is not None:
                return doc_sig
            xs = self.xref_signature(cv)
            if xs is not None:
                return xs
        cands = []
        if public_module and name:
            cands.append((public_module, name.split(".")))
        cands.append((cv.module, cv.name.split(".")))
        if cv.defined_in and cv.defined_in != cv.module:
            cands.append((cv.defined_in, cv.name.split(".")))
        for stub_mod in self.x.stubs.directory_stubs(cv.module):
            if stub_mod != cv.module:
                cands.append((stub_mod, cv.name.split(".")))
        ssig = self.stub_signature(cands)
        if ssig is not None:
            return ssig
        return cv.signature

    def xref_signature(self, cv):
        """Signature of the same-named callable a docstring points to (numpy scalar methods -> ndarray)."""
        if self._xref_depth > 0 or not cv.doc:
            return None
        short = cv.name.rsplit(".", 1)[-1]
        refs = []
        for m in _XREF_BACKTICK.finditer(cv.doc):
            if m.group(1).rsplit(".", 1)[1] == short:
                refs.append(m.group(1))
        for m in _XREF_CLASS.finditer(cv.doc):
            refs.append(m.group(1) + "." + short)
        self._xref_depth += 1
        try:
            for ref in refs:
                v = self.x.resolve_path(ref)
                if v is None or v is cv:
                    continue
                if isinstance(v, CompiledValue) and v.obj_kind in ("function", "method", "class"):
                    s = self.compiled_signature(v)
                    if s is not None:
                        return s
                elif isinstance(v, FunctionValue):
                    return self.function_signature(v, "." in ref.split(".", 1)[-1])
        finally:
            self._xref_depth -= 1
        return None

    def value_signature(self, value, kind, public_module, name):
        if isinstance(value, FunctionValue):
            return self.function_signature(value, value.method_kind == "class", public_module, name)
        if isinstance(value, ClassValue):
            return self.class_signature(value, public_module, name)
        if isinstance(value, CompiledValue):
            return self.compiled_signature(value, public_module, name)
        if isinstance(value, BoundMethodValue):
            if isinstance(value.func, FunctionValue):
                drop = value.func.method_kind != "static"
                return self.function_signature(value.func, drop, public_module, name)
            return None
        if isinstance(value, PartialValue):
            base = self.value_signature(value.func, "function", None, None)
            if base is None:
                return None
            params = [dict(p) for p in base["parameters"]]
            n = value.n_args
            out = []
            for p in params:
                if n > 0 and p["kind"] in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
                    n -= 1
                    continue
                if p["name"] in value.kw_names:
                    p["kind"] = KEYWORD_ONLY
                    p["default"] = p["default"] or UNKNOWN_DEFAULT
                out.append(p)
            kinds = {KEYWORD_ONLY: 3}
            out.sort(key=lambda p: {POSITIONAL_ONLY: 0, POSITIONAL_OR_KEYWORD: 1, VAR_POSITIONAL: 2,
                                    KEYWORD_ONLY: 3, VAR_KEYWORD: 4}[p["kind"]])
            return make_signature(out, base.get("returns"), base["source"])
        if isinstance(value, InstanceValue):
            call = None
            if isinstance(value.cls, ClassValue):
                call = self.x.class_member(value.cls, "__call__")
            if isinstance(call, FunctionValue):
                sig = self.function_signature(call, True, public_module, name)
                if sig is not None and is_meaningless(sig["parameters"]) and value.call is not None:
                    # the runtime reads the instance's __doc__: a docstring handed to the constructor
                    for a in list(value.call.args) + [k.value for k in value.call.keywords]:
                        if isinstance(a, ast.Constant) and isinstance(a.value, str) and "(" in a.value[:200]:
                            dsig = docstring_signature(a.value, False)
                            if dsig is not None:
                                return dsig
                return sig
            if isinstance(value.cls, ExternalValue) and hasattr(value.cls, "obj"):
                return None
            return None
        if isinstance(value, ExternalValue) and getattr(value, "record", None) is not None:
            return value.record.get("signature")
        return None

    def member_signature(self, cls, name, raw, kind, public_module, class_path):
        if kind == "class":
            return self.value_signature(raw, "class", public_module, class_path + "." + name)
        if kind != "method":
            return None
        if isinstance(raw, FunctionValue):
            drop = raw.method_kind != "static"
            return self.function_signature(raw, drop, public_module, class_path + "." + name)
        if isinstance(raw, CompiledValue):
            return self.compiled_signature(raw, public_module, class_path + "." + name)
        if isinstance(raw, PartialValue):
            return self.value_signature(raw, "function", None, None)
        if isinstance(raw, ExternalValue) and hasattr(raw, "obj"):
            try:
                return from_inspect(inspect.signature(raw.obj))
            except Exception:
                return None
        if isinstance(raw, InstanceValue):
            return self.value_signature(raw, "function", public_module, class_path + "." + name)
        return None
