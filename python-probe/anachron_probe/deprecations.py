"""What a release deprecates, read from its own deprecation machinery with ``ast`` (nothing is imported or run).

Evidence, per definition of the source tree:

- ``warning``: a function (a class: its ``__init__`` or ``__new__``) whose body warns with ``DeprecationWarning`` or
  ``PendingDeprecationWarning`` as one of its own statements, not under a condition (numpy 2's ``trapz``), directly
  or through a helper of the same tree that does (numpy 2's ``numpy.core._utils._raise_warning``); under
  ``if PARAM is not …:`` / ``if PARAM:`` for one of its parameters the *parameter* is deprecated (``newshape=``).
- ``decorator``: a deprecation decorator (``@deprecate``, ``@np.deprecate(...)``, scipy's ``@_deprecated(...)``,
  ``@deprecated(...)`` of ``typing_extensions`` / ``warnings``).
- ``directive``: ``.. deprecated::`` in the docstring before its Parameters section (the API), or under one
  parameter's entry there (that parameter).
- ``table``: a module's ``__deprecated_attrs__`` (numpy 1.20-1.24's ``np.float`` and friends), and a module
  ``__getattr__`` branch that compares its argument with a name and warns (``np.chararray`` in numpy 2).
- ``getattr``: a module ``__getattr__`` that warns for every name it serves (numpy 2's ``numpy.core.*``, scipy's
  ``_sub_module_deprecation`` shims): the module's *members* are deprecated.
- ``module``: a module that warns when imported (``numpy.distutils`` from 1.23, ``scipy.misc`` from 1.10).

Definitions are joined to the public paths of the release's own surface: an API whose leaf is the definition's name
and whose ``defined_in`` is the definition's module or a package above it (``@set_module('numpy')``), a method
through its class; a path two definitions of that name could be is left out."""
import ast
import re

from .ast_names import absolute_import, dotted_name, template_text

WARNINGS = ("DeprecationWarning", "PendingDeprecationWarning")
DECORATORS = ("deprecate", "deprecated", "_deprecated", "deprecate_with_doc")
FORMAT = "anachron-deprecations/1"
EXTRACTOR = "deprecations-2"


def _leaf(dotted):
    return dotted.rsplit(".", 1)[-1] if dotted else None


def _text(node):
    """The literal text of a message: constants, their concatenations, the constant parts of an f-string."""
    text = template_text(node, "…")
    if text is not None:
        return text
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = _text(node.left)
        if isinstance(node.op, ast.Mod):
            return left
        right = _text(node.right)
        return left + right if left is not None and right is not None else (left or right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _text(node.func.value)
    return None


def _clean(message):
    if message is None:
        return None
    message = re.sub(r"\s+", " ", message).strip()
    return message[:300] or None


def deprecation_warning(call):
    """The message of ``warnings.warn(msg, DeprecationWarning)`` (category positional or keyword), '' when it has
    none we can read; None when ``call`` is not such a warning."""
    if not isinstance(call, ast.Call) or _leaf(dotted_name(call.func)) != "warn":
        return None
    category = call.args[1] if len(call.args) > 1 else None
    for kw in call.keywords:
        if kw.arg == "category":
            category = kw.value
    if category is None or _leaf(dotted_name(category)) not in WARNINGS:
        return None
    return _clean(_text(call.args[0])) if call.args else ""


def _own_statements(body):
    """Statements a body runs whenever it runs: not under if/for/while/try handlers, not in nested definitions
    (a try's body and a with's body run)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for s in _own_statements(stmt.body):
                yield s
        elif isinstance(stmt, ast.Try):
            for s in _own_statements(stmt.body):
                yield s


def _calls_in(stmt):
    """Calls of a statement outside nested definitions and lambdas."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            stack.append(child)


def _skip_docstring(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def _parameters(func):
    a = func.args
    names = [p.arg for p in list(getattr(a, "posonlyargs", [])) + list(a.args) + list(a.kwonlyargs)]
    return [n for n in names if n not in ("self", "cls")]


def _condition_parameter(test, params):
    """The parameter a condition is about: ``P is not X``, ``X is not P``, ``P != X``, ``P``, ``P is not None and …``."""
    if isinstance(test, ast.Name) and test.id in params:
        return test.id
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)):
        for side in (test.left, test.comparators[0]):
            if isinstance(side, ast.Name) and side.id in params:
                other = test.comparators[0] if side is test.left else test.left
                if not (isinstance(other, ast.Name) and other.id in params):
                    return side.id
    return None


class Helpers(object):
    """Functions of the tree that warn with a deprecation whenever they are called: module -> name -> message."""

    def __init__(self):
        self.by_module = {}

    def add(self, module, name, message):
        self.by_module.setdefault(module, {})[name] = message

    def resolve(self, call, module, imports):
        """The message of a call of such a helper, by a name the module binds, else None."""
        name = dotted_name(call.func)
        if not name or "." in name:
            return None
        target = imports.get(name)
        if target is None:
            return self.by_module.get(module, {}).get(name)
        mod, attr = target
        return self.by_module.get(mod, {}).get(attr)


def _imports(tree, module, is_package):
    """name -> (module, attribute) for ``from X import a as b`` anywhere in the module (relative ones resolved)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = absolute_import(module, is_package, node.module, node.level) or ""
            for a in node.names:
                out[a.asname or a.name] = (base, a.name)
    return out


def _unconditional_warning(body, module, imports, helpers):
    """The message of a deprecation the body always raises (own statements, or a helper it always calls)."""
    for stmt in _own_statements(_skip_docstring(body)):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With, ast.AsyncWith)):
            tests = [stmt.test] if isinstance(stmt, (ast.If, ast.While)) else [stmt.iter] if isinstance(stmt, ast.For) else []
            calls = [c for t in tests for c in _calls_in(t)]
        else:
            calls = list(_calls_in(stmt))
        for call in calls:
            message = deprecation_warning(call)
            if message is None and helpers is not None:
                message = helpers.resolve(call, module, imports)
            if message is not None:
                return message
        if isinstance(stmt, (ast.Return, ast.Raise)):
            return None
        # A branch that may return skips what follows on some valid calls (scipy's linprog returns for the HiGHS
        # methods before it warns about the others): what follows is not always raised.
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try)) and _may_return(stmt):
            return None
    return None


def _may_return(stmt):
    """Whether a compound statement has a return in it, outside nested definitions."""
    stack = list(ast.iter_child_nodes(stmt))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def _parameter_warnings(func):
    """parameter -> message for ``if PARAM …: warnings.warn(…, DeprecationWarning)`` among the function's statements."""
    params = set(_parameters(func))
    out = {}
    for stmt in _own_statements(_skip_docstring(func.body)):
        if not isinstance(stmt, ast.If):
            continue
        tests = [stmt.test.values[0]] if isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.And) else [stmt.test]
        param = _condition_parameter(tests[0], params)
        if param is None:
            continue
        for s in _own_statements(stmt.body):
            message = None
            for call in _calls_in(s) if not isinstance(s, (ast.If, ast.For, ast.While)) else []:
                message = deprecation_warning(call)
                if message is not None:
                    break
            if message is not None:
                out.setdefault(param, message)
                break
    return out


def _decorator_message(func):
    for d in func.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if _leaf(dotted_name(target)) in DECORATORS:
            if isinstance(d, ast.Call):
                for arg in list(d.args) + [k.value for k in d.keywords if k.arg in ("message", "msg", "reason")]:
                    text = _clean(_text(arg))
                    if text:
                        return text
            return ""
    return None


_SECTION = re.compile(r"^\s*(Parameters|Returns|Yields|Other Parameters|Raises|See Also|Notes|Examples|References|Attributes|Methods)\s*$")
_ENTRY = re.compile(r"^(\s*)(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)(\s*,\s*\*{0,2}[A-Za-z_][A-Za-z0-9_]*)*\s*(:.*)?$")


_CONDITIONAL = re.compile(r"^(Calling|Passing|Using|Setting|Support|Supplying|Specifying|Providing|Giving|The default|In the future|When|If)\b|\b(if|when|unless|must|values?|as an? index)\b|^`{1,2}\w+\s*=", re.I)


def _whole_deprecation(text):
    """Whether a directive's text deprecates the thing itself, not one way of calling it ("Passing booleans as
    index is deprecated", "If s is not None, axes must not be None either")."""
    return not _CONDITIONAL.search(text)


def directive_deprecations(doc):
    """(deprecated itself, {parameter: text}) from ``.. deprecated::`` directives of a numpydoc docstring."""
    if not doc or ".. deprecated::" not in doc:
        return None, {}
    lines = doc.expandtabs().splitlines()
    section = None
    param = None
    param_indent = None
    itself = None
    params = {}
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.match(r"^\s*-{3,}\s*$", lines[i + 1]) and _SECTION.match(line):
            section = line.strip()
            param = None
            continue
        if section == "Parameters" or section == "Other Parameters":
            m = _ENTRY.match(line)
            indent = len(line) - len(line.lstrip())
            if m and line.strip() and not line.strip().startswith(".."):
                if param_indent is None or indent <= param_indent:
                    param_indent = indent
                    names = re.findall(r"\*{0,2}([A-Za-z_][A-Za-z0-9_]*)", line.split(":", 1)[0])
                    param = names
                    continue
        if ".. deprecated::" in line:
            indent = len(line) - len(line.lstrip())
            body = []
            for follow in lines[i + 1:]:
                if follow.strip() and len(follow) - len(follow.lstrip()) <= indent:
                    break
                body.append(follow.strip())
            text = _clean(" ".join(body)) or ""
            if not _whole_deprecation(text):
                continue
            since = line.split(".. deprecated::", 1)[1].strip()
            text = _clean("Deprecated in %s. %s" % (since, text) if since else text) or ""
            if section is None:
                itself = text
            elif section in ("Parameters", "Other Parameters") and param:
                for p in param:
                    params.setdefault(p, text)
    return itself, params


def _module_getattr(tree):
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            return node
    return None


def _getattr_branches(func):
    """Names a module ``__getattr__`` warns about in a branch of their own: ``if attr == "x": warnings.warn(…)``."""
    params = _parameters(func)
    if not params:
        return {}
    param = params[0]
    out = {}
    for node in ast.walk(func):
        if not isinstance(node, ast.If):
            continue
        t = node.test
        names = []
        if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.left, ast.Name) and t.left.id == param:
            right = t.comparators[0]
            if isinstance(t.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
                names = [right.value]
            elif isinstance(t.ops[0], ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
                names = [e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if not names:
            continue
        for stmt in _own_statements(node.body):
            message = None
            for call in _calls_in(stmt) if not isinstance(stmt, (ast.If, ast.For, ast.While)) else []:
                message = deprecation_warning(call)
                if message is not None:
                    break
            if message is not None:
                for n in names:
                    out.setdefault(n, message)
                break
    return out


class _Env(object):
    """Module-level values simple enough to evaluate: literals, names bound to them, str.format of them."""

    def __init__(self):
        self.values = {}

    def eval(self, node, local=None):
        local = local or {}
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in local:
                return local[node.id]
            if node.id in self.values:
                return self.values[node.id]
            raise ValueError(node.id)
        if isinstance(node, (ast.Tuple, ast.List)):
            return tuple(self.eval(e, local) for e in node.elts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.eval(node.left, local) + self.eval(node.right, local)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            base = self.eval(node.func.value, local)
            kwargs = {k.arg: self.eval(k.value, local) for k in node.keywords if k.arg}
            if isinstance(base, str):
                return base.format(*[self.eval(a, local) for a in node.args], **kwargs)
        raise ValueError(ast.dump(node)[:40])


def _deprecated_attrs(tree):
    """name -> message of ``__deprecated_attrs__`` (dict literals, ``[name] = (value, msg)``, ``.update({…})`` with a
    dict comprehension over a literal table)."""
    env = _Env()
    out = {}

    def message_of(value, local=None):
        try:
            v = env.eval(value, local)
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            if isinstance(value, ast.Tuple) and len(value.elts) == 2:
                try:
                    v = ("", env.eval(value.elts[1], local))
                except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                    return ""
            else:
                return ""
        if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], str):
            return _clean(v[1]) or ""
        return _clean(v) if isinstance(v, str) else ""

    def walk(body):
        for stmt in body:
            if isinstance(stmt, ast.If):
                walk(stmt.body)
                walk(stmt.orelse)
                continue
            if isinstance(stmt, ast.Try):
                walk(stmt.body)
                continue
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name):
                    try:
                        env.values[target.id] = env.eval(stmt.value)
                    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                        env.values.pop(target.id, None)
                    if target.id == "__deprecated_attrs__" and isinstance(stmt.value, ast.Dict):
                        for k, v in zip(stmt.value.keys, stmt.value.values):
                            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                                out[k.value] = message_of(v)
                elif (isinstance(target, ast.Subscript) and dotted_name(target.value) == "__deprecated_attrs__"):
                    key = target.slice.value if isinstance(target.slice, ast.Index) else target.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        out[key.value] = message_of(stmt.value)
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                if (isinstance(call.func, ast.Attribute) and call.func.attr == "update"
                        and dotted_name(call.func.value) == "__deprecated_attrs__" and call.args):
                    arg = call.args[0]
                    if isinstance(arg, ast.Dict):
                        for k, v in zip(arg.keys, arg.values):
                            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                                out[k.value] = message_of(v)
                    elif isinstance(arg, ast.DictComp) and len(arg.generators) == 1:
                        gen = arg.generators[0]
                        try:
                            rows = env.eval(gen.iter)
                        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                            continue
                        for row in rows:
                            local = {}
                            if isinstance(gen.target, ast.Name):
                                local[gen.target.id] = row
                            elif isinstance(gen.target, ast.Tuple) and isinstance(row, tuple) and len(row) == len(gen.target.elts):
                                for t, v in zip(gen.target.elts, row):
                                    if isinstance(t, ast.Name):
                                        local[t.id] = v
                            try:
                                key = env.eval(arg.key, local)
                            except (ValueError, KeyError, IndexError, TypeError, AttributeError):
                                continue
                            if isinstance(key, str):
                                out[key] = message_of(arg.value, local)
    walk(tree.body)
    return out


def module_name(path, package_root):
    """``numpy/lib/_function_base_impl.py`` -> (``numpy.lib._function_base_impl``, False); ``__init__.py`` -> package."""
    rel = path[:-3]
    is_package = rel.endswith("/__init__")
    if is_package:
        rel = rel[: -len("/__init__")]
    return rel.replace("/", "."), is_package


def _source_files(tree, package):
    for path in tree.files():
        if not path.endswith(".py") or not (path.startswith(package + "/")):
            continue
        parts = path.split("/")
        if any(p in ("tests", "test", "testing", "benchmarks", "_vendor", "vendored") for p in parts[1:-1]):
            continue
        yield path


def read_definitions(tree, package):
    """Every module of the tree: (module, is_package, parsed tree); unparsable files skipped."""
    out = []
    for path in _source_files(tree, package):
        data = tree.read(path)
        if data is None:
            continue
        try:
            parsed = ast.parse(data.decode("utf-8", "replace"), filename=path)
        except (SyntaxError, ValueError):
            continue
        module, is_package = module_name(path, package)
        out.append((module, is_package, parsed, path))
    return out


def _helpers(modules):
    """Functions (module level) that always warn with a deprecation, two rounds so a helper of a helper counts."""
    helpers = Helpers()
    for _ in range(2):
        for module, is_package, parsed, _path in modules:
            imports = _imports(parsed, module, is_package)
            for node in parsed.body:
                if isinstance(node, ast.FunctionDef) and not node.name.startswith("__"):
                    message = _unconditional_warning(node.body, module, imports, helpers)
                    if message is not None:
                        helpers.add(module, node.name, message)
    return helpers


def definitions(modules):
    """Each definition's deprecation facts: (module, qualname) -> {"self": (evidence, message, source), "parameters":
    {name: (evidence, message, source)}}; every definition is listed (None facts too), so a name two definitions
    share can be told apart. Module facts: module -> {"self"|"members"|"names": …}."""
    helpers = _helpers(modules)
    defs = {}
    mods = {}
    for module, is_package, parsed, path in modules:
        imports = _imports(parsed, module, is_package)
        mod_facts = {}
        message = _unconditional_warning(parsed.body, module, imports, None)
        if message is not None:
            mod_facts["self"] = ("module", message, path)
        getattr_def = _module_getattr(parsed)
        if getattr_def is not None:
            message = _unconditional_warning(getattr_def.body, module, imports, helpers)
            if message is not None:
                mod_facts["members"] = ("getattr", message, "%s:%d" % (path, getattr_def.lineno))
            names = {n: ("table", m, "%s:%d" % (path, getattr_def.lineno)) for n, m in _getattr_branches(getattr_def).items()}
            for n, m in _deprecated_attrs(parsed).items():
                names.setdefault(n, ("table", m, path))
            if names:
                mod_facts["names"] = names
        if mod_facts:
            mods[module] = mod_facts

        def visit(body, prefix):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qual = prefix + node.name
                    defs.setdefault((module, qual), []).append(_function_facts(node, module, imports, helpers, path))
                elif isinstance(node, ast.ClassDef):
                    qual = prefix + node.name
                    defs.setdefault((module, qual), []).append(_class_facts(node, module, imports, helpers, path))
                    if not prefix:
                        visit(node.body, qual + ".")
                elif isinstance(node, (ast.If, ast.Try)) and not prefix:
                    visit(node.body, prefix)
                    visit(getattr(node, "orelse", []), prefix)
        visit(parsed.body, "")
    return defs, mods


def _function_facts(node, module, imports, helpers, path):
    where = "%s:%d" % (path, node.lineno)
    facts = {"self": None, "parameters": {}}
    message = _decorator_message(node)
    if message is not None:
        facts["self"] = ("decorator", message, where)
    else:
        message = _unconditional_warning(node.body, module, imports, helpers)
        if message is not None:
            facts["self"] = ("warning", message, where)
    doc = ast.get_docstring(node, clean=True)
    itself, params = directive_deprecations(doc)
    if facts["self"] is None and itself is not None:
        facts["self"] = ("directive", itself, where)
    known = set(_parameters(node))
    for p, m in _parameter_warnings(node).items():
        facts["parameters"][p] = ("warning", m, where)
    for p, m in params.items():
        if p in known:
            facts["parameters"].setdefault(p, ("directive", m, where))
    return facts


def _class_facts(node, module, imports, helpers, path):
    where = "%s:%d" % (path, node.lineno)
    facts = {"self": None, "parameters": {}}
    message = _decorator_message(node)
    if message is not None:
        facts["self"] = ("decorator", message, where)
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name in ("__init__", "__new__"):
            inner = _function_facts(item, module, imports, helpers, path)
            if facts["self"] is None and inner["self"] is not None and inner["self"][0] != "directive":
                facts["self"] = inner["self"]
            for p, m in inner["parameters"].items():
                facts["parameters"].setdefault(p, m)
    itself, params = directive_deprecations(ast.get_docstring(node, clean=True))
    if facts["self"] is None and itself is not None:
        facts["self"] = ("directive", itself, where)
    for p, m in params.items():
        facts["parameters"].setdefault(p, ("directive", m, where))
    return facts


def _under(module, package):
    return module == package or module.startswith(package + ".")


def join_surface(defs, mods, surface):
    """The deprecations of the surface's public paths (sorted, one entry per path and parameter)."""
    apis = surface.get("apis", [])
    by_path = {a["path"]: a for a in apis}
    by_name = {}
    for (module, qual), facts in defs.items():
        by_name.setdefault(qual.rsplit(".", 1)[-1], []).append((module, qual, facts))
    out = {}

    def add(path, parameter, fact):
        key = (path, parameter or "")
        if key not in out:
            evidence, message, source = fact
            out[key] = {"path": path, "parameter": parameter, "evidence": evidence, "message": message or None, "source": source}

    for a in apis:
        path = a["path"]
        kind = a.get("kind")
        if kind not in ("function", "class", "method"):
            continue
        leaf = path.rsplit(".", 1)[-1]
        if kind == "method":
            owner = by_path.get(path.rsplit(".", 1)[0])
            if owner is None or owner.get("kind") != "class":
                continue
            qual_suffix = owner["path"].rsplit(".", 1)[-1] + "." + leaf
            home = owner.get("defined_in")
        else:
            qual_suffix = leaf
            home = a.get("defined_in")
        if not home:
            continue
        candidates = [(m, q, f) for m, q, f in by_name.get(leaf, []) if q == qual_suffix or (kind != "method" and q == leaf)]
        exact = [c for c in candidates if c[0] == home]
        chosen = exact if exact else [c for c in candidates if _under(c[0], home)]
        facts = [f for _m, _q, fl in chosen for f in fl]
        if not facts:
            continue
        selfs = [f["self"] for f in facts]
        if all(s is not None for s in selfs):
            add(path, None, selfs[0])
        params = None
        for f in facts:
            names = set(f["parameters"])
            params = names if params is None else params & names
        for p in sorted(params or ()):
            add(path, p, facts[0]["parameters"][p])
    for module, facts in mods.items():
        if module in by_path and by_path[module].get("kind") == "module":
            if "self" in facts:
                add(module, None, facts["self"])
            if "members" in facts:
                key = (module, "*")
                if key not in out:
                    evidence, message, source = facts["members"]
                    out[key] = {"path": module, "parameter": None, "members": True, "evidence": evidence, "message": message or None, "source": source}
            for name, fact in sorted(facts.get("names", {}).items()):
                if module + "." + name in by_path:
                    add(module + "." + name, None, fact)
    return [out[k] for k in sorted(out)]
