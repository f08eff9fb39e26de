"""Cython (``.pyx``) to a Python skeleton the interpreter can read.

What Python code sees of a Cython module: ``def`` and ``cpdef`` functions, ``cdef class`` extension types with
their ``def``/``cpdef`` methods and ``cdef public``/``readonly`` attributes (properties), and module-level
Python statements. Kept: those, with C types stripped from parameters and function bodies replaced by their
docstring. Dropped: ``cdef`` functions and variables, ``ctypedef``, ``cdef extern`` blocks, ``cimport``,
``include``, ``DEF``, Tempita template lines (``{{...}}``). Statements that still do not parse are dropped one
top-level block at a time and reported."""
import ast
import re

from ..text import indent_width, outside_quotes, split_top_level, top_level_index

_CIMPORT_OR_INCLUDE = re.compile(r"^\s*(from\s+\S+\s+cimport\b|cimport\b|include\s+['\"])")
_CLASS = re.compile(r"^(\s*)(?:c(?:p)?def\s+(?:(?:public|api|final|readonly|inline)\s+)*)?class\s+([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(\(.*\))?\s*:\s*(#.*)?$")
_CPDEF = re.compile(r"^(\s*)cpdef\s+(.*)$")
_CDEF_ANY = re.compile(r"^(\s*)(cdef|ctypedef|DEF|IF|ELIF|ELSE)\b")
_CDEF_ATTR = re.compile(r"^(\s*)cdef\s+(public|readonly)\s+(.*)$")
_DEF = re.compile(r"^(\s*)(async\s+)?def\s+([A-Za-z_]\w*)\s*\(")
_TEMPLATE = re.compile(r"\{\{.*?\}\}")


def _logical_lines(text):
    """(start index, end index exclusive, joined text) of logical lines: brackets and backslashes join."""
    lines = text.split("\n")
    out = []
    i = 0
    n = len(lines)
    while i < n:
        start = i
        buf = lines[i]
        depth, quote, _ = _scan(buf, 0, None)
        open_quote = quote if quote and len(quote) == 3 else None
        if depth > 0 and not open_quote:
            buf = _strip_comment(buf)
        parts = [buf]
        while (depth > 0 or open_quote or parts[-1].rstrip().endswith("\\")) and i + 1 < n:
            i += 1
            if open_quote:
                chunk = lines[i]
                parts.append("\n" + chunk)
            elif parts[-1].rstrip().endswith("\\"):
                parts[-1] = parts[-1].rstrip()[:-1]
                chunk = _strip_comment(lines[i]).strip()
                parts.append(" " + chunk)
                quote = None
            else:
                chunk = _strip_comment(lines[i]).strip()
                parts.append(" " + chunk)
                quote = None
            depth, quote, _ = _scan(chunk, depth, open_quote)
            open_quote = quote if quote and len(quote) == 3 else None
            if i - start > 2000:
                break
        buf = "".join(parts)
        out.append((start, i + 1, buf))
        i += 1
    return out


def _strip_comment(s):
    """``s`` without a trailing ``# comment`` (quotes respected; an unterminated string keeps the rest)."""
    comment = _scan(s, 0, None)[2]
    return s if comment is None else s[:comment].rstrip()


def _scan(s, depth, quote):
    """Bracket depth, open quote and the index of a ``#`` comment (None without one) after scanning ``s`` from the
    given state (a comment ends the scan)."""
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if s.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            if len(quote) == 3:
                j = s.find(quote, i)
                k = s.find("\\", i)
                if j < 0 and k < 0:
                    return depth, quote, None
                i = min(x for x in (j, k) if x >= 0)
                continue
        else:
            if c == "#":
                return depth, None, i
            if s.startswith('"""', i) or s.startswith("'''", i):
                quote = s[i:i + 3]
                i += 3
                continue
            if c in "\"'":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
        i += 1
    if quote and len(quote) == 1:
        quote = None  # an unterminated one-line string ends with the line
    return depth, quote, None


def _declared_names(decl):
    """The names a C declaration declares: ``double[:, ::1] x, y`` -> [x, y]; ``int *p`` -> [p]."""
    names = [n.strip() for n in re.sub(r"\[[^\]]*\]", "", decl).split(",")]
    first = names[0].split()
    if first:
        names[0] = first[-1]
    return [n for n in (n.strip(" *&") for n in names) if re.match(r"^[A-Za-z_]\w*$", n)]


_IDENT_AT_END = re.compile(r"([A-Za-z_]\w*)\s*$")


def _strip_param(p):
    """``double[:, ::1] x not None`` -> ``x``; ``int n=3`` -> ``n=3``; ``*args`` kept."""
    p = p.strip()
    if not p:
        return p
    p = re.sub(r"\s+(not|or)\s+None\s*$", "", p)
    default = None
    eq = _top_level_eq(p)
    if eq >= 0:
        default = p[eq + 1:].strip()
        p = p[:eq].strip()
        default = re.sub(r"^<[^<>]*>\s*", "", default)  # <cast>value
    star = ""
    m = re.match(r"^(\*\*|\*)\s*(.*)$", p)
    if m:
        star, p = m.group(1), m.group(2)
    p = re.sub(r"\s+(not|or)\s+None\s*$", "", p)
    colon = top_level_index(p, ":")
    if colon >= 0:
        p = p[:colon].strip()  # a Python annotation (``obj: object``), not a C type (``double[:] x``)
    if p in ("", "/") and star == "*":
        return "*"
    if p == "/":
        return "/"
    p = p.rstrip(" *&")
    m = _IDENT_AT_END.search(p)
    if not m:
        return None
    name = m.group(1)
    # ``int *x`` / ``object x`` / ``x`` -> x
    out = star + name
    if default is not None:
        out += "=" + default
    return out


def _top_level_eq(s):
    """Index of an assignment ``=`` outside brackets (``<cast>`` included) and strings; comparisons do not count."""
    return top_level_index(s, "=", "([{<", ")]}>", quotes=True,
                           accept=lambda i: s[i + 1:i + 2] != "=" and (i == 0 or s[i - 1] not in "!<>="))


def _convert_def(header):
    """A (c)def/cpdef header -> ``def name(params):`` or None for a C-only function. A one-line body after the
    colon is dropped."""
    close = _header_close(header)
    if close is not None and header[close:].strip() and not header[close:].strip().startswith("#"):
        header = header[:close]
    m = re.match(r"^(\s*)(?:cpdef\s+)?(?:(?:inline|api|public)\s+)*(.*?)([A-Za-z_]\w*)\s*\((.*)\)\s*(?:->\s*[^:]+)?(?:\s+(?:nogil|except\s*[^:]*|noexcept|with\s+gil))*\s*:\s*(#.*)?$", header)
    if not m:
        return None
    indent, _rettype, name, params = m.group(1), m.group(2), m.group(3), m.group(4)
    out = []
    for p in split_top_level(params):
        s = _strip_param(p)
        if s is None:
            return None
        if s:
            out.append(s)
    return "%sdef %s(%s):" % (indent, name, ", ".join(out))


def _header_close(header):
    """Index just after the colon ending a def header (the one after the parameter list), or None."""
    start = header.find("(")
    if start < 0:
        return None
    for i, c, depth in outside_quotes(header, start):
        if c == ":" and depth == 0:
            return i + 1
    return None


def to_python(text):
    """Python text and a list of problems."""
    problems = []
    text = text.replace("\r\n", "\n")
    logical = _logical_lines(text)
    out = []  # list of output lines
    stack = []  # (indent, mode) mode: class | skip | def
    pending = []  # decorators waiting for the statement they decorate
    decorators = []
    i = 0
    while i < len(logical):
        start, end, line = logical[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            i += 1
            continue
        if stripped.startswith("{{py:") or stripped == "{{py":
            # a Tempita code block: skip to its closing }}
            while i < len(logical) and "}}" not in logical[i][2].split("{{py", 1)[-1]:
                i += 1
            i += 1
            continue
        if _TEMPLATE.search(line) or stripped.startswith("{{"):
            i += 1
            continue
        ind = indent_width(line, " \t")
        while stack and ind <= stack[-1][0]:
            stack.pop()
        mode = stack[-1][1] if stack else "module"
        if mode in ("skip", "def"):
            i += 1
            continue
        if _CIMPORT_OR_INCLUDE.match(line):
            i += 1
            continue
        if not stripped.startswith("@"):
            decorators = [d for d in pending if indent_width(d, " \t") == ind]
            pending = []
        m = _CLASS.match(line)
        if m:
            base = m.group(4) or ""
            base = re.sub(r"\[[^\]]*\]", "", base)
            out.extend(decorators)
            out.append("%sclass %s%s:" % (m.group(1), m.group(2), base))
            stack.append((ind, "class"))
            i += 1
            continue
        if mode == "class":
            pm = re.match(r"^(\s*)property\s+([A-Za-z_]\w*)\s*:\s*(#.*)?$", line)
            if pm:
                # old-style Cython property block
                out.append(" " * ind + "%s = property()" % pm.group(2))
                stack.append((ind, "skip"))
                i += 1
                continue
            bm = re.match(r"^(\s*)cdef\s*(public|readonly)?\s*:\s*(#.*)?$", line)
            if bm:
                # a ``cdef:`` block of attribute declarations
                all_public = bm.group(2) is not None
                j = i + 1
                while j < len(logical):
                    s2, e2, l2 = logical[j]
                    if l2.strip() and not l2.strip().startswith("#") and indent_width(l2, " \t") <= ind:
                        break
                    decl = l2.split("#")[0].strip()
                    dm = re.match(r"^(public|readonly)\s+(.*)$", decl)
                    if dm or (all_public and decl):
                        for n in _declared_names(dm.group(2) if dm else decl):
                            out.append(" " * ind + "%s = property()" % n)
                    j += 1
                i = j
                continue
        m = _CDEF_ATTR.match(line)
        if m and mode == "class":
            for n in _declared_names(m.group(3).split("#")[0]):
                out.append(" " * ind + "%s = property()" % n)
            i += 1
            continue
        m = _CPDEF.match(line)
        if m and not re.match(r"^\s*cpdef\s+enum\b", line):
            conv = _convert_def(line)
            if conv is not None:
                out.extend(decorators)
                out.append(conv)
                i = _emit_docstring(logical, i + 1, ind, out)
                continue
            i += 1
            continue
        if _CDEF_ANY.match(line):
            if stripped.endswith(":") or re.search(r":\s*(#.*)?$", stripped):
                stack.append((ind, "skip"))
            i += 1
            continue
        m = _DEF.match(line)
        if m:
            conv = _convert_def(line)
            if conv is None:
                problems.append("Cython def at line %d not understood" % (start + 1))
                stack.append((ind, "skip"))
                i += 1
                continue
            out.extend(decorators)
            out.append(conv)
            i = _emit_docstring(logical, i + 1, ind, out)
            continue
        if stripped.startswith("@"):
            pending.append(line.rstrip())
            i += 1
            continue
        # any other statement: keep if it parses (compound headers keep their block)
        if stripped.endswith(":") and re.match(r"^(if|elif|else|try|except|finally|for|while|with)\b", stripped):
            if re.match(r"^(for|while)\b", stripped):
                stack.append((ind, "skip"))
                i += 1
                continue
            out.append(line.rstrip())
            i += 1
            continue
        candidate = stripped
        try:
            ast.parse(candidate)
        except SyntaxError:
            if mode == "module":
                problems.append("Cython statement at line %d skipped" % (start + 1))
            i += 1
            continue
        out.append(line.rstrip())
        i += 1
    return "\n".join(_fill_empty_blocks(out)) + "\n", problems


_BLOCK_HEADER = re.compile(r"^\s*(class|def|if|elif|else|try|except|finally|with|async\s+def)\b.*:\s*$")


def _fill_empty_blocks(lines):
    """``pass`` into block headers left without a body."""
    out = []
    for k, line in enumerate(lines):
        out.append(line)
        if _BLOCK_HEADER.match(line) and not line.lstrip().startswith("@"):
            ind = indent_width(line, " \t")
            nxt = None
            for later in lines[k + 1:]:
                if later.strip():
                    nxt = later
                    break
            if nxt is None or indent_width(nxt, " \t") <= ind:
                out.append(" " * (ind + 4) + "pass")
    return out


_DOCSTART = re.compile(r"^\s*[rRuUbB]{0,2}(\"\"\"|'''|\"|')")


def _emit_docstring(logical, j, def_indent, out):
    """After a def header: the docstring (if any) then ``pass``; skip the body. Returns the next index."""
    body_indent = None
    if j < len(logical):
        start, end, line = logical[j]
        if line.strip() and indent_width(line, " \t") > def_indent:
            body_indent = indent_width(line, " \t")
            s = line.strip()
            if _DOCSTART.match(s):
                try:
                    node = ast.parse(s)
                    if node.body and isinstance(node.body[0], ast.Expr):
                        out.append(" " * body_indent + s)
                except SyntaxError:
                    pass
    out.append(" " * (body_indent if body_indent is not None else def_indent + 4) + "pass")
    while j < len(logical):
        start, end, line = logical[j]
        s = line.strip()
        if s and not s.startswith("#") and not s.startswith("{{") and indent_width(line, " \t") <= def_indent:
            break
        j += 1
    return j


def to_python_ast(text, path=None, pxd=None):
    """The module's AST; ``pxd``: the text of its ``.pxd``, whose ``cdef class`` attribute declarations (``cdef
    readonly: int64_t n``) belong to the classes of the same name here (Cython reads them from there)."""
    py, problems = to_python(text)
    try:
        tree = ast.parse(py, filename=path or "<pyx>")
    except SyntaxError:
        tree = _parse_block_by_block(py, path, problems)
    if pxd:
        _add_declared_attributes(tree, pxd)
    return tree, problems


def _add_declared_attributes(tree, pxd):
    py = to_python(pxd)[0]
    try:
        declared = ast.parse(py)
    except SyntaxError:
        declared = _parse_block_by_block(py, "<pxd>", [])
    attrs = {}
    for node in declared.body:
        if isinstance(node, ast.ClassDef):
            attrs[node.name] = [t.id for st in node.body if isinstance(st, ast.Assign) for t in st.targets
                                if isinstance(t, ast.Name)]
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and attrs.get(node.name):
            have = {t.id for st in node.body if isinstance(st, ast.Assign) for t in st.targets if isinstance(t, ast.Name)}
            have |= {st.name for st in node.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for name in attrs[node.name]:
                if name not in have:
                    node.body.append(ast.parse("%s = property()" % name).body[0])
    ast.fix_missing_locations(tree)


def _parse_block_by_block(py, path, problems):
    # Drop top-level statements that do not parse, one at a time (multi-line strings kept whole).
    blocks = []
    cur = []
    prev_decorator = False
    for start, end, line in _logical_lines(py):
        top = line[:1] not in (" ", "\t", "") and line.strip()
        if top and cur and not prev_decorator:
            blocks.append(cur)
            cur = []
        if line.strip():
            prev_decorator = bool(top) and line.lstrip().startswith("@") or (prev_decorator and not top)
        cur.append(line)
    if cur:
        blocks.append(cur)
    kept = []
    for b in blocks:
        t = "\n".join(b)
        try:
            ast.parse(t)
        except SyntaxError as e:
            problems.append("Cython statement '%s' skipped: %s" % (b[0].strip()[:60], e.msg))
            continue
        kept.append(t)
    return ast.parse("\n".join(kept) + "\n", filename=path or "<pyx>")
