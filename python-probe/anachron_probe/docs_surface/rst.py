"""A reStructuredText reader for the Sphinx directives that document Python objects. It does not render
anything: it walks directive blocks and collects the fully qualified names the documentation lists, keeping the
Python domain's context (``currentmodule``/``module``, the enclosing class) the way Sphinx resolves names.

Followed: ``autosummary`` entries; ``auto{module,class,exception,function,method,attribute,property,data,
decorator}``; the Python domain (``function``, ``class``, ``method``, ``attribute``, ``data``, ... with or without
``py:``); ``automodule`` recurses into the module's docstring (read statically) and ``autoclass`` into the class
docstring; ``:members:`` lists what the source shows; ``include`` inlines the included file. Skipped: comments,
literal blocks (``::``) and directives whose content is code or math."""
import keyword
import posixpath
import re

from ..text import indent_width

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([A-Za-z][\w:+.-]*)::(?:\s+(.*?))?\s*$")
_COMMENT = re.compile(r"^(\s*)\.\.(?:\s|$)")
_OPTION = re.compile(r"^\s*:([\w-]+):(?:\s+(.*?))?\s*$")
_IDENT_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")

# Content is code, math, output or markup that documents no Python object.
LITERAL_DIRECTIVES = {
    "code-block", "code", "sourcecode", "literalinclude", "math", "plot", "ipython", "doctest", "testcode",
    "testoutput", "testsetup", "testcleanup", "parsed-literal", "raw", "highlight", "graphviz", "jupyter-execute",
    "csv-table", "literal", "mermaid", "image", "figure", "toctree", "index", "tab-set-code",
}
CLASS_DIRECTIVES = {"class", "exception", "autoclass", "autoexception"}
MEMBER_DIRECTIVES = {
    "method", "classmethod", "staticmethod", "attribute", "property", "decoratormethod",
    "automethod", "autoattribute", "autoproperty",
}
OBJECT_DIRECTIVES = CLASS_DIRECTIVES | MEMBER_DIRECTIVES | {
    "function", "data", "decorator", "autofunction", "autodata", "autodecorator",
}


def strip_name(raw):
    """``~numpy.foo``, ``!bar``, ``foo(a, b)``, ``foo -- description`` -> the bare dotted name (or None)."""
    if not raw:
        return None
    s = raw.strip()
    if not s:
        return None
    s = s.lstrip("~!")
    s = s.split()[0] if s.split() else ""
    for stop in ("(", "[", ",", ":"):
        k = s.find(stop)
        if k >= 0:
            s = s[:k]
    s = s.strip().strip("`").rstrip(".")
    s = s.lstrip(".")
    return s or None


def valid_path(path):
    if not _IDENT_PATH.match(path):
        return False
    return not any(keyword.iskeyword(p) for p in path.split("."))


class DocState:
    """Per-document Python-domain context (Sphinx's ref_context): current module; the doc's own path."""

    def __init__(self, doc_path):
        self.module = None
        self.doc_path = doc_path


class Scanner:
    """Walks rst text and reports names to ``collector`` (see ``extract.Collector``)."""

    def __init__(self, collector):
        self.c = collector

    def scan_text(self, text, state, klass=None, origin=None):
        self.scan_lines(text.splitlines(), state, klass, origin or state.doc_path)

    def scan_lines(self, lines, state, klass, origin):
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            m = _DIRECTIVE.match(line)
            if m:
                ind = len(m.group(1))
                j = i + 1
                while j < n and (not lines[j].strip() or indent_width(lines[j]) > ind):
                    j += 1
                block = lines[i + 1 : j]
                more, options, content = self._split_options(block)
                self.directive(m.group(2), (m.group(3) or "").strip(), more, options, content, state, klass, origin)
                i = j
                continue
            cm = _COMMENT.match(line)
            if cm:
                ind = len(cm.group(1))
                rest = line.strip()[2:].strip()
                j = i + 1
                if rest == "" and (j >= n or not lines[j].strip()):
                    i = j  # empty comment
                    continue
                while j < n and (not lines[j].strip() or indent_width(lines[j]) > ind):
                    j += 1
                i = j
                continue
            if line.rstrip().endswith("::"):
                # Literal block: the following more-indented lines.
                ind = indent_width(line)
                j = i + 1
                while j < n and not lines[j].strip():
                    j += 1
                if j < n and indent_width(lines[j]) > ind:
                    while j < n and (not lines[j].strip() or indent_width(lines[j]) > ind):
                        j += 1
                    i = j
                    continue
            i += 1

    @staticmethod
    def _split_options(block):
        """(argument continuation lines, options, content) of a directive block: lines before the first blank
        line that are not ``:option:`` lines continue the argument (one more signature for object directives,
        or the first content lines for directives without arguments), then the options, then the content."""
        more, options = [], {}
        k = 0
        while k < len(block) and block[k].strip() and not _OPTION.match(block[k]):
            more.append(block[k])
            k += 1
        while k < len(block) and block[k].strip():
            om = _OPTION.match(block[k])
            if not om:
                break
            options[om.group(1)] = om.group(2) or ""
            k += 1
        return more, options, block[k:]

    # --- directives ----------------------------------------------------------------------------------------------
    def directive(self, name, arg, more, options, content, state, klass, origin):
        if ":" in name:
            domain, _, short = name.partition(":")
            if domain != "py":
                return  # C, C++, JavaScript, std and custom domains document no Python API
            name = short
        if name in LITERAL_DIRECTIVES:
            return
        c = self.c
        if name == "currentmodule":
            mod = strip_name(arg)
            state.module = None if mod in (None, "None") else mod
            return
        if name in ("module", "automodule"):
            # Both make the module current and document it; automodule also documents its members (and reads only
            # its content, not the argument's continuation lines).
            mod = strip_name(arg)
            if mod:
                state.module = mod
                c.add(mod, origin)
                if name == "automodule":
                    c.expand_module(self, mod, options, state, origin)
            self.scan_lines((more if name == "module" else []) + content, state, klass, origin)
            return
        if name == "autosummary":
            for raw in more + content:
                s = raw.strip()
                if not s or s.startswith(".."):
                    continue
                if _OPTION.match(raw):
                    continue
                entry = strip_name(s)
                if entry is None or entry.startswith("--"):
                    continue
                path = self.qualify(entry, state, klass, member=False, root=c.root)
                if path:
                    c.add(path, origin)
                    if "toctree" in options:
                        c.expand_template(path, options, origin)
            return
        if name == "include":
            c.include(self, arg, options, state, klass, origin)
            return
        if name in OBJECT_DIRECTIVES:
            st = state
            if options.get("module"):
                st = DocState(state.doc_path)
                st.module = options["module"].strip()
            first = None
            # Several signatures: one per argument line (``.. attribute:: int8`` / ``int16`` / ...).
            for sig in [arg] + [m.strip() for m in more]:
                entry = strip_name(sig)
                path = self.qualify(entry, st, klass, member=name in MEMBER_DIRECTIVES, root=c.root) if entry else None
                if path:
                    c.add(path, origin)
                    first = first or path
            if first and name in CLASS_DIRECTIVES:
                if name.startswith("auto"):
                    c.expand_class(self, first, options, state, origin)
                self.scan_lines(content, state, first, origin)
            return
        # Containers (note, admonition, only, rubric, tab, grid, ...) and unknown directives: look inside.
        self.scan_lines(more + content, state, klass, origin)

    @staticmethod
    def qualify(entry, state, klass, member, root):
        """Sphinx's resolution of a name written in the docs to a fully qualified path (None when it is not a
        dotted identifier)."""
        name = entry
        if not _IDENT_PATH.match(name):
            return None
        first = name.split(".", 1)[0]
        if first == root:
            return name
        if klass and member:
            cls_short = klass.rpartition(".")[2]
            if name.startswith(cls_short + ".") and klass.rpartition(".")[0]:
                return klass.rpartition(".")[0] + "." + name
            return klass + "." + name
        if state.module:
            if name == state.module or name.startswith(state.module + "."):
                return name
            return state.module + "." + name
        return name
