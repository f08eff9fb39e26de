"""Stable text for runtime values: reprs without memory addresses, bounded lengths, doc summaries."""
import inspect
import re

ELLIPSIS = "\u2026"
MAX_DEFAULT = 80
MAX_DOC = 300
MAX_ERROR = 500

_AT_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_LONG_HEX = re.compile(r"0x[0-9a-fA-F]{6,}")
_SPACES = re.compile(r"\s+")
_UNDERLINE = re.compile(r"^([=\-~^*#+`])\1{2,}$")


def collapse(text):
    return _SPACES.sub(" ", text).strip()


def truncate(text, limit):
    """Cut ``text`` to at most ``limit`` characters, the last one being an ellipsis."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def strip_addresses(text):
    text = _AT_ADDRESS.sub("", text)
    text = _LONG_HEX.sub("0x" + ELLIPSIS, text)
    return text


def _type_name(value):
    try:
        cls = type(value)
        module = getattr(cls, "__module__", None)
        name = getattr(cls, "__qualname__", None) or cls.__name__
        if isinstance(module, str) and module != "builtins":
            return module + "." + name
        return str(name)
    except Exception:
        return "object"


def raw_repr(value, depth=0):
    """repr() that never raises and orders sets deterministically."""
    try:
        if isinstance(value, (set, frozenset)) and depth < 3:
            items = sorted(raw_repr(v, depth + 1) for v in value)
            if type(value) is set and items:
                return "{" + ", ".join(items) + "}"
            inner = ("{" + ", ".join(items) + "}") if items else ""
            return type(value).__name__ + "(" + inner + ")"
        text = repr(value)
        if not isinstance(text, str):
            raise TypeError("repr returned a non-string")
        return text
    except Exception:
        return "<unrepresentable " + _type_name(value) + ">"


_PROC_PID = re.compile(r"/proc/\d+(?=/|\b)")


def normalize_repr(text):
    """Address-free, single-line, bounded text of a repr."""
    text = strip_addresses(collapse(text))
    text = _PROC_PID.sub("/proc/<pid>", text)
    if text == "<object object>":
        text = "<object>"
    text = text.replace("<object object>", "<object>")
    return truncate(text, MAX_DEFAULT)


def default_text(value):
    return normalize_repr(raw_repr(value))


def error_text(exc):
    name = type(exc).__name__
    try:
        msg = str(exc)
    except Exception:
        msg = ""
    msg = strip_addresses(collapse(msg)) if msg else ""
    return truncate(name + (": " + msg if msg else ""), MAX_ERROR)


def doc_lines(doc):
    """The lines of a docstring as ``inspect.getdoc`` shows them, leading blank lines dropped; None for what is not
    a string (or a string cleandoc cannot read)."""
    if not isinstance(doc, str):
        return None
    try:
        lines = inspect.cleandoc(doc).splitlines()
    except Exception:
        return None
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    return lines[i:]


def doc_summary(doc, skip_signature=None):
    """First paragraph of a docstring, after a leading signature line, collapsed and bounded."""
    lines = doc_lines(doc)
    if lines is None:
        return None
    i = 0
    # Leading signature lines (numpy: an Argument Clinic signature, "--", then a human one) are skipped.
    for _ in range(3):
        if skip_signature is None or i >= len(lines):
            break
        consumed = skip_signature(lines[i:])
        if not consumed:
            break
        i += consumed
        while i < len(lines) and lines[i].strip() in ("", "--"):
            i += 1
    para = []
    for _ in range(3):
        para = []
        while i < len(lines) and lines[i].strip():
            para.append(lines[i].strip())
            i += 1
        # An reStructuredText title ("NumPy" over "=====") is not a summary: take the next paragraph.
        if len(para) == 2 and _UNDERLINE.match(para[1]):
            while i < len(lines) and not lines[i].strip():
                i += 1
            continue
        break
    text = collapse(" ".join(para))
    if not text:
        return None
    if len(text) > MAX_DOC:
        cut = text[: MAX_DOC - 1]
        space = cut.rfind(" ")
        if space > MAX_DOC // 2:
            cut = cut[:space]
        text = cut.rstrip() + ELLIPSIS
    return text


# Module-level dicts in which a library records, for each name it removed, what to use instead: numpy's
# __expired_attributes__ (2.0: "cast": "Use `np.asarray(arr, dtype=dtype)` instead."), __former_attrs__ (1.24: np.int
# and friends) and __expired_functions__ (1.17-1.25). Both probes copy them into the surface's "removal_notes".
REMOVAL_NOTE_TABLES = ("__expired_attributes__", "__former_attrs__", "__expired_functions__")


def outside_quotes(text, start=0, opening="([{", closing=")]}", quotes=True, escapes=False):
    """(index, character, bracket depth after it) of each character of ``text`` from ``start`` that stands outside
    quoted strings (with ``quotes``; a quote character itself is not given; with ``escapes`` a backslash inside a
    string escapes the next character). Brackets count in ``opening`` and ``closing`` order of precedence."""
    depth = 0
    quote = None
    i = start
    n = len(text)
    while i < n:
        c = text[i]
        if quote:
            if escapes and c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif quotes and c in "\"'":
            quote = c
        else:
            if c in opening:
                depth += 1
            elif c in closing:
                depth -= 1
            yield i, c, depth
        i += 1


def indent_width(line, blanks=None):
    """How many leading characters of ``line`` are ``blanks`` (white space, without them)."""
    return len(line) - len(line.lstrip(blanks))


def top_level_index(text, target, opening="([{", closing=")]}", quotes=False, accept=None):
    """Index of the first ``target`` character outside brackets (and, with ``quotes``, outside quoted strings) that
    ``accept(index)`` takes (any, without it); -1 when there is none."""
    for i, c, depth in outside_quotes(text, 0, opening, closing, quotes):
        if c == target and depth == 0 and c not in opening and c not in closing and (accept is None or accept(i)):
            return i
    return -1


def split_top_level(text, separator=","):
    """``text`` cut at each ``separator`` outside brackets and quoted strings; an empty (blank) last part is dropped."""
    cuts = [i for i, c, depth in outside_quotes(text) if c == separator and depth == 0]
    parts = [text[a + 1:b] for a, b in zip([-1] + cuts, cuts + [len(text)])]
    return parts if parts[-1].strip() else parts[:-1]
