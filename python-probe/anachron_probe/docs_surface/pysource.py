"""Static reading of Python sources at a tag: module files, module and class docstrings, and where a public name
is bound (following imports, ``from X import *``, aliases such as ``from .lib import scimath as emath``).
Nothing is imported or executed: files are parsed with ``ast`` (Cython ``.pyx`` files: only the leading
docstring, read with ``tokenize``)."""
import ast
import io
import re
import sys
import tokenize

from ..ast_names import dotted_name
from ..text import indent_width

_MAX_DEPTH = 12
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class Binding:
    """What a name refers to: a module (``kind='module'``, ``module`` is its real dotted name) or an object bound in
    ``module`` (``node`` the defining ast node when known)."""

    __slots__ = ("kind", "module", "name", "node", "path")

    def __init__(self, kind, module, name=None, node=None, path=None):
        self.kind = kind
        self.module = module
        self.name = name
        self.node = node
        self.path = path


def _walk_body(stmts):
    """Module-level statements in order, descending into if/try/with blocks (conditional imports)."""
    for s in stmts:
        if isinstance(s, ast.If):
            for x in _walk_body(s.body):
                yield x
            for x in _walk_body(s.orelse):
                yield x
        elif isinstance(s, ast.Try) or type(s).__name__ == "TryStar":
            for x in _walk_body(s.body):
                yield x
            for h in s.handlers:
                for x in _walk_body(h.body):
                    yield x
            for x in _walk_body(s.orelse):
                yield x
            for x in _walk_body(s.finalbody):
                yield x
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for x in _walk_body(s.body):
                yield x
        else:
            yield s


def _str_list(node):
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        for e in node.elts:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                out.append(e.value)
            else:
                return None
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _str_list(node.left), _str_list(node.right)
        if a is not None and b is not None:
            return a + b
    return None


def _pyx_docstring(text):
    """The leading string literal of a Cython file, if any."""
    try:
        toks = tokenize.generate_tokens(io.StringIO(text).readline)
        for tok in toks:
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.ENCODING):
                continue
            if tok.type == tokenize.STRING:
                value = ast.literal_eval(tok.string)
                return value if isinstance(value, str) else None
            return None
    except (tokenize.TokenError, SyntaxError, ValueError, IndentationError):
        return None
    return None


_PYX_CLASS = re.compile(r"^(?:cdef\s+(?:(?:public|final|api)\s+)*)?class\s+(\w+)\s*(?:\(([^)]*)\))?\s*:")
_PYX_METHOD = re.compile(r"^(?:(?:async\s+)?def\s+|cpdef\s+[^(=]*?\b)(\w+)\s*\(")
_PYX_PROPERTY = re.compile(r"^property\s+(\w+)\s*:")
_PYX_PUBLIC = re.compile(r"^cdef\s+(?:public|readonly)\s+(.*)$")
_PYX_ASSIGN = re.compile(r"^(\w+)\s*(?::[^=]+)?=(?!=)")


class PyxClass:
    """A class of a Cython file, read with regular expressions: its name, base expressions, the names its body
    defines (methods: def/cpdef; attributes: properties, ``cdef public``/``readonly`` declarations, class
    attributes) and its docstring."""

    def __init__(self, name, bases, methods, attributes, doc):
        self.name = name
        self.bases = bases
        self.methods = methods
        self.attributes = attributes
        self.doc = doc


_PYX_FROM = re.compile(r"^from\s+(\.*[\w.]*)\s+c?import\s+\(?([^()#]+)\)?\s*(?:#.*)?$")


def read_pyx_imports(text):
    """{bound name: (module as written, with leading dots; attribute)} of top-level ``from X (c)import`` lines."""
    out = {}
    for line in text.splitlines():
        m = _PYX_FROM.match(line)
        if not m:
            continue
        for part in m.group(2).split(","):
            words = part.split()
            if len(words) == 1:
                out[words[0]] = (m.group(1), words[0])
            elif len(words) == 3 and words[1] == "as":
                out[words[2]] = (m.group(1), words[0])
    return out


def read_pyx_classes(text):
    lines = text.splitlines()
    out = {}
    i, n = 0, len(lines)
    while i < n:
        m = _PYX_CLASS.match(lines[i])
        if not m:
            i += 1
            continue
        name = m.group(1)
        bases = []
        for b in (m.group(2) or "").split(","):
            b = b.strip().split()[-1] if b.strip() else ""
            if re.match(r"^[A-Za-z_][\w.]*$", b):
                bases.append(b)
        j = i + 1
        body = []
        while j < n and (not lines[j].strip() or lines[j][0] in " \t" or lines[j].lstrip().startswith("#")):
            body.append(lines[j])
            j += 1
        ind = None
        for b in body:
            if b.strip():
                ind = indent_width(b)
                break
        methods, attributes = [], []
        doc = None
        if ind:
            doc = _pyx_docstring("\n".join(x[ind:] if len(x) >= ind else x.strip() for x in body))
            in_cdef_block = False
            decorated_property = False
            for b in body:
                if not b.strip():
                    continue
                bind = indent_width(b)
                t = b.strip()
                if bind > ind:
                    # ``cdef:`` blocks: ``readonly``/``public`` declarations are Python-visible attributes
                    mm = re.match(r"^(?:readonly|public)\s+(.*)$", t) if in_cdef_block else None
                    if mm:
                        decl = mm.group(1).split("#")[0].strip()
                        if decl:
                            attributes.append(decl.split()[-1])
                    continue
                if bind != ind:
                    continue
                in_cdef_block = t.rstrip() == "cdef:"
                if t.startswith("@"):
                    decorated_property = decorated_property or bool(
                        re.match(r"^@(?:property|cached_property|[\w.]*\.(?:setter|getter|deleter))\b", t))
                    continue
                mm = _PYX_METHOD.match(t)
                if mm:
                    (attributes if decorated_property else methods).append(mm.group(1))
                    decorated_property = False
                    continue
                decorated_property = False
                mm = _PYX_PROPERTY.match(t)
                if mm:
                    attributes.append(mm.group(1))
                    continue
                mm = _PYX_PUBLIC.match(t)
                if mm:
                    decl = mm.group(1).split("#")[0]
                    words = [w.strip() for w in decl.split(",") if w.strip()]
                    if words:
                        attributes.append(words[0].split()[-1])
                        attributes.extend(w.split()[-1] for w in words[1:])
                    continue
                mm = _PYX_ASSIGN.match(t)
                if mm:
                    attributes.append(mm.group(1))
        methods = [m for m in methods if re.match(r"^\w+$", m)]
        attributes = [m for m in attributes if re.match(r"^\w+$", m)]
        out[name] = PyxClass(name, bases, methods, attributes, doc)
        i = j
    return out


_TYPE_ALIAS = re.compile(r"^(\s*)type\s+(\w+)\s*(?:\[[^\]=]*\])?\s*=.*$", re.M)
_TYPE_PARAMS = re.compile(r"^(\s*(?:async\s+)?(?:def|class)\s+\w+)\[[^\]]*(?:\[[^\]]*\][^\]]*)*\]", re.M)


def _downgrade(src):
    """PEP 695 syntax for interpreters before 3.12: ``type X = ...`` -> ``X = None``; ``def f[T](...)`` and
    ``class C[T](...)`` lose their type parameters."""
    src = _TYPE_ALIAS.sub(lambda m: "%s%s = None" % (m.group(1), m.group(2)), src)
    return _TYPE_PARAMS.sub(lambda m: m.group(1), src)


def clean_docstring(text):
    import inspect

    return inspect.cleandoc(text) if text else text


class PySource:
    def __init__(self, tree, errors, prefix=""):
        self.tree = tree
        self.errors = errors  # callable(file, error)
        self.prefix = prefix  # folder the package sits in ("lib/" for matplotlib's src layout), "" at the root
        self._ast = {}
        self._files = {}
        self._lookups = {}
        self._pyx = {}

    # --- files -------------------------------------------------------------------------------------------------
    def module_file(self, modname):
        """The file that defines module ``modname`` literally (no aliases), or None."""
        if modname in self._files:
            return self._files[modname]
        base = self.prefix + modname.replace(".", "/")
        found = None
        for cand in (base + ".py", base + "/__init__.py", base + ".pyx", base + "/__init__.pyx"):
            if cand in self.tree.blobs:
                found = cand
                break
        self._files[modname] = found
        return found

    def text(self, path):
        from .gitsource import MissingBlob

        try:
            return self.tree.read_text(path)
        except MissingBlob:
            self.errors(path, "blob missing from the mirror (files of 4 MiB and more are not stored)")
        except KeyError:
            self.errors(path, "no such file at this tag")
        return None

    def parse(self, path, quiet=False):
        """The ast of a .py file (None for other files, missing blobs, or syntax this Python cannot parse:
        recorded unless ``quiet``, for callers that have a fallback)."""
        if path not in self._ast:
            tree = failure = None
            if path.endswith(".py"):
                src = self.text(path)
                if src is not None:
                    try:
                        tree = ast.parse(src, filename=path)
                    except (SyntaxError, ValueError) as e:
                        # Syntax newer than this interpreter (PEP 695 type aliases and type parameters):
                        # rewritten to what it binds, then parsed again.
                        try:
                            tree = ast.parse(_downgrade(src), filename=path)
                        except (SyntaxError, ValueError):
                            failure = "cannot parse with Python %d.%d: %s: %s" % (
                                sys.version_info[0], sys.version_info[1], type(e).__name__, e)
            self._ast[path] = (tree, failure)
        tree, failure = self._ast[path]
        if failure and not quiet:
            self.errors(path, failure)
        return tree

    @staticmethod
    def _package_of(modname, path):
        return modname if path.endswith(("__init__.py", "__init__.pyx")) else modname.rpartition(".")[0]

    def _absolute(self, modname, path, node):
        """The absolute module named by an ImportFrom node inside module ``modname`` (file ``path``)."""
        if not node.level:
            return node.module
        pkg = self._package_of(modname, path)
        parts = pkg.split(".") if pkg else []
        up = node.level - 1
        if up > len(parts):
            return None
        base = parts[: len(parts) - up] if up else parts
        if node.module:
            base = base + node.module.split(".")
        return ".".join(base) or None

    # --- modules -----------------------------------------------------------------------------------------------
    def resolve_module(self, modname, depth=0):
        """(real module name, file) of the module reachable as ``modname``, following package attributes that
        alias modules (``numpy.emath`` -> ``numpy.lib.scimath``); None when it cannot be found."""
        path = self.module_file(modname)
        if path:
            return modname, path
        parent, _, child = modname.rpartition(".")
        if not parent or depth > _MAX_DEPTH:
            return None
        r = self.resolve_module(parent, depth + 1)
        if r is None:
            return None
        b = self.lookup(r[0], child, depth + 1)
        if b is not None and b.kind == "module":
            return b.module, b.path
        return None

    def lookup(self, modname, name, depth=0):
        """Binding of ``name`` in the namespace of real module ``modname``."""
        key = (modname, name)
        if key in self._lookups:
            return self._lookups[key]
        self._lookups[key] = None  # cycle guard
        result = self._lookup(modname, name, depth)
        self._lookups[key] = result
        return result

    def _lookup(self, modname, name, depth):
        if depth > _MAX_DEPTH:
            return None
        path = self.module_file(modname)
        if path is None:
            r = self.resolve_module(modname, depth + 1)
            if r is None:
                return None
            modname, path = r
        tree = self.parse(path) if path.endswith(".py") else None
        sub = modname + "." + name
        if path.endswith(".pyx"):
            cls = self.pyx_classes(path).get(name)
            if cls is not None:
                return Binding("object", modname, name, cls, path)
            imp = self.pyx_imports(path).get(name)
            if imp is not None:
                written, attr = imp
                level = len(written) - len(written.lstrip("."))
                node = ast.ImportFrom(module=written.lstrip(".") or None, names=[], level=level)
                absmod = self._absolute(modname, path, node)
                if absmod and absmod != modname:
                    return self.lookup(absmod, attr, depth + 1)
        if tree is not None:
            found = None
            stars = []
            for s in _walk_body(tree.body):
                if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name:
                    found = ("node", s)
                elif isinstance(s, (ast.Assign, ast.AnnAssign)):
                    targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                    if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                        d = dotted_name(s.value) if s.value is not None else None
                        found = ("alias", d) if d and d != name else ("node", s)
                elif isinstance(s, ast.Import):
                    for a in s.names:
                        if a.asname == name:
                            found = ("module", a.name)
                        elif a.asname is None and a.name.split(".")[0] == name:
                            found = ("module", name)
                elif isinstance(s, ast.ImportFrom):
                    absmod = self._absolute(modname, path, s)
                    for a in s.names:
                        if a.name == "*":
                            if absmod:
                                stars.append(absmod)
                        elif (a.asname or a.name) == name and absmod:
                            found = ("from", absmod, a.name)
            if found is not None:
                kind = found[0]
                if kind == "node":
                    return Binding("object", modname, name, found[1], path)
                if kind == "module":
                    r = self.resolve_module(found[1], depth + 1)
                    return Binding("module", r[0], path=r[1]) if r else None
                if kind == "from":
                    absmod, attr = found[1], found[2]
                    if absmod == modname and attr == name:
                        b = None  # ``from . import x`` in package x's parent: the submodule
                    else:
                        b = self.lookup(absmod, attr, depth + 1)
                    if b is None:
                        r = self.resolve_module(absmod + "." + attr, depth + 1)
                        if r:
                            return Binding("module", r[0], path=r[1])
                    return b
                if kind == "alias":
                    return self.resolve_in(modname, found[1], depth + 1)
            for star in stars:
                if star == modname or not self._star_exports(star, name):
                    continue
                b = self.lookup(star, name, depth + 1)
                if b is not None:
                    return b
        r = self.module_file(sub)
        if r:
            return Binding("module", sub, path=r)
        return None

    def literal_all(self, real, path):
        """``__all__`` of a module when its value is literal (lists, ``+``, ``+=``); else None."""
        key = ("__all__", path)
        if key not in self._lookups:
            self._lookups[key] = self._literal_all(path)
        return self._lookups[key]

    def _literal_all(self, path):
        tree = self.parse(path) if path.endswith(".py") else None
        if tree is None:
            return None
        names = None
        for s in _walk_body(tree.body):
            if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets):
                names = _str_list(s.value)
                if names is None:
                    return None
            elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id == "__all__":
                extra = _str_list(s.value)
                if names is None or extra is None:
                    return None
                names = names + extra
            elif (
                isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
                and dotted_name(s.value.func) in ("__all__.extend", "__all__.append")
            ):
                return None  # computed: treat as unknown
        return names

    def _star_exports(self, absmod, name):
        """Whether ``from absmod import *`` can bind ``name``: in its literal ``__all__``, or public without one."""
        if name.startswith("_"):
            return False
        r = self.resolve_module(absmod)
        if r is None:
            return True
        names = self.literal_all(*r)
        return names is None or name in names

    def bound_names(self, modname, depth=0):
        """Names a module's top level binds (definitions, assignments, imports; ``from X import *`` adds what X
        binds), statically; for the root package's module aliases."""
        key = ("bound", modname)
        if key not in self._lookups:
            self._lookups[key] = set()  # cycle guard
            self._lookups[key] = self._bound_names(modname, depth)
        return self._lookups[key]

    def _bound_names(self, modname, depth):
        r = self.resolve_module(modname)
        if r is None or depth > 4:
            return set()
        real, path = r
        tree = self.parse(path) if path.endswith(".py") else None
        out = set()
        if tree is None:
            return out
        for s in _walk_body(tree.body):
            if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                out.add(s.name)
            elif isinstance(s, ast.Assign):
                out.update(t.id for t in s.targets if isinstance(t, ast.Name))
            elif isinstance(s, ast.Import):
                out.update(a.asname or a.name.split(".")[0] for a in s.names)
            elif isinstance(s, ast.ImportFrom):
                for a in s.names:
                    if a.name == "*":
                        absmod = self._absolute(real, path, s)
                        if absmod and absmod != real:
                            out.update(n for n in self.bound_names(absmod, depth + 1) if self._star_exports(absmod, n))
                    else:
                        out.add(a.asname or a.name)
        return out

    def pyx_classes(self, path):
        """Classes of a .pyx file; ``readonly``/``public`` attributes declared in the .pxd beside it added."""
        if path not in self._pyx:
            src = self.text(path)
            classes = read_pyx_classes(src) if src is not None else {}
            pxd = path[:-4] + ".pxd"
            if classes and self.tree.exists(pxd):
                decl = self.text(pxd)
                for name, c in (read_pyx_classes(decl) if decl else {}).items():
                    if name in classes:
                        classes[name].attributes.extend(m for m in c.attributes if m not in classes[name].attributes)
            self._pyx[path] = classes
        return self._pyx[path]

    def pyx_imports(self, path):
        key = ("imports", path)
        if key not in self._pyx:
            src = self.text(path)
            self._pyx[key] = read_pyx_imports(src) if src is not None else {}
        return self._pyx[key]

    def resolve_in(self, modname, dotted, depth=0):
        """Resolve a dotted expression evaluated in the namespace of ``modname``."""
        parts = dotted.split(".")
        b = self.lookup(modname, parts[0], depth)
        for p in parts[1:]:
            if b is None:
                return None
            b = self.member(b, p, depth + 1)
        return b

    def member(self, b, attr, depth=0):
        if b.kind == "module":
            return self.lookup(b.module, attr, depth)
        if isinstance(b.node, ast.ClassDef):
            for s in b.node.body:
                if isinstance(s, ast.ClassDef) and s.name == attr:
                    return Binding("object", b.module, attr, s, b.path)
        return None

    def resolve(self, dotted):
        """Binding of a fully qualified public path (``numpy.random.Generator``), or None."""
        parts = dotted.split(".")
        # Longest prefix that is a module; then attributes.
        for i in range(len(parts), 0, -1):
            r = self.resolve_module(".".join(parts[:i]))
            if r is None:
                continue
            b = Binding("module", r[0], path=r[1])
            for p in parts[i:]:
                b = self.member(b, p)
                if b is None:
                    return None
            return b
        return None

    # --- docstrings --------------------------------------------------------------------------------------------
    def module_docstring(self, real, path, depth=0):
        """Cleaned docstring of the module in ``path`` (real name ``real``); follows ``from X import __doc__``."""
        if path.endswith(".pyx"):
            src = self.text(path)
            return clean_docstring(_pyx_docstring(src)) if src is not None else None
        tree = self.parse(path, quiet=True)
        if tree is None:
            # Syntax newer than this Python: the docstring is the first token all the same.
            src = self.text(path)
            doc = _pyx_docstring(src) if src is not None else None
            if doc is None and src is not None:
                self.parse(path)  # record why
            return clean_docstring(doc)
        doc = ast.get_docstring(tree, clean=True)
        if doc is None and depth < 4:
            for s in _walk_body(tree.body):
                if isinstance(s, ast.ImportFrom) and any(a.name == "__doc__" for a in s.names):
                    absmod = self._absolute(real, path, s)
                    r = self.resolve_module(absmod) if absmod else None
                    if r:
                        return self.module_docstring(r[0], r[1], depth + 1)
        if doc and _PLACEHOLDER.search(doc):
            doc = self._fill_newdoc_placeholders(tree, doc)
        return doc

    @staticmethod
    def _fill_newdoc_placeholders(tree, doc):
        """Docstrings assembled at import time from ``add_newdoc(module, name, doc)`` calls (numpy.doc.constants
        before 1.20): each call becomes a ``.. data:: module.name`` entry in place of the placeholder."""
        entries = []
        for s in tree.body:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
                c = s.value
                if dotted_name(c.func) in ("add_newdoc",) and len(c.args) >= 2:
                    a, b = c.args[0], c.args[1]
                    if isinstance(a, ast.Constant) and isinstance(b, ast.Constant) and isinstance(a.value, str) and isinstance(b.value, str):
                        entries.append(".. data:: %s.%s" % (a.value, b.value))
        if not entries:
            return doc
        block = "\n\n".join(entries)
        return _PLACEHOLDER.sub(lambda m: block, doc)

    # --- members (autodoc :members:) ---------------------------------------------------------------------------
    def module_members(self, real, path, undoc):
        """Public names autodoc's ``:members:`` documents for a module: ``__all__`` when it is a literal list,
        else the public classes and functions defined in the module (with a docstring unless ``undoc``)."""
        tree = self.parse(path) if path.endswith(".py") else None
        if tree is None:
            return []
        all_names = None
        for s in _walk_body(tree.body):
            if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in s.targets):
                all_names = _str_list(s.value)
            elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id == "__all__":
                extra = _str_list(s.value)
                if all_names is not None and extra is not None:
                    all_names = all_names + extra
        if all_names is not None:
            return [n for n in all_names if not n.startswith("_")]
        out = []
        for s in tree.body:
            if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and not s.name.startswith("_"):
                if undoc or ast.get_docstring(s):
                    out.append(s.name)
        return out

    @staticmethod
    def class_members(node, undoc):
        """Public members defined in a class body that autodoc's ``:members:`` documents: methods and properties
        with a docstring (any, with ``undoc``), attributes followed by a docstring (any, with ``undoc``), nested
        classes."""
        out = []
        body = node.body
        # a TypedDict's annotated names are its keys, not attributes of the class (pydantic's ConfigDict)
        typed_dict = any((b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", None)) == "TypedDict"
                         for b in getattr(node, "bases", []))
        for i, s in enumerate(body):
            if typed_dict and isinstance(s, ast.AnnAssign) and s.value is None:
                continue
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if not s.name.startswith("_") and (undoc or ast.get_docstring(s)):
                    out.append(s.name)
            elif isinstance(s, (ast.Assign, ast.AnnAssign)):
                targets = s.targets if isinstance(s, ast.Assign) else [s.target]
                names = [t.id for t in targets if isinstance(t, ast.Name) and not t.id.startswith("_")]
                if not names:
                    continue
                nxt = body[i + 1] if i + 1 < len(body) else None
                documented = (
                    isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str)
                )
                if undoc or documented:
                    out.extend(names)
        seen = set()
        return [n for n in out if not (n in seen or seen.add(n))]


def is_class(node):
    return isinstance(node, (ast.ClassDef, PyxClass))


_PROPERTY_DECORATORS = ("property", "cached_property", "abstractproperty", "classproperty", "lazy_property")


def _is_property(fn):
    for d in fn.decorator_list:
        name = dotted_name(d.func if isinstance(d, ast.Call) else d) or ""
        last = name.rpartition(".")[2]
        if last in _PROPERTY_DECORATORS or last in ("setter", "getter", "deleter"):
            return True
    return False


def class_shape(node):
    """(base expressions, public methods, public attributes, docstring) of an ast ClassDef or PyxClass, as the
    body shows them. Attributes: properties and class attributes (also annotated ones and ``__slots__``);
    nested classes are neither (autosummary lists them under neither heading)."""
    if isinstance(node, PyxClass):
        methods, attributes = node.methods, node.attributes
        bases, doc = list(node.bases), node.doc
    else:
        bases = [d for d in (dotted_name(b) for b in node.bases) if d]
        methods, attributes = [], []
        for st in node.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                (attributes if _is_property(st) else methods).append(st.name)
            elif isinstance(st, (ast.Assign, ast.AnnAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        if t.id == "__slots__" and st.value is not None:
                            attributes.extend(_str_list(st.value) or [])
                        else:
                            attributes.append(t.id)
        doc = ast.get_docstring(node, clean=True)

    def public(names, exclude=()):
        seen = set(exclude)
        return [m for m in names if not m.startswith("_") and not (m in seen or seen.add(m))]

    attributes = public(attributes)
    methods = public(methods, attributes)
    return bases, methods, attributes, doc
