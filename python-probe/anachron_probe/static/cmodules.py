"""Names of C extension modules from their source: the ``PyMethodDef`` table a ``PyModuleDef`` (or a Python 2
``Py_InitModule``) names, and constants added with ``PyModule_AddIntConstant`` / ``PyModule_AddStringConstant``.
The entries' docstrings come along when they are string literals."""
import re

_C_SUFFIXES = (".c", ".c.src", ".cpp", ".cxx", ".cc")
_METHODDEF = re.compile(r"(?:static\s+)?(?:struct\s+)?PyMethodDef\s+(\w+)\s*\[\s*\]\s*=\s*\{(.*?)\n\s*\}\s*;", re.S)
_ENTRY = re.compile(r"\{\s*\"([A-Za-z_]\w*)\"\s*,\s*([^,{}]*?)\s*,\s*([^,{}]*?)\s*(?:,\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+|[A-Za-z_]\w*|NULL)\s*)?,?\s*\}", re.S)
_MODULEDEF = re.compile(r"PyModuleDef\s+\w+\s*=\s*\{(.*?)\}\s*;", re.S)
_INIT_MODULE = re.compile(r"Py_InitModule[34]?\s*\(\s*\"(\w+)\"\s*,\s*(\w+)")
_INT_CONST = re.compile(r"PyModule_Add(?:Int|String)Constant\s*\(\s*\w+\s*,\s*\"([A-Za-z_]\w*)\"")
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")


def _c_string(text):
    parts = _STRING.findall(text)
    if not parts:
        return None
    s = "".join(parts)
    try:
        return bytes(s, "utf-8").decode("unicode_escape")
    except Exception:
        return s.replace("\\n", "\n").replace('\\"', '"')


def _doc_macros(text):
    """``PyDoc_STRVAR(name, "...")`` and ``#define NAME "..."`` docstrings."""
    out = {}
    for m in re.finditer(r"PyDoc_STRVAR\(\s*(\w+)\s*,((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*\)", text):
        out[m.group(1)] = _c_string(m.group(2))
    for m in re.finditer(r"static\s+(?:const\s+)?char\s+(\w+)\s*\[\s*\]\s*=((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*;", text):
        out[m.group(1)] = _c_string(m.group(2))
    return out


_ADD_DIRECT = re.compile(
    r"PyModule_Add(?:Object|ObjectRef|IntConstant|StringConstant|IntMacro|Type)\s*\(\s*\w+\s*,\s*\"([A-Za-z_]\w*)\"\s*,\s*([^;]*)")
_DICT_SET = re.compile(r"PyDict_SetItemString\s*\(\s*(\w+)\s*,\s*\"([A-Za-z_]\w*)\"\s*,\s*([^;]*)")
_MODULE_DICT_VARS = ("d", "dict", "dictionary", "module_dict", "mod_dict", "moddict", "multiarray_dict", "m_dict")


def init_names(text):
    """{name: kind} a module's init code adds: PyModule_Add*(m, "NAME", ...), PyDict_SetItemString on the module
    dict, and macros wrapping those (``ADDCONST(ERR_CALL)``)."""
    out = {}
    dict_vars = set(_MODULE_DICT_VARS)
    for m in re.finditer(r"(\w+)\s*=\s*PyModule_GetDict\(", text):
        dict_vars.add(m.group(1))
    exceptions = set(m.group(1) for m in re.finditer(r"(\w+)\s*=\s*PyErr_NewException\(", text))

    def kind_of(expr):
        expr = expr.strip()
        if re.match(r"^\(\s*PyObject\s*\*\s*\)\s*&\s*\w+_?Type\b", expr):
            return "class"
        if re.match(r"^\(?\s*(\w+)", expr) and re.match(r"^\(?\s*(\w+)", expr).group(1) in exceptions:
            return "class"
        if re.search(r"PyErr_NewException|PyType_FromSpec", expr):
            return "class"
        if re.search(r"PyUFunc_FromFuncAndData", expr):
            return "function"
        return "attribute"

    for m in _ADD_DIRECT.finditer(text):
        out.setdefault(m.group(1), kind_of(m.group(2)))
    for m in _DICT_SET.finditer(text):
        if m.group(1) in dict_vars and not m.group(2).startswith("__"):
            out.setdefault(m.group(2), kind_of(m.group(3)))
    macros = {}
    for m in re.finditer(r"#define\s+(\w+)\((\w+)\)\s*((?:[^\n]*\\\n)*[^\n]*)", text):
        body = m.group(3)
        arg = m.group(2)
        pm = re.search(r'PyModule_Add\w*Constant\(\s*\w+\s*,\s*("[^"]*"\s*)?#%s\b' % arg, body)
        if pm is None:
            dm = re.search(r'PyDict_SetItemString\s*\(\s*(\w+)\s*,\s*("[^"]*"\s*)?#%s\b' % arg, body)
            if dm is not None and dm.group(1) in dict_vars:
                pm = re.search(r'("[^"]*"\s*)?#%s\b' % arg, body[dm.start():])
        if pm:
            prefix = (pm.group(1) or "").strip().strip('"')
            macros[m.group(1)] = prefix
    for name, prefix in macros.items():
        for m in re.finditer(r"\b%s\(\s*([A-Za-z_]\w*)\s*\)" % re.escape(name), text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if text[line_start:m.start()].lstrip().startswith("#"):
                continue  # the #define itself
            out.setdefault(prefix + m.group(1), "attribute")
    return out


def c_module_names(extractor, module):
    """{name: (kind, doc)} for compiled ``module`` (dotted), or None when its C source is not found."""
    short = module.rsplit(".", 1)[-1]
    pkg = module.rsplit(".", 1)[0]
    folder = "/".join([extractor.package_dir] + pkg.split(".")[1:]) if "." in module else extractor.package_dir
    cands = [f for f in extractor.files if f.startswith(folder + "/") and f.endswith(_C_SUFFIXES)
             and "/tests/" not in f]
    init_py3 = re.compile(r"PyInit_%s\b" % re.escape(short))
    init_py2 = re.compile(r"\binit%s\s*\(" % re.escape(short))
    for path in cands:
        text = extractor.read_text(path)
        if not text or not (init_py3.search(text) or init_py2.search(text)):
            continue
        tables = dict((m.group(1), m.group(2)) for m in _METHODDEF.finditer(text))
        docs = _doc_macros(text)
        chosen = None
        for m in _MODULEDEF.finditer(text):
            body = m.group(1)
            for name in tables:
                if re.search(r"\b%s\b" % re.escape(name), body):
                    chosen = name
                    break
            if chosen:
                break
        if chosen is None:
            for m in _INIT_MODULE.finditer(text):
                if m.group(1) == short and m.group(2) in tables:
                    chosen = m.group(2)
        out = {}
        if chosen is not None:
            macros = set(m.group(1) for m in re.finditer(r"#define\s+(\w+)\(\s*\w+\s*\)\s*\{", text))
            for m in re.finditer(r"\b(\w+)\(\s*([A-Za-z_]\w*)\s*\)", tables[chosen]):
                if m.group(1) in macros:
                    out[m.group(2)] = ("function", None)
            for e in _ENTRY.finditer(tables[chosen]):
                name, doc = e.group(1), (e.group(4) or "NULL").strip()
                if "@" in name:
                    continue
                if doc.startswith('"'):
                    doc = _c_string(doc)
                elif doc == "NULL":
                    doc = None
                else:
                    doc = docs.get(doc)
                out[name] = ("function", doc)
        for m in _INT_CONST.finditer(text):
            out.setdefault(m.group(1), ("attribute", None))
        for n, k in init_names(text).items():
            out.setdefault(n, (k, None))
        return out
    return None
