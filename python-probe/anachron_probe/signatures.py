"""Structured signatures from inspect, from a docstring's first line, and helpers shared with the stub reader."""
import ast
import inspect
import keyword
import re

from .text import collapse, default_text, normalize_repr, raw_repr, strip_addresses, truncate

POSITIONAL_ONLY = "positional_only"
POSITIONAL_OR_KEYWORD = "positional_or_keyword"
VAR_POSITIONAL = "var_positional"
KEYWORD_ONLY = "keyword_only"
VAR_KEYWORD = "var_keyword"
KIND_ORDER = {POSITIONAL_ONLY: 0, POSITIONAL_OR_KEYWORD: 1, VAR_POSITIONAL: 2, KEYWORD_ONLY: 3, VAR_KEYWORD: 4}
UNKNOWN_DEFAULT = "..."
MAX_RETURNS = 200

_INSPECT_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: POSITIONAL_OR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL: VAR_POSITIONAL,
    inspect.Parameter.KEYWORD_ONLY: KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD: VAR_KEYWORD,
}


def make_param(name, kind, default=None):
    return {"name": name, "kind": kind, "default": default}


def make_signature(params, returns, source):
    return {"parameters": params, "returns": returns, "source": source}


def is_meaningless(params):
    """``(*args, **kwargs)`` says nothing about a callable."""
    return [p["kind"] for p in params] == [VAR_POSITIONAL, VAR_KEYWORD]


def drop_first(params, names=None):
    """Drop a leading self/cls parameter (only a positional one; ``*args`` stays)."""
    if params and params[0]["kind"] in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
        if names is None or params[0]["name"] in names:
            return params[1:]
    return params


def returns_text(text):
    if text is None:
        return None
    text = collapse(text)
    return truncate(text, MAX_RETURNS) if text else None


# ---------------------------------------------------------------------------------------------------------------
# inspect


def _annotation_text(annotation):
    if annotation is inspect.Signature.empty:
        return None
    if isinstance(annotation, str):
        return returns_text(annotation)
    try:
        text = inspect.formatannotation(annotation)
    except Exception:
        text = raw_repr(annotation)
    return returns_text(strip_addresses(text))


def inspect_signature(obj):
    """inspect.signature(obj) or None; never raises an Exception."""
    try:
        return inspect.signature(obj)
    except (ValueError, TypeError):
        return None
    except Exception:
        pass
    # Python 3.14: annotations are evaluated lazily and may name undefined things.
    try:
        import annotationlib  # noqa: F401

        return inspect.signature(obj, annotation_format=annotationlib.Format.FORWARDREF)
    except Exception:
        return None


def from_inspect(sig, drop_self=False):
    params = []
    for p in sig.parameters.values():
        default = None if p.default is inspect.Parameter.empty else default_text(p.default)
        params.append(make_param(p.name, _INSPECT_KINDS[p.kind], default))
    if drop_self:
        params = drop_first(params)
    return make_signature(params, _annotation_text(sig.return_annotation), "inspect")


# ---------------------------------------------------------------------------------------------------------------
# docstring first line, e.g.  add(x1, x2, /, out=None, *, where=True[, signature, extobj])
#                             a.sum(axis=None, dtype=None, out=None, keepdims=False, initial=<no value>)

# An optional ``out1,out2 = `` prefix: f2py (``stp,f,g,task = dcsrch(stp,f,g,...)``) and older C docstrings
# (``out = cspline2d(input, lambda=0.0)``) name their results that way.
_SIG_HEAD = re.compile(
    r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*(?:\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*\s*=\s*)?"
    r"((?:[A-Za-z_][A-Za-z0-9_]*\.)*)([A-Za-z_][A-Za-z0-9_]*)\s*\("
)
_ANGLE = re.compile(r"<[^<>()\[\]{},=\"']*>")
_PLACEHOLDER = "__anachron_angle_%d__"
_MAX_SIG_LINES = 12


def _close_paren(text, start):
    """Index of the parenthesis closing the one at ``start``, or -1; quotes respected."""
    depth = 0
    quote = None
    i = start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i if c == ")" else -1
        i += 1
    return -1


def split_doc_signature(lines):
    """Parse the head of a docstring (list of lines, first non-blank first).

    Returns (name, params_text, returns_text, lines_consumed) or None when the first line does not look like
    ``name(...)`` (optionally ``-> something``).
    """
    if not lines:
        return None
    m = _SIG_HEAD.match(lines[0])
    if not m:
        return None
    text = lines[0].strip()
    n = 1
    close = _close_paren(text, text.index("("))
    while close < 0 and n < len(lines) and n < _MAX_SIG_LINES:
        nxt = lines[n].strip()
        if not nxt:
            break
        text = text + " " + nxt
        n += 1
        close = _close_paren(text, text.index("("))
    if close < 0:
        return None
    rest = text[close + 1 :].strip()
    returns = None
    if rest.startswith("->"):
        returns = rest[2:].strip().rstrip(":").strip() or None
    elif rest not in ("", ":"):
        return None
    return m.group(2), text[text.index("(") + 1 : close], returns, n


def _split_segments(text):
    """Top-level comma separated segments of a parameter list; ``[...]`` optional groups are unwrapped and the
    segments inside them flagged optional. Returns a list of (segment_text, optional) or None if unbalanced."""
    segments = []
    cur = []
    nest = []
    optional_depth = 0
    seg_optional = False
    quote = None
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if quote:
            cur.append(c)
            if c == "\\" and i + 1 < n:
                cur.append(text[i + 1])
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if c in "\"'":
            quote = c
            cur.append(c)
        elif c == "[" and not nest:
            before = "".join(cur).strip()
            after = text[i + 1 :].lstrip()
            if not before or after.startswith(",") or before.endswith("*"):
                optional_depth += 1
            else:
                nest.append(c)
                cur.append(c)
        elif c == "]" and not nest:
            if optional_depth == 0:
                return None
            optional_depth -= 1
        elif c in "([{":
            nest.append(c)
            cur.append(c)
        elif c in ")]}":
            if not nest:
                return None
            nest.pop()
            cur.append(c)
        elif c == "," and not nest:
            segments.append(("".join(cur).strip(), seg_optional))
            cur = []
            seg_optional = False
        else:
            if not c.isspace() and optional_depth > 0 and not "".join(cur).strip():
                seg_optional = True
            cur.append(c)
        i += 1
    if quote or nest or optional_depth:
        return None
    segments.append(("".join(cur).strip(), seg_optional))
    return [(s, o) for s, o in segments if s]


class Source(object):
    """Source text with a fast ast.get_source_segment (that one splits the whole text on every call)."""

    def __init__(self, text):
        self.text = text
        self._lines = None

    def segment(self, node):
        try:
            lineno, end_lineno = node.lineno, node.end_lineno
            col, end_col = node.col_offset, node.end_col_offset
        except AttributeError:
            return None
        if end_lineno is None or end_col is None:
            return None
        if self._lines is None:
            self._lines = self.text.splitlines(True)
        lines = self._lines
        if not (1 <= lineno <= end_lineno <= len(lines)):
            return None
        if lineno == end_lineno:
            return lines[lineno - 1].encode("utf-8")[col:end_col].decode("utf-8", "replace")
        first = lines[lineno - 1].encode("utf-8")[col:].decode("utf-8", "replace")
        last = lines[end_lineno - 1].encode("utf-8")[:end_col].decode("utf-8", "replace")
        return first + "".join(lines[lineno:end_lineno - 1]) + last


def expr_default_text(node, source, placeholders=None):
    """Stable text of a default expression from a parsed signature (docstring or stub)."""
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return UNKNOWN_DEFAULT
    if placeholders and isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value in placeholders:
            return placeholders[node.value]
    try:
        value = ast.literal_eval(node)
    except Exception:
        value = None
        literal = False
    else:
        literal = True
    if literal:
        return default_text(value)
    try:
        if isinstance(source, Source):
            segment = source.segment(node)
        else:
            segment = ast.get_source_segment(source, node)
    except Exception:
        segment = None
    if not segment:
        return UNKNOWN_DEFAULT
    return normalize_repr(segment)


# Cython embedsignature writes C types before parameter names (``int p=1``, ``double[:] x``, ``np.ndarray a not None``).
_CYTHON_TYPED = re.compile(
    r"^(?:[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\]]*\])?\s+)+(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)(\s*=.*)?$", re.S
)
_CYTHON_NOT_NONE = re.compile(r"\s+not\s+None(?=\s*(?:=|$))")
_PARAM_NAME = re.compile(r"^(\*{0,2})([A-Za-z_][A-Za-z0-9_]*)(.*)$", re.S)
_KEYWORD_PLACEHOLDER = "__anachron_kw__"


def _parse_segment(segment, placeholders):
    """One parameter segment -> (marker or param dict). Parsed with ast; a C type before the name (Cython) is
    dropped and a Python keyword as the name (``lambda=0.0`` of a C function) is kept, when plain parsing fails."""
    if segment == "/":
        return "/"
    if segment == "*":
        return "*"
    item = _parse_python_segment(segment, placeholders)
    if item is not None:
        return item
    m = _CYTHON_TYPED.match(_CYTHON_NOT_NONE.sub("", segment, count=1))
    if m and not keyword.iskeyword(m.group(1).lstrip("*")):
        item = _parse_python_segment(m.group(1) + (m.group(2) or ""), placeholders)
        if item is not None:
            return item
    m = _PARAM_NAME.match(segment)
    if m and keyword.iskeyword(m.group(2)) and _KEYWORD_PLACEHOLDER not in segment:
        item = _parse_python_segment(m.group(1) + _KEYWORD_PLACEHOLDER + m.group(3), placeholders)
        if item is not None and item["name"] == _KEYWORD_PLACEHOLDER:
            item["name"] = m.group(2)
            return item
    return None


def _parse_python_segment(segment, placeholders):
    src = "def _f(" + segment + "): pass"
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return None
    fn = tree.body[0]
    a = fn.args
    if a.vararg is not None and not (a.args or a.posonlyargs or a.kwonlyargs or a.kwarg):
        return make_param(a.vararg.arg, VAR_POSITIONAL)
    if a.kwarg is not None and not (a.args or a.posonlyargs or a.kwonlyargs or a.vararg):
        return make_param(a.kwarg.arg, VAR_KEYWORD)
    if len(a.args) == 1 and not (a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg):
        default = None
        if a.defaults:
            default = expr_default_text(a.defaults[0], src, placeholders)
        return make_param(a.args[0].arg, POSITIONAL_OR_KEYWORD, default)
    return None


_SERIES_NAME = re.compile(r"^([A-Za-z_][A-Za-z_]*?)_?(\d+|[nNkmM])$")


def _series_prefix(segment):
    m = _SERIES_NAME.match(segment)
    return m.group(1) if m else None


def _collapse_series(segments):
    """``d0, d1, ..., dn`` (any number of positional arguments) becomes ``*d``."""
    out = []
    i = 0
    while i < len(segments):
        seg, opt = segments[i]
        if seg != "..." or not out:
            out.append((seg, opt))
            i += 1
            continue
        prefix = _series_prefix(out[-1][0])
        if prefix is None:
            out.append((seg, opt))
            i += 1
            continue
        while out and _series_prefix(out[-1][0]) == prefix:
            out.pop()
        i += 1
        if i < len(segments) and _series_prefix(segments[i][0]) == prefix:
            i += 1
        out.append(("*" + (prefix + "_" if keyword.iskeyword(prefix) else prefix), False))
    return out


def parse_params_text(params_text):
    """Parameters of a docstring signature, or None if they cannot be parsed."""
    placeholders = {}

    def _sub(m):
        key = _PLACEHOLDER % len(placeholders)
        placeholders[key] = m.group(0)
        return repr(key)

    cleaned = _ANGLE.sub(_sub, params_text)
    segments = _split_segments(cleaned)
    if segments is None:
        return None
    segments = _collapse_series(segments)
    params = []
    seen = set()
    keyword_only = False
    for segment, optional in segments:
        item = _parse_segment(segment, placeholders)
        if item is None:
            return None
        if item == "/":
            for p in params:
                if p["kind"] == POSITIONAL_OR_KEYWORD:
                    p["kind"] = POSITIONAL_ONLY
            continue
        if item == "*":
            keyword_only = True
            continue
        if item["name"] in seen:
            return None
        seen.add(item["name"])
        if item["kind"] == VAR_POSITIONAL:
            keyword_only = True
        elif item["kind"] == POSITIONAL_OR_KEYWORD:
            if keyword_only:
                item["kind"] = KEYWORD_ONLY
            if optional and item["default"] is None:
                item["default"] = UNKNOWN_DEFAULT
        params.append(item)
    # A valid ordering of kinds is required; anything else is not a signature.
    kinds = [KIND_ORDER[p["kind"]] for p in params]
    if kinds != sorted(kinds):
        return None
    return params


def docstring_signature(doc, drop_self=False):
    """Structured signature from the first line(s) of a docstring, or None."""
    if not isinstance(doc, str):
        return None
    try:
        lines = inspect.cleandoc(doc).splitlines()
    except Exception:
        return None
    while lines and not lines[0].strip():
        lines = lines[1:]
    head = split_doc_signature(lines)
    if head is None:
        return None
    _name, params_text, returns, _n = head
    params = parse_params_text(params_text)
    if params is None:
        return None
    if drop_self:
        params = drop_first(params, ("self", "cls"))
    return make_signature(params, returns_text(returns), "docstring")


def signature_lines_consumed(lines):
    head = split_doc_signature(lines)
    return head[3] if head else 0
