"""The keywords C functions parse, read from a release's C sources, and the Python names those functions implement.

A docstring signature of a compiled callable often leaves keywords out (numpy 1.24's ``dtype(dtype, align=False,
copy=False)`` takes ``metadata=`` too); the argument parser the function runs is the list of what it accepts:

- ``PyArg_ParseTupleAndKeywords(args, kwds, "O|O&$p:name", kwlist, ...)`` with ``static char *kwlist[] = {...}``:
  each format unit takes the next name; units before ``|`` are required, after ``$`` keyword-only; ``""`` is a
  positional-only argument;
- numpy's ``npy_parse_arguments("name", args, len_args, kwnames, "a", conv, &a, "|b", ..., "$c", ..., NULL, NULL,
  NULL)`` (after ``NPY_PREPARE_ARGPARSER``): the same prefixes on each name.

C functions are tied to Python names by the ``PyMethodDef`` tables a ``PyModuleDef`` names (module functions) or a
``PyTypeObject`` names as ``tp_methods`` (methods of the class its ``tp_name`` gives), and by a type's ``tp_new`` /
``tp_init`` (the class's constructor). A function whose parser cannot be read whole (a name that is no string
literal, arguments handed over from an offset) gives nothing, so its docstring signature stands.
"""
import re

from ..signatures import (KEYWORD_ONLY, POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, UNKNOWN_DEFAULT, make_param,
                          make_signature)

C_SUFFIXES = (".c", ".c.src", ".cpp", ".cxx", ".cc")
# the signature source of a parameter list read from the parser a C function runs: what the callable accepts
PARSER_SOURCE = "parser"

_STRINGS = r'(?:"(?:[^"\\\n]|\\.)*"\s*)+'
_FUNCTION_HEAD = re.compile(r"^(?:[A-Za-z_][\w \t\*]*?[\s\*])?([A-Za-z_]\w*)\s*\(((?:[^;{}()]|\([^;{}()]*\))*)\)\s*\{", re.M)
_KWLIST = re.compile(r"(?:static\s+)?(?:const\s+)?char\s*\*\s*(?:const\s+)?(\w+)\s*\[\s*\]\s*=\s*\{([^{}]*)\}")
_PARSE_TUPLE_KW = re.compile(
    r"PyArg_ParseTupleAndKeywords\s*\(\s*\w+\s*,\s*\w+\s*,\s*(%s),\s*(?:\(\s*char\s*\*\*\s*\)\s*)?(\w+)" % _STRINGS)
_NPY_PARSE = re.compile(r"\bnpy_parse_arguments\s*\(")
_METHODDEF = re.compile(r"(?:static\s+)?(?:struct\s+)?PyMethodDef\s+(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{(.*?)\n\s*\}\s*;", re.S)
_METHOD_ENTRY = re.compile(r"\{\s*\"([A-Za-z_]\w*)\"\s*,\s*(?:\(\s*\w+\s*\)\s*)*\(?\s*(\w+)\s*\)?\s*,")
_MODULEDEF = re.compile(r"PyModuleDef\s+\w+\s*=\s*\{(.*?)\}\s*;", re.S)
_TYPE_HEAD = re.compile(r"\bPy(?:Var)?Object_HEAD_INIT\s*\(")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def _strip_comments(text):
    """C text with comments blanked (same length, so offsets hold) and string literals kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _closing(text, start, open_char, close_char):
    """The index just past the bracket that closes the one at ``start`` (string literals skipped), or -1."""
    depth = 0
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == open_char:
            depth += 1
        elif c == close_char:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def _split_arguments(text):
    """The top-level comma-separated arguments of a call's argument text."""
    out, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while j < len(text) and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _literal(text):
    """The value of a C string literal (adjacent literals joined), or None for anything else."""
    text = text.strip()
    if not re.match(r"^%s$" % _STRINGS, text):
        return None
    return "".join(_STRING.findall(text))


def format_units(fmt):
    """[(state, unit)] of a PyArg_Parse format: state '' (required), '|' (optional) or '$' (keyword-only), for
    each unit up to ``:`` or ``;`` (a parenthesised group is one unit)."""
    units, state, i = [], "", 0
    while i < len(fmt):
        c = fmt[i]
        if c in ":;":
            break
        if c == "|":
            state = "|"
            i += 1
            continue
        if c == "$":
            state = "$"
            i += 1
            continue
        if c == "(":
            depth, j = 0, i
            while j < len(fmt):
                depth += {"(": 1, ")": -1}.get(fmt[j], 0)
                j += 1
                if depth == 0:
                    break
            units.append((state, fmt[i:j]))
            i = j
            continue
        if c.isalpha():
            j = i + 1
            if c == "e" and j < len(fmt) and fmt[j] in "st":
                j += 1
            while j < len(fmt) and fmt[j] in "#*!&":
                j += 1
            units.append((state, fmt[i:j]))
            i = j
            continue
        i += 1  # whitespace and anything unknown
    return units


def _tuple_kw_parameters(fmt, names):
    """[(name, state)] from a PyArg_ParseTupleAndKeywords format and its kwlist, or None when they do not pair."""
    units = format_units(fmt)
    if len(units) != len(names):
        return None
    return [(name, state) for (state, _), name in zip(units, names)]


def _npy_parameters(call_args):
    """[(name, state)] of an npy_parse_arguments call's arguments, or None when not all of it reads: only a call
    given the function's own arguments (not ``args + n``: the rest is parsed elsewhere)."""
    if len(call_args) < 4 or call_args[2].strip() != "len_args" or call_args[1].strip() != "args":
        return None
    rest = call_args[4:]
    out = []
    for k in range(0, len(rest), 3):
        name = rest[k].strip()
        if name == "NULL":
            return out
        value = _literal(name)
        if value is None:
            return None
        state = value[:1] if value[:1] in ("|", "$") else ""
        out.append((value[len(state):], state))
    return None  # no NULL terminator read


def _kwlists(text):
    out = {}
    for m in _KWLIST.finditer(text):
        items = _split_arguments(m.group(2))
        names = []
        for item in items:
            if item in ("NULL", "0", "nullptr"):
                break
            value = _literal(item)
            if value is None:
                names = None
                break
            names.append(value)
        if names is not None:
            out[m.group(1)] = names
    return out


def function_parsers(text):
    """{C function name: [(name, state)]} for the functions of a C file that parse keywords; a function with
    several parser calls gets the union, in order of first appearance."""
    text = _strip_comments(text)
    file_kwlists = _kwlists(text)
    out = {}
    for m in _FUNCTION_HEAD.finditer(text):
        name = m.group(1)
        if name in ("if", "while", "for", "switch", "return", "sizeof"):
            continue
        start = m.end() - 1
        end = _closing(text, start, "{", "}")
        if end < 0:
            continue
        body = text[start:end]
        if "PyArg_ParseTupleAndKeywords" not in body and "npy_parse_arguments" not in body:
            continue
        params, readable = [], True
        lists = dict(file_kwlists)
        lists.update(_kwlists(body))
        for pm in _PARSE_TUPLE_KW.finditer(body):
            names = lists.get(pm.group(2))
            got = _tuple_kw_parameters(_literal(pm.group(1)) or "", names) if names is not None else None
            if got is None:
                readable = False
                break
            params.append(got)
        if readable and body.count("PyArg_ParseTupleAndKeywords") != len(params):
            readable = False  # a call whose format or keyword list is no literal
        for cm in _NPY_PARSE.finditer(body):
            close = _closing(body, cm.end() - 1, "(", ")")
            got = _npy_parameters(_split_arguments(body[cm.end():close - 1])) if close > 0 else None
            if got is None:
                readable = False
                break
            params.append(got)
        if not readable or not params:
            continue
        out[name] = _union(params)
    return out


def _union(lists):
    seen, out = {}, []
    for lst in lists:
        for name, state in lst:
            if name and name in seen:
                # the more permissive reading: optional over required, positional over keyword-only
                i = seen[name]
                out[i] = (name, state if out[i][1] == state else "|")
                continue
            seen[name] = len(out)
            out.append((name, state))
    return out


def _type_objects(text):
    """The initializer text of every type object in a C file: from its ``PyVarObject_HEAD_INIT`` to the brace
    that closes the initializer around it (``PyTypeObject T = {...}``, or nested as in numpy's
    ``PyArray_DTypeMeta PyArrayDescr_TypeFull = {{{...}}}``)."""
    out = []
    for m in _TYPE_HEAD.finditer(text):
        start = text.rfind("{", 0, m.start())
        between = re.sub(r"(?m)^\s*#.*$", "", _strip_comments(text[start:m.start()]))  # #if NPY_PY3K lines
        if start < 0 or between.strip(" \t\n{"):
            continue  # a macro's use that is no initializer
        end = _closing(text, start, "{", "}")
        if end > 0:
            out.append(text[m.start():end])
    return out


class CParsers(object):
    """What the C sources of one release parse, by the Python name each function implements."""

    def __init__(self, extractor):
        self.functions = {}  # C function -> [(name, state)]; a name defined with two parsers is dropped
        self.module_tables = {}  # module short name -> {python name: C function}
        self.types = {}  # class short name -> {"methods": {name: C function}, "new": C function, "init": ...}
        ambiguous = set()
        tables = {}
        files = [f for f in extractor.files if f.startswith(extractor.package_dir + "/") and f.endswith(C_SUFFIXES)
                 and "/tests/" not in f]
        texts = []
        for path in files:
            text = extractor.read_text(path)
            if not text or "PyMethodDef" not in text and "PyArg_ParseTupleAndKeywords" not in text and \
                    "npy_parse_arguments" not in text and "PyTypeObject" not in text:
                continue
            texts.append(text)
            for fname, params in function_parsers(text).items():
                if fname in self.functions and self.functions[fname] != params:
                    ambiguous.add(fname)
                self.functions[fname] = params
            for m in _METHODDEF.finditer(text):
                entries = {}
                for e in _METHOD_ENTRY.finditer(m.group(2)):
                    entries.setdefault(e.group(1), e.group(2))
                tables.setdefault(m.group(1), entries)
        for fname in ambiguous:
            del self.functions[fname]
        for text in texts:
            for m in _MODULEDEF.finditer(text):
                body = m.group(1)
                module = _STRING.search(body)
                for table in re.findall(r"\b(\w+)\b", body):
                    if module and table in tables:
                        self.module_tables.setdefault(module.group(1).rsplit(".", 1)[-1], tables[table])
            for body in _type_objects(text):
                self._read_type(body, tables)

    def _read_type(self, raw, tables):
        """A type's name and slots: designated (``.tp_new = f``) or positional with the slot's comment
        (``f, /* tp_new */``)."""
        body = _strip_comments(raw)
        name = re.search(r"\.tp_name\s*=\s*\"([^\"]+)\"", body) or _STRING.search(body)
        if name is None:
            return
        short = name.group(1).rsplit(".", 1)[-1]
        entry = {"methods": {}, "new": None, "init": None}
        for slot in ("methods", "new", "init"):
            m = re.search(r"\.tp_%s\s*=\s*(?:\(\s*\w+\s*\)\s*)?(\w+)" % slot, body) or \
                re.search(r"(?:\(\s*\w+\s*\)\s*)?(\w+)\s*,?\s*/\*\s*tp_%s\s*\*/" % slot, raw)
            if m is None:
                continue
            if slot == "methods":
                entry["methods"] = tables.get(m.group(1), {})
            else:
                entry[slot] = m.group(1)
        if short in self.types and self.types[short] != entry:
            self.types[short] = None  # two C types publish this name: neither is trusted
        elif short not in self.types:
            self.types[short] = entry

    def parameters(self, module, name):
        """[(name, state)] the C function behind ``module.name`` parses (``name``: a function or class of the
        module, or ``Class.method``), or None where no parser is known."""
        parts = name.split(".")
        func = None
        if len(parts) == 1:
            t = self.types.get(parts[0])
            if t:
                for slot in ("new", "init"):
                    if t[slot] in self.functions:
                        func = t[slot]
                        break
            elif parts[0] not in self.types:
                func = self.module_tables.get(module.rsplit(".", 1)[-1], {}).get(parts[0])
        elif len(parts) == 2:
            t = self.types.get(parts[0])
            func = t["methods"].get(parts[1]) if t else None
        return self.functions.get(func) if func else None


def parser_signature(params, base=None):
    """The signature a parser's [(name, state)] gives; defaults (and positional-only names) from ``base``, the
    docstring's signature, where it has them."""
    base_params = (base or {}).get("parameters") or []
    by_name = dict((p["name"], p) for p in base_params)
    out = []
    for i, (name, state) in enumerate(params):
        if not name:
            doc_name = base_params[i]["name"] if i < len(base_params) and base_params[i]["kind"] in (
                POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD) else None
            kind, name = POSITIONAL_ONLY, doc_name or "arg%d" % i
        else:
            kind = KEYWORD_ONLY if state == "$" else POSITIONAL_OR_KEYWORD
        default = None
        if state:
            known = by_name.get(name)
            default = known["default"] if known is not None and known["default"] is not None else UNKNOWN_DEFAULT
        out.append(make_param(name, kind, default))
    return make_signature(out, (base or {}).get("returns"), PARSER_SOURCE)
