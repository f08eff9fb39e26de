"""Routines of f2py extension modules from their signature files (``.pyf`` / ``.pyf.src``): the ``subroutine`` and
``function`` blocks of ``python module NAME`` (``include``d files followed), with numpy.distutils' template
notation expanded (``<prefix=s,d,c,z>`` defined once in a comment or inline; a block's placeholders advance
together)."""
import re

_MODULE = re.compile(r"^\s*python\s+module\s+(\w+)", re.I)
_END_MODULE = re.compile(r"^\s*end\s+python\s+module\b", re.I)
_ROUTINE = re.compile(r"^\s*(?:[\w*()<>=, ]*?\s)?(subroutine|function)\s+((?:[\w]|<[^<>]*>)+)\s*(\(|$)", re.I)
_END = re.compile(r"^\s*end\b", re.I)
_INCLUDE = re.compile(r"^\s*include\s+['\"]([^'\"]+)['\"]", re.I)
_SHORTHAND = re.compile(r"<(\w+)=([^<>]*)>")


def _read(extractor, path):
    return extractor.read_text(path) if path in set(extractor.files) else None


def _expand(name, defs):
    """Names a template name stands for: every ``<...>`` advances with the same index. ``<x>`` names a list,
    ``<x=a,b>`` defines one, ``<a,b,\\0>`` is an anonymous one (``\\N``: its N-th item)."""
    lists = []

    def token(m):
        body = m.group(1)
        if "=" in body:
            key, _, vals = body.partition("=")
            items = [v.strip() for v in vals.split(",")]
        elif "," in body:
            items = [v.strip() for v in body.split(",")]
        else:
            items = defs.get(body.strip())
            if items is None:
                return m.group(0)
        lists.append(items)
        return "\x00%d\x00" % (len(lists) - 1)

    skeleton = re.sub(r"<([^<>]*)>", token, name)
    if not lists:
        return [name] if re.match(r"^[A-Za-z_]\w*$", name) else []
    n = max(len(l) for l in lists)
    out = []
    for i in range(n):
        def repl(m):
            items = lists[int(m.group(1))]
            v = items[i] if i < len(items) else items[-1]
            ref = re.match(r"^\\(\d+)$", v)
            if ref and int(ref.group(1)) < len(items):
                v = items[int(ref.group(1))]
            return v
        nm = re.sub(r"\x00(\d+)\x00", repl, skeleton)
        if re.match(r"^[A-Za-z_]\w*$", nm) and nm not in out:
            out.append(nm)
    return out


def pyf_routines(extractor, module_short, folder):
    """Routine names of ``python module module_short`` declared in a .pyf(.src) file of ``folder``."""
    files = [f for f in extractor.files if f.startswith(folder + "/") and f.endswith((".pyf", ".pyf.src"))
             and "/tests/" not in f and f.count("/") <= folder.count("/") + 2]
    for path in sorted(files):
        text = _read(extractor, path)
        if not text or not re.search(r"python\s+module\s+%s\b" % re.escape(module_short), text, re.I):
            continue
        # numpy.distutils.from_template's predefined names
        defs = {"_c": ["s", "d", "c", "z"], "prefix": ["s", "d", "c", "z"],
                "_t": ["real", "double precision", "complex", "double complex"],
                "ftype": ["real", "double precision", "complex", "double complex"],
                "ctype": ["float", "double", "complex_float", "complex_double"]}
        for k, v in _SHORTHAND.findall(text):
            if "\n" not in v:
                defs[k] = [p.strip() for p in v.split(",")]
        names = []
        _scan(extractor, path, text, module_short, defs, names, set(), inside=None)
        return names
    return None


def _scan(extractor, path, text, module_short, defs, names, seen, inside):
    """Collect routines of the wanted module; ``inside``: None (look for the module), True (in it)."""
    if path in seen:
        return
    seen.add(path)
    folder = path.rsplit("/", 1)[0]
    depth = 0
    current = inside
    for line in text.splitlines():
        code = line.split("!", 1)[0]
        if not code.strip():
            continue
        m = _MODULE.match(code)
        if m:
            current = m.group(1) == module_short
            continue
        if _END_MODULE.match(code):
            if current:
                current = False
            continue
        if not current:
            continue
        inc = _INCLUDE.match(code)
        if inc:
            sub = folder + "/" + inc.group(1)
            t = _read(extractor, sub)
            if t:
                for k, v in _SHORTHAND.findall(t):
                    if "\n" not in v:
                        defs.setdefault(k, [p.strip() for p in v.split(",")])
                _scan(extractor, sub, t, module_short, defs, names, seen, inside=True)
            continue
        if _END.match(code):
            if re.match(r"^\s*end\s+(subroutine|function)\b", code, re.I) or re.match(r"^\s*end\s*$", code, re.I):
                depth = max(0, depth - 1)
            continue
        r = _ROUTINE.match(code)
        if r and depth == 0:
            depth += 1
            for n in _expand(r.group(2), defs):
                if n not in names:
                    names.append(n)
        elif r:
            depth += 1
