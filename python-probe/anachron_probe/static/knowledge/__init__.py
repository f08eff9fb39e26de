"""What reading the Python source alone cannot tell, per library: names and signatures of compiled modules
recorded elsewhere in the source (docstrings added from Python, generator tables, Cython, stubs), files generated
at build time, and names made by code the reader does not execute. The base class knows nothing special."""
import ast

from ...ast_names import template_text
from ..values import CompiledValue


class Knowledge(object):
    def __init__(self, extractor):
        self.x = extractor
        self._compiled = {}

    # hooks called by the interpreter -----------------------------------------------------------------------

    def generated_module(self, name):
        """(kind, text) for a module made at build time that is not in the tree, or None."""
        if name == self.x.library + ".version":
            text = self._version_template()
            if text is not None:
                self.x.note(name, "generated at build time: read from the template in the build scripts")
                return ("generated", text)
        return _template_module(self.x, name)

    def extra_modules(self):
        """Public modules that exist at runtime without a file in the tree."""
        lib = self.x.library
        if self.x.package_dir + "/version.py" not in _file_set(self.x) and self._version_template() is not None:
            return [lib + ".version"]
        return []

    _VERSION_GENERATORS = ("setup.py", "tools/version_utils.py", "{pkg}/_build_utils/gitversion.py",
                           "_build_utils/gitversion.py", "tools/gitversion.py")

    def _version_template(self):
        """``LIB/version.py`` as the build writes it: the template string in the build scripts, placeholders
        filled with neutral values."""
        if hasattr(self, "_version_text"):
            return self._version_text
        self._version_text = None
        x = self.x
        files = _file_set(x)
        for pattern in self._VERSION_GENERATORS:
            path = pattern.format(pkg=x.package_dir)
            if path not in files:
                continue
            text = x.read_text(path)
            if not text:
                continue
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if not isinstance(node, (ast.Constant, ast.JoinedStr)):
                    continue
                t = template_text(node, "0")  # replacement fields as 0-like placeholders
                if not t or "version" not in t or "=" not in t:
                    continue
                if "git_revision" not in t and "full_version" not in t:
                    continue
                import re
                import textwrap

                t = re.sub(r"%\((\w+)\)s", "0", t)
                t = re.sub(r"\{(\w+)\}", "0", t)
                t = textwrap.dedent(t).strip("\n") + "\n"
                try:
                    ast.parse(t)
                except SyntaxError:
                    continue
                self._version_text = t
                return t
        return None

    def module_loaded(self, state):
        pass

    def call_statement(self, interp, func, call, scope):
        """A call used as a statement (``add_newdoc(...)``); True when handled."""
        return False

    def call_value(self, interp, func, node, scope):
        return None

    def function_decorator(self, interp, value, decv, dec, scope):
        return None

    def class_decorator(self, interp, cv, decv, dec, scope):
        pass

    # compiled modules --------------------------------------------------------------------------------------

    def compiled_value(self, module, name, create=False, described_only=False):
        key = (module, name)
        v = self._compiled.get(key)
        if v is None and (create or described_only):
            v = self.describe_compiled(module, name)
            if v is None:
                if described_only:
                    return None
                v = CompiledValue(module, name)
            self._compiled[key] = v
        return v

    def describe_compiled(self, module, name):
        routines = self.pyf_names(module)
        if routines and name in routines:
            # an f2py ``fortran`` object: callable, no __module__
            v = CompiledValue(module, name, "function")
            v.no_module = True
            return v
        names = self.c_names(module)
        if names and name in names:
            kind, doc = names[name]
            from ...signatures import docstring_signature

            sig = docstring_signature(doc) if (doc and kind == "function") else None
            return CompiledValue(module, name, kind, sig, doc)
        return None

    def compiled_names(self, module):
        return sorted(set(self.c_names(module) or {}) | set(self.pyf_names(module) or []))

    def registered_names(self, module):
        """{name: value} a Python module that fills itself at import is given by compiled code calling into it
        (numpy 2.0's C init hands StringDType to numpy.dtypes), where neither its source nor its stub names them."""
        return {}

    def pyf_names(self, module):
        cache = self.__dict__.setdefault("_pyf_names", {})
        if module not in cache:
            from ..pyf import pyf_routines

            st = self.x.modules.get(module)
            found = None
            if st is not None and st.kind in ("compiled", "stub") and "." in module:
                pkg, short = module.rsplit(".", 1)
                folder = "/".join([self.x.package_dir] + pkg.split(".")[1:])
                found = pyf_routines(self.x, short, folder)
            cache[module] = found
        return cache[module]

    def c_names(self, module):
        cache = getattr(self, "_c_names", None)
        if cache is None:
            cache = self._c_names = {}
        if module not in cache:
            from ..cmodules import c_module_names

            st = self.x.modules.get(module)
            cache[module] = c_module_names(self.x, module) if (st is not None and st.kind in ("compiled", "stub")) else None
        return cache[module]

    def finalize(self):
        pass


def knowledge_for(library):
    """The Knowledge class of ``library``: its library file's ``knowledge`` module (the one ``Knowledge``
    subclass defined there), else the base class."""
    from ...libraries import find

    definition = find(library)
    name = definition.get("knowledge") if definition else None
    if not name:
        return Knowledge
    import importlib

    module = importlib.import_module("." + name, __name__)
    found = [v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, Knowledge) and v is not Knowledge and v.__module__ == module.__name__]
    if len(found) != 1:
        raise ImportError("knowledge module %s must define one Knowledge subclass (found %d)" % (name, len(found)))
    return found[0]


def _template_module(x, name):
    """``mod.py.in`` next to where ``mod.py`` would be: a file configured at build time; placeholders
    (``@NAME@``) become ``0``."""
    rel = name.split(".")
    if rel[0] != x.library:
        return None
    path = "/".join([x.package_dir] + rel[1:]) + ".py.in"
    text = x.read_text(path) if path in _file_set(x) else None
    if text is None:
        return None
    import re

    # a placeholder stands for a value (``version = @VCS_TAG@``) or the text of one (``"@VERSION@"``): 0 reads as both
    text = re.sub(r"@[A-Za-z0-9_]+@", "0", text)
    x.note(name, "generated at build time from %s (placeholders as 0)" % path)
    return ("generated", text)


def _file_set(x):
    fs = getattr(x, "_file_set", None)
    if fs is None:
        fs = x._file_set = frozenset(x.files)
    return fs
