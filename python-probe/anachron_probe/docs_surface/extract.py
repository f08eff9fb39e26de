"""The documented surface of one library at one tag: which documentation files are read, and the collector the
rst scanner reports to (static expansion of ``automodule``/``autoclass``, includes, the set of names)."""
import ast
import posixpath
import re

from .pysource import PySource, class_shape, is_class
from .rst import DocState, Scanner, valid_path
from ..libraries import LibraryFileError, load, tag_of


def glob_regex(pattern):
    """A path glob as a regular expression: ``**/`` any folders (none too), ``*`` any characters but ``/``."""
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


def glob_paths(tree, patterns):
    """Files of ``tree`` matching any of the globs, sorted."""
    regexes = [glob_regex(p) for p in patterns]
    return sorted(p for p in tree.paths() if any(r.match(p) for r in regexes))


class Library:
    """What the docs reader needs of a library file (``libraries/NAME.toml``, its ``[docs]`` section)."""

    def __init__(self, definition):
        docs = definition.get("docs")
        if not docs:
            raise LibraryFileError("libraries/%s.toml has no [docs] section" % definition["name"])
        self.name = definition["name"]
        self.root = definition["name"]
        self.definition = definition
        st = definition.get("static") or {}
        self.source = docs["from"]
        self.repository = docs.get("repository") or st.get("repository")
        self.tag_pattern = docs.get("tag") or st.get("tag") or "v{version}"
        self.release_commit = docs.get("releaseCommit")
        self.doc_root = docs["root"]
        self.page_groups = docs["pages"]
        self.module_docstrings = docs["moduleDocstrings"]
        self.package_dir = st.get("packageDir")
        self.reference_dicts = docs.get("referenceDicts", [])
        self.versions = ((definition.get("releases") or {}).get("tagVersions")) or {}

    def docs(self, tree):
        """The reference pages: the first group of globs that matches a file."""
        for group in self.page_groups:
            found = glob_paths(tree, group)
            if found:
                return found
        return []

    def has_pages(self, tree):
        return bool(self.docs(tree) or glob_paths(tree, self.reference_dicts))

    def extra_modules(self, tree):
        """Modules whose docstrings are reference pages (public packages only)."""
        out = []
        prefix = package_prefix(tree, self.root, self.package_dir)
        for p in glob_paths(tree, self.module_docstrings):
            p = p[len(prefix):] if p.startswith(prefix) else p
            parts = p[: -len("/__init__.py")].split("/") if p.endswith("/__init__.py") else []
            if parts and parts[0] == self.root and all(
                    not x.startswith("_") and x not in ("tests", "test") for x in parts[1:]):
                out.append(".".join(parts))
        return out

    def version_for_tag(self, tag):
        prefix, _, suffix = self.tag_pattern.partition("{version}")
        version = tag[len(prefix):len(tag) - len(suffix)] if tag.startswith(prefix) and tag.endswith(suffix) else tag
        return self.versions.get(version, version)

    def tag_for_version(self, version):
        return tag_of(self.definition, version, self.tag_pattern)


def package_prefix(tree, root, package_dir=None):
    """The folder the package sits in, with its slash: "" when ``ROOT/__init__.py`` is at the top, "lib/" for
    matplotlib's ``lib/matplotlib``, "src/" for src layouts; the library file's package-dir decides when given."""
    if package_dir:
        return package_dir[: -len(root)] if package_dir.endswith(root) else ""
    if tree.exists(root + "/__init__.py"):
        return ""
    found = sorted((p for p in tree.paths("", "/" + root + "/__init__.py")), key=lambda p: (p.count("/"), p))
    return found[0][: -len(root + "/__init__.py")] if found else ""


def _autosummary_entries(section):
    """The string entries of a section dict's ``autosummary`` list."""
    out = []
    if isinstance(section, ast.Dict):
        for k, v in zip(section.keys, section.values):
            if isinstance(k, ast.Constant) and k.value == "autosummary" and isinstance(v, ast.List):
                out += [e.value for e in v.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out


def _mkdocstrings_members(block):
    """The ``members:`` option of an mkdocstrings block's YAML: a list of names, False for ``false``/``[]``,
    None where the block does not say (the default: every documented public member)."""
    for j, line in enumerate(block):
        m = re.match(r"^(\s*)members:\s*(.*?)\s*(#.*)?$", line)
        if not m:
            continue
        value = m.group(2)
        if value in ("false", "False", "[]", "no"):
            return False
        if value.startswith("["):
            return [n.strip().strip("'\"") for n in value.strip("[]").split(",") if n.strip()]
        if value in ("true", "True", "yes"):
            return None
        names = []
        for item in block[j + 1:]:
            if not item.strip() or item.strip().startswith("#"):
                continue
            im = re.match(r"^(\s*)-\s*([A-Za-z_]\w*)\s*(#.*)?$", item)
            if not im or len(im.group(1)) <= len(m.group(1)):
                break
            names.append(im.group(2))
        return names or None
    return None


def library(name):
    """The docs reader's view of ``libraries/NAME.toml``."""
    return Library(load(name))


class Collector:
    def __init__(self, tree, library):
        self.tree = tree
        self.library = library
        self.root = library.root
        self.documented = {}
        self.outside = {}
        self.private = {}
        self.explicit_paths = set()
        self.template_paths = set()
        self.alias_paths = set()
        self.doc_texts = []
        self.errors = set()
        self.py = PySource(tree, self.error, package_prefix(tree, library.root, library.package_dir))
        self._expanding = []
        self.expanded_modules = set()
        self.scanner = Scanner(self)

    # --- reporting -----------------------------------------------------------------------------------------------
    def error(self, file, message):
        self.errors.add((file or "", message))

    def add(self, path, origin, via_template=False):
        if not (path == self.root or path.startswith(self.root + ".")):
            self.outside.setdefault(path, origin)
            return
        if not valid_path(path):
            self.error(origin, "not an importable path, not recorded: %s" % path)
            return
        if any(part.startswith("_") for part in path.split(".")):
            # Special and private members (ndarray.__add__, generic.__array_interface__): documented, but outside
            # the surface convention (public paths have no component starting with "_"); kept apart.
            self.private.setdefault(path, origin)
            return
        self.documented.setdefault(path, origin)
        (self.template_paths if via_template else self.explicit_paths).add(path)

    # --- documents -----------------------------------------------------------------------------------------------
    def scan_document(self, path):
        text = self.py.text(path)
        if text is None:
            return
        self.doc_texts.append(text)
        if path.endswith(".md"):
            text = self.mkdocstrings_as_autodoc(text)
        self.scanner.scan_text(text, DocState(path))

    def mkdocstrings_as_autodoc(self, text):
        """A Markdown page's mkdocstrings blocks (``::: pydantic.types``, its indented ``options:`` with a
        ``members:`` list, ``false`` or nothing) as the autodoc directives they stand for: a module or a class with
        the listed members, else the documented public ones (mkdocstrings' default, as autodoc's ``:members:``
        gives them); ``members: false`` the object alone; anything else ``autofunction``. The rest of the page
        (prose, fenced code) is not read."""
        out = []
        lines = text.splitlines()
        i = 0
        fence = None  # the marker of the fenced code block the line is in (``` or ~~~): examples, not read
        while i < len(lines):
            f = re.match(r"^\s*(`{3,}|~{3,})", lines[i])
            if f:
                if fence is None:
                    fence = f.group(1)
                elif f.group(1).startswith(fence):
                    fence = None
                i += 1
                continue
            m = None if fence is not None else re.match(r"^:::\s+([A-Za-z_][\w.]*)\s*$", lines[i])
            i += 1
            if not m:
                continue
            path = m.group(1)
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1] in (" ", "\t")):
                block.append(lines[i])
                i += 1
            members = _mkdocstrings_members(block)
            if not (path == self.root or path.startswith(self.root + ".")):
                self.outside.setdefault(path, "")  # another distribution's API (pydantic_core): not this surface
                continue
            if self.py.resolve_module(path) is not None:
                directive = "automodule"
            else:
                b = self.py.resolve(path)
                directive = "autoclass" if b is not None and is_class(b.node) else "autofunction"
            out += ["", ".. %s:: %s" % (directive, path)]
            if directive != "autofunction" and members is not False:
                out.append("   :members: " + ", ".join(members or []))
            out.append("")
        return "\n".join(out) + "\n"

    def scan_reference_dict(self, path):
        """A Python file whose ``API_REFERENCE`` dict literal maps each module to sections with ``autosummary``
        lists (scikit-learn >= 1.6 generates its reference pages from one): each entry is read as the page
        template writes it, an ``autosummary`` with a toctree under the module."""
        tree = self.py.parse(path)
        if tree is None:
            return
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "API_REFERENCE"
                                                         for t in node.targets) and isinstance(node.value, ast.Dict)):
                continue
            for key, value in zip(node.value.keys, node.value.values):
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Dict)):
                    continue
                entries = []
                for k, v in zip(value.keys, value.values):
                    if isinstance(k, ast.Constant) and k.value == "sections" and isinstance(v, ast.List):
                        for section in v.elts:
                            entries.extend(_autosummary_entries(section))
                module = key.value
                lines = [".. automodule:: " + module, "", ".. currentmodule:: " + module, "",
                         ".. autosummary::", "   :toctree: generated/", "   :template: base.rst", ""]
                lines += ["   " + e for e in entries]
                self.scanner.scan_text("\n".join(lines) + "\n", DocState(path))

    def root_module_aliases(self):
        """{real module: [public alias]} for modules the root package exposes under another name that the
        reference pages themselves name (``numpy.emath`` for ``numpy.lib.scimath``, ``numpy.rec`` for
        ``numpy.core.records`` in 1.x: ":mod:`numpy.emath` is a preferred alias for numpy.lib.scimath")."""
        out = {}
        r = self.py.resolve_module(self.root)
        if r is None:
            return out
        named = set()
        for text in self.doc_texts:
            named.update(re.findall(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*", text))
        for name in sorted(self.py.bound_names(self.root)):
            if name.startswith("_"):
                continue
            alias = self.root + "." + name
            if alias not in named:
                continue
            b = self.py.lookup(r[0], name)
            if b is not None and b.kind == "module" and b.module != alias and b.module.startswith(self.root + "."):
                out.setdefault(b.module, []).append(alias)
        return out

    def run(self):
        for doc in self.library.docs(self.tree):
            self.scan_document(doc)
        for path in glob_paths(self.tree, self.library.reference_dicts):
            self.scan_reference_dict(path)
        # The docs of some versions name a module by its defining path (numpy 1.16: numpy.lib.scimath); the
        # root's alias for it is the public path users write (numpy.emath), as the runtime surfaces record it.
        for real, aliases in self.root_module_aliases().items():
            for path in sorted(self.documented):
                if path == real or path.startswith(real + "."):
                    for alias in aliases:
                        apath = alias + path[len(real):]
                        if apath not in self.documented:
                            self.add(apath, self.documented[path], via_template=path in self.template_paths)
                            self.alias_paths.add(apath)
        if self.library.extra_modules:
            for mod in self.library.extra_modules(self.tree):
                if mod not in self.expanded_modules:
                    origin = self.py.module_file(mod)
                    state = DocState(origin)
                    state.module = mod
                    self.add(mod, origin)
                    self.expand_module(self.scanner, mod, {}, state, origin)

    # --- expansions the scanner asks for -------------------------------------------------------------------------
    @staticmethod
    def _names(option):
        return [n.strip() for n in (option or "").replace("\n", ",").split(",") if n.strip()]

    def expand_module(self, scanner, mod, options, state, origin):
        """``automodule``: the module docstring is part of the page; ``:members:`` adds what the source shows."""
        self.expanded_modules.add(mod)
        key = "module:" + mod
        if key in self._expanding:
            return
        r = self.py.resolve_module(mod)
        if r is None:
            self.error(origin, "automodule %s: no source file for the module at this tag (generated at build time?)" % mod)
            return
        real, path = r
        self._expanding.append(key)
        try:
            doc = self.py.module_docstring(real, path)
            if doc:
                scanner.scan_text(doc, state, None, origin=path)
            if "members" in options:
                names = self._names(options.get("members")) or self.py.module_members(
                    real, path, "undoc-members" in options
                )
                excluded = set(self._names(options.get("exclude-members")))
                for n in names:
                    if n in excluded:
                        continue
                    self.add(mod + "." + n, path)
                    b = self.py.lookup(real, n)
                    if b is not None and isinstance(b.node, ast.ClassDef):
                        for m in self.py.class_members(b.node, "undoc-members" in options):
                            if m not in excluded:
                                self.add(mod + "." + n + "." + m, b.path)
        finally:
            self._expanding.pop()

    def expand_class(self, scanner, path, options, state, origin):
        """``autoclass``: the class docstring is part of the page (its directives are read in the class's
        scope); ``:members:`` adds the listed names, or the members the class body shows."""
        key = "class:" + path
        if key in self._expanding:
            return
        explicit = self._names(options.get("members")) if "members" in options else []
        excluded = set(self._names(options.get("exclude-members")))
        b = self.py.resolve(path)
        node = b.node if b is not None and is_class(b.node) else None
        self._expanding.append(key)
        try:
            if node is not None:
                doc = class_shape(node)[3]
                if doc:
                    scanner.scan_text(doc, state, klass=path, origin=b.path)
            if "members" in options:
                names = explicit
                if not names and isinstance(node, ast.ClassDef):
                    names = self.py.class_members(node, "undoc-members" in options)
                elif not names and node is not None:
                    shape = class_shape(node)
                    names = shape[1] + shape[2]
                for n in names:
                    if n not in excluded and (not n.startswith("_") or n in ("__call__",)):
                        self.add(path + "." + n, b.path if b is not None else origin)
        finally:
            self._expanding.pop()

    _EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt")

    def expand_template(self, path, options, origin):
        """An ``autosummary`` entry with ``:toctree:`` gets a page from the class template, which lists the
        class's public methods and attributes, inherited ones included (numpy's, SciPy's and Qiskit's
        ``class.rst``); Qiskit's ``class_no_inherited_members`` template drops inherited methods (it keeps every
        attribute). Exceptions get no member listing. Read from the source: what the class bodies show, bases
        followed inside the library."""
        b = self.py.resolve(path)
        if b is None or not is_class(b.node):
            return
        if self._exception_like(b, 0):
            return
        inherited_methods = "no_inherited" not in (options.get("template") or "")
        methods, attributes = [], []
        self._template_members(b, inherited_methods, methods, attributes, set(), 0)
        for n in methods + attributes:
            self.add(path + "." + n, b.path or origin, via_template=True)

    def _bases(self, b):
        out = []
        for d in class_shape(b.node)[0]:
            bb = self.py.resolve_in(b.module, d)
            out.append((d, bb if bb is not None and is_class(bb.node) else None))
        return out

    def _exception_like(self, b, depth):
        if b.node.name.endswith(self._EXCEPTION_SUFFIXES) or depth > 8:
            return b.node.name.endswith(self._EXCEPTION_SUFFIXES)
        for d, bb in self._bases(b):
            if d.rpartition(".")[2].endswith(self._EXCEPTION_SUFFIXES) or d.endswith("BaseException"):
                return True
            if bb is not None and self._exception_like(bb, depth + 1):
                return True
        return False

    def _template_members(self, b, inherited_methods, methods, attributes, seen, depth):
        key = (b.module, b.node.name)
        if key in seen or depth > 12:
            return
        seen.add(key)
        _, own_methods, own_attributes, _ = class_shape(b.node)
        if depth == 0 or inherited_methods:
            methods.extend(m for m in own_methods if m not in methods and m not in attributes)
        attributes.extend(a for a in own_attributes if a not in attributes and a not in methods)
        for _, bb in self._bases(b):
            if bb is not None:
                self._template_members(bb, inherited_methods, methods, attributes, seen, depth + 1)

    def include(self, scanner, arg, options, state, klass, origin):
        if "literal" in options or "code" in options or "parser" in options:
            return
        target = (arg or "").strip()
        if not target or target.startswith("<"):
            return
        base = state.doc_path or ""
        if target.startswith("/"):
            path = posixpath.normpath(self.library.doc_root + target)
        else:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(base), target))
        key = "include:" + path
        if key in self._expanding:
            return
        if not path.endswith((".rst", ".txt", ".inc", ".rst.inc")):
            return
        text = self.py.text(path) if self.tree.exists(path) else None
        if text is None:
            if not self.tree.exists(path):
                self.error(origin, "include %s: no such file at this tag" % target)
            return
        start, end = options.get("start-after"), options.get("end-before")
        if start and start in text:
            text = text.split(start, 1)[1]
        if end and end in text:
            text = text.split(end, 1)[0]
        self._expanding.append(key)
        saved = state.doc_path
        state.doc_path = path
        try:
            scanner.scan_lines(text.splitlines(), state, klass, path)
        finally:
            state.doc_path = saved
            self._expanding.pop()


def extract(tree, library):
    """The Collector after reading ``library``'s documentation at ``tree``."""
    c = Collector(tree, library)
    c.run()
    return c
