"""Structured signatures from inspect, from a docstring's first line, and helpers shared with the stub reader."""
import ast
import inspect
import keyword
import re

from .text import (collapse, default_text, doc_lines, indent_width, normalize_repr, outside_quotes, raw_repr,
                   strip_addresses, top_level_index, truncate)

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


def star_and_keyword_params(arguments, default_text):
    """The parameters of an ``ast.arguments`` after its positional ones: ``*args``, the keyword-only ones (their
    defaults' text from ``default_text(node)``), ``**kwargs``."""
    out = []
    if arguments.vararg is not None:
        out.append(make_param(arguments.vararg.arg, VAR_POSITIONAL))
    for arg, d in zip(arguments.kwonlyargs, arguments.kw_defaults):
        out.append(make_param(arg.arg, KEYWORD_ONLY, None if d is None else default_text(d)))
    if arguments.kwarg is not None:
        out.append(make_param(arguments.kwarg.arg, VAR_KEYWORD))
    return out


def make_signature(params, returns, source):
    return {"parameters": params, "returns": returns, "source": source}


def is_meaningless(params):
    """``(*args, **kwargs)`` says nothing about a callable."""
    return [p["kind"] for p in params] == [VAR_POSITIONAL, VAR_KEYWORD]


def with_open_keywords(doc_sig, generic):
    """A docstring signature standing in for an introspected ``(*args, **kwargs)`` one: where it names nothing a
    keyword can pass (scipy 1.6's ``Rbf(*args)``, whose ``__init__`` reads ``function=``, ``epsilon=`` from
    ``**kwargs``), the callable's ``**kwargs`` stays, so no keyword is reported as unknown."""
    if doc_sig is None or generic is None:
        return doc_sig
    params = doc_sig["parameters"]
    if any(p["kind"] in (POSITIONAL_OR_KEYWORD, KEYWORD_ONLY, VAR_KEYWORD) for p in params):
        return doc_sig
    extra = [p for p in generic["parameters"] if p["kind"] == VAR_KEYWORD]
    return dict(doc_sig, parameters=list(params) + extra) if extra else doc_sig


def drop_first(params, names=None):
    """Drop a leading self/cls parameter (only a positional one; ``*args`` stays)."""
    if params and params[0]["kind"] in (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD):
        if names is None or params[0]["name"] in names:
            return params[1:]
    return params


def merge_parameter_lists(lists):
    """One parameter list for several (overloads, or two sources): union of names in first-seen order; with more
    than one list, a parameter missing from some list gets default "...", kinds are kept in a valid order (stable
    within a kind) and at most one ``*args`` and one ``**kwargs`` remain."""
    merged = []
    index = {}
    for params in lists:
        for p in params:
            if p["name"] not in index:
                index[p["name"]] = len(merged)
                merged.append(dict(p))
            elif merged[index[p["name"]]]["default"] is None and p["default"] is not None:
                merged[index[p["name"]]]["default"] = p["default"]
    if len(lists) > 1:
        for p in merged:
            if p["default"] is None and p["kind"] not in (VAR_POSITIONAL, VAR_KEYWORD):
                if any(p["name"] not in [q["name"] for q in params] for params in lists):
                    p["default"] = UNKNOWN_DEFAULT
        merged.sort(key=lambda p: KIND_ORDER[p["kind"]])
        for kind in (VAR_POSITIONAL, VAR_KEYWORD):
            seen = False
            kept = []
            for p in merged:
                if p["kind"] == kind:
                    if seen:
                        continue
                    seen = True
                kept.append(p)
            merged = kept
    return merged


def _keywords(sig):
    names = set(p["name"] for p in sig["parameters"] if p["kind"] in (POSITIONAL_OR_KEYWORD, KEYWORD_ONLY))
    return names, any(p["kind"] == VAR_KEYWORD for p in sig["parameters"])


def reconcile_docstring_stub(doc_sig, stub_sig):
    """A C function's docstring line next to the stub shipped for its extension module. The docstring stands when
    the stub names no keyword it lacks; the stub (with the docstring's defaults for its ``...`` ones) when it names
    every keyword the docstring does, and more; otherwise both parameter lists merged (docstring first; source
    "docstring", as it holds the docstring's claims)."""
    dk, dv = _keywords(doc_sig)
    sk, sv = _keywords(stub_sig)
    if sk <= dk and (dv or not sv):
        return doc_sig
    if dk <= sk and (sv or not dv):
        # Stubs often say only ``= ...``: the docstring's default, where it names one, is more telling.
        doc_defaults = dict((p["name"], p["default"]) for p in doc_sig["parameters"] if p["default"] is not None)
        params = []
        for p in stub_sig["parameters"]:
            if p["default"] == UNKNOWN_DEFAULT and doc_defaults.get(p["name"], UNKNOWN_DEFAULT) != UNKNOWN_DEFAULT:
                p = dict(p, default=doc_defaults[p["name"]])
            params.append(p)
        return make_signature(params, stub_sig["returns"], stub_sig["source"])
    params = merge_parameter_lists([doc_sig["parameters"], stub_sig["parameters"]])
    returns = doc_sig["returns"] if doc_sig["returns"] is not None else stub_sig["returns"]
    return make_signature(params, returns, "docstring")


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
    for i, c, depth in outside_quotes(text, start, escapes=True):
        if c in ")]}" and depth == 0:
            return i if c == ")" else -1
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
            return normalize_repr(placeholders[node.value])  # <... object at 0x7f...> from pybind11 docstrings
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
_PYBIND_ARG = re.compile(r"^arg\d+$")


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
    posonly = getattr(a, "posonlyargs", [])  # Python 3.8+; the runtime probe also runs in 3.6 and 3.7 venvs
    if a.vararg is not None and not (a.args or posonly or a.kwonlyargs or a.kwarg):
        return make_param(a.vararg.arg, VAR_POSITIONAL)
    if a.kwarg is not None and not (a.args or posonly or a.kwonlyargs or a.vararg):
        return make_param(a.kwarg.arg, VAR_KEYWORD)
    if len(a.args) == 1 and not (posonly or a.kwonlyargs or a.vararg or a.kwarg):
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
    # pybind11 names parameters it was given no name for arg0, arg1, ...: they cannot be passed by keyword.
    named = [p for p in params if p["name"] not in ("self", "cls")]
    if named and all(_PYBIND_ARG.match(p["name"]) and p["kind"] == POSITIONAL_OR_KEYWORD for p in named):
        for p in params:
            p["kind"] = POSITIONAL_ONLY
    # A valid ordering of kinds is required; anything else is not a signature.
    kinds = [KIND_ORDER[p["kind"]] for p in params]
    if kinds != sorted(kinds):
        return None
    return params


def docstring_signature(doc, drop_self=False):
    """Structured signature from the first line(s) of a docstring, or None."""
    lines = doc_lines(doc)
    if lines is None:
        return None
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


# ---------------------------------------------------------------------------------------------------------------
# return types: numpydoc "Returns" sections, stub annotations

_UNDERLINE = re.compile(r"^\s*-{3,}\s*$")


def numpydoc_returns(doc):
    """The type of the only entry of a numpydoc "Returns" section (``out : ndarray`` -> ``ndarray``; ``Generator``),
    the part before any top-level comma (``ndarray, shape (N,)`` -> ``ndarray``), reStructuredText roles and
    backticks removed. None when there is no such section, it has more than one entry, or the type is a union
    (``ndarray or scalar``, ``int | None``, ``{None, 'raise'}``) or does not start with a name."""
    if not isinstance(doc, str) or "Returns" not in doc:
        return None
    lines = doc_lines(doc)
    entries = None if lines is None else _numpydoc_section_entries(lines, "Returns")
    if entries is None or len(entries) != 1:
        return None
    return _returned_type(entries[0])


def _numpydoc_section_entries(lines, title):
    """The lines at the indent of the numpydoc section ``title`` (its entries, descriptions left out) up to the next
    section or directive; None when ``lines`` have no such section."""
    start = None
    for i in range(len(lines) - 1):
        if lines[i].strip() == title and _UNDERLINE.match(lines[i + 1]):
            start = i
            break
    if start is None:
        return None
    base = indent_width(lines[start])
    entries = []
    i = start + 2
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        ind = indent_width(line)
        if ind < base:
            break
        if ind == base:
            if i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]):
                break  # the next section
            if line.strip().startswith(".."):
                break  # a directive after the section (.. versionadded::)
            entries.append(line.strip())
        i += 1
    return entries


_ROLE = re.compile(r":[A-Za-z_][A-Za-z0-9_:]*:`~?([^`]*)`")
_BACKTICKS = re.compile(r"`+~?([^`]*)`+")


def _without_markup(text):
    """``text`` with reStructuredText roles and backticks removed: ``:class:`~numpy.ndarray``` -> ``numpy.ndarray``."""
    return _BACKTICKS.sub(r"\1", _ROLE.sub(r"\1", text))


_UNION_WORD = re.compile(r"\bor\b")
_RETURN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_RETURN_TAIL = re.compile(r"^(?:\s+of\s.*|\s*\(.*|\s+(?:object|instance)s?)$")


def _returned_type(entry):
    """The type a "Returns" entry (``name : type`` or ``type``) names, or None (see numpydoc_returns)."""
    # ``name : type``; a line without " : " is the type alone (numpydoc allows the name to be omitted).
    if " : " in entry or entry.endswith(" :"):
        entry = entry.split(" :", 1)[1]
    elif ":" in entry and not entry.startswith(":"):
        name, _, rest = entry.partition(":")
        if name.strip().isidentifier():
            entry = rest
    entry = _without_markup(entry).strip()
    cut = top_level_index(entry, ",")
    if cut >= 0:
        entry = entry[:cut]
    entry = collapse(entry).rstrip(".").strip()
    if not entry or "|" in entry or _UNION_WORD.search(entry):
        return None
    m = _RETURN_NAME.match(entry)
    if not m:
        return None
    end = m.end()
    if entry[end:end + 1] == "[":  # generic arguments as written: NDArray[float64]
        depth = 0
        for i in range(end, len(entry)):
            depth += {"[": 1, "]": -1}.get(entry[i], 0)
            if depth == 0:
                end = i + 1
                break
        else:
            return None
    rest = entry[end:]
    # ``ndarray of ints``, ``ndarray (N, M)``, ``matrix object``: the type named first. Anything else after the
    # name (``complex ndarray``, ``Standard Python scalar object``) is prose, not a type.
    if rest and not _RETURN_TAIL.match(rest):
        return None
    return returns_text(entry[:end])


def strip_generic_arguments(text):
    """``NDArray[float64]`` -> ``NDArray``; ``ndarray[Any, dtype[_SCT]]`` -> ``ndarray``."""
    out = []
    depth = 0
    for c in text:
        if c == "[":
            depth += 1
        elif c == "]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return collapse("".join(out))


def agreed_returns(texts):
    """One return text for several overloads: the text when all are the same; the common text without generic
    arguments when only those differ (``NDArray[float64]``, ``NDArray[Any]`` -> ``NDArray``); else None. An
    overload without a return annotation (None in ``texts``) makes it None."""
    if not texts or any(t is None for t in texts):
        return None
    if all(t == texts[0] for t in texts):
        return texts[0]
    stripped = set(strip_generic_arguments(t) for t in texts)
    if len(stripped) == 1:
        only = stripped.pop()
        return only or None
    return None
