"""The modules a source tree installs: Python files, Cython sources, stubs of compiled modules, and extension
modules declared by the build files (setup.py / meson.build / f2py signature files)."""
import re

from ..libraries import find, import_name_of


class ModuleInfo(object):
    def __init__(self, name, path, is_package, kind):
        self.name = name
        self.path = path
        self.is_package = is_package
        self.kind = kind  # py | pyx | stub | compiled


class Layout(object):
    def __init__(self):
        self.modules = {}
        self.stubs = {}  # module name -> (path, is_package)
        self.target_python = None
        # oldest Python the release supports: what exists on *some* supported Python exists at that release (a
        # subpackage installed only below 3.12, like numpy.distutils, is not an anachronism on 3.11)
        self.oldest_python = None
        self.python_conditional = {}  # module -> why the build installs it for some supported Pythons only
        self.requirements = set()


_EXT_SETUP = re.compile(r"""add_extension\(\s*['"]([A-Za-z_][\w.]*)['"]""")
_EXT_MESON = re.compile(r"""extension_module\(\s*['"]([A-Za-z_][\w.]*)['"]""")
_PYF_MODULE = re.compile(r"^\s*python\s+module\s+([A-Za-z_]\w*)", re.M | re.I)
_PY_CLASSIFIER = re.compile(r"Programming Language :: Python :: 3\.(\d+)")
_REQUIRES_PYTHON = re.compile(r"""requires[-_]python\s*=\s*['"]\s*>=\s*3\.(\d+)""")
_TEMPLATE_SUFFIXES = (".pyx.in", ".pyx.tp", ".pyx.templ")


def _dotted(rel):
    return rel.replace("/", ".")


def discover(extractor, library, package_dir):
    files = extractor.files
    layout = Layout()
    prefix = package_dir + "/"
    pkg_files = [f for f in files if f.startswith(prefix) or f == package_dir]
    # packages: directories holding __init__.py (or a Cython __init__)
    package_dirs = set()
    all_dirs = set()
    for f in pkg_files:
        base = f.rsplit("/", 1)
        if len(base) == 2 and base[1] in ("__init__.py", "__init__.pyx"):
            package_dirs.add(base[0])
        d = base[0] if len(base) == 2 else ""
        while d.startswith(prefix):
            all_dirs.add(d)
            d = d.rsplit("/", 1)[0]
    # folders without __init__ import as namespace packages (the runtime walk does not list them)
    py_dirs = set()
    for f in pkg_files:
        if f.endswith(".py"):
            d = f.rsplit("/", 1)[0]
            while d.startswith(prefix) and d not in py_dirs:
                py_dirs.add(d)
                d = d.rsplit("/", 1)[0]
    namespace_dirs = set(d for d in all_dirs if d not in package_dirs and d in py_dirs
                         and _identifier(d.rsplit("/", 1)[1]))

    meson = _uses_meson(extractor, files)
    forced = getattr(extractor, "forced_target", None)
    layout.target_python = forced or _target_python(extractor, files)
    # a forced target (the batch gives patch releases their minor's) moves the newest Python only
    layout.oldest_python = _oldest_python(extractor, files, layout.target_python)
    conditional_dirs = {}
    installed = _installed_dirs(extractor, files, package_dir, package_dirs | namespace_dirs, meson,
                                _python_range(layout.oldest_python, layout.target_python), conditional_dirs)
    importable_dirs = package_dirs | namespace_dirs

    def importable(dirpath):
        # every directory from the package root down must be a package, and be installed
        if dirpath != package_dir and dirpath not in installed:
            return False
        if dirpath == package_dir:
            return package_dir in package_dirs
        if not dirpath.startswith(prefix):
            return False
        parts = dirpath[len(prefix):].split("/")
        d = package_dir
        if d not in package_dirs:
            return False
        for p in parts:
            d = d + "/" + p
            if d not in importable_dirs or d not in installed:
                return False
        return True

    def modname(dirpath, stem):
        rel = dirpath[len(prefix):] if dirpath != package_dir else ""
        parts = [library] + ([p for p in rel.split("/")] if rel else [])
        if stem != "__init__":
            parts.append(stem)
        return ".".join(parts)

    layout.python_conditional = dict((modname(d, "__init__"), why) for d, why in conditional_dirs.items())

    build_files = []
    for f in pkg_files:
        d, _, fname = f.rpartition("/")
        if not importable(d):
            if fname in ("setup.py", "meson.build") or fname.endswith((".pyf", ".pyf.src")):
                build_files.append(f)
            continue
        if fname.endswith(".py"):
            stem = fname[:-3]
            if not _identifier(stem):
                continue
            name = modname(d, stem)
            layout.modules[name] = ModuleInfo(name, f, stem == "__init__", "py")
            if fname == "setup.py":
                build_files.append(f)
        elif fname.endswith(".pyx") or fname.endswith(_TEMPLATE_SUFFIXES):
            stem = fname.split(".", 1)[0]
            if not _identifier(stem):
                continue
            name = modname(d, stem)
            existing = layout.modules.get(name)
            if existing is None or existing.kind != "py":
                layout.modules[name] = ModuleInfo(name, f, stem == "__init__", "pyx")
        elif fname.endswith(".pyi"):
            stem = fname[:-4]
            if not _identifier(stem):
                continue
            name = modname(d, stem)
            layout.stubs[name] = (f, stem == "__init__")
        elif fname == "meson.build" or fname.endswith((".pyf", ".pyf.src")):
            build_files.append(f)
        elif fname.endswith((".so", ".pyd")):
            # an installed extension module (a wheel's): ``name.cpython-311-x86_64-linux-gnu.so``, ``name.abi3.so``
            stem = fname.split(".", 1)[0]
            name = modname(d, stem)
            if _identifier(stem) and name not in layout.modules:
                layout.modules[name] = ModuleInfo(name, None, False, "compiled")
    for d in sorted(namespace_dirs):
        if importable(d):
            name = modname(d, "__init__")
            if name not in layout.modules:
                layout.modules[name] = ModuleInfo(name, None, True, "namespace")
    # extension modules declared by build files, in the folder of the build file
    declared = set()
    for f in build_files:
        d, _, fname = f.rpartition("/")
        if not importable(d):
            continue
        text = extractor.read_text(f)
        if not text:
            continue
        names = []
        if fname == "setup.py":
            names = _EXT_SETUP.findall(text)
        elif fname == "meson.build":
            names = _EXT_MESON.findall(text)
        else:
            # f2py callback modules (``python module foo__user__routines``) are not extension modules
            names = [n for n in _PYF_MODULE.findall(text) if not n.endswith("__user__routines")]
        for n in names:
            parts = n.split(".")
            if not all(_identifier(p) for p in parts):
                continue
            if "." in n:
                # setup.py of a parent naming 'sub.ext'
                name = modname(d, parts[0]) + ("." + ".".join(parts[1:]) if len(parts) > 1 else "")
            else:
                name = modname(d, n)
            declared.add(name)
            existing = layout.modules.get(name)
            if existing is None or existing.kind == "namespace":
                parent = name.rsplit(".", 1)[0]
                if parent in layout.modules or parent == library:
                    layout.modules[name] = ModuleInfo(name, None, False, "compiled")
    # compiled modules known only from their stubs. Where the build files do declare extension modules, a stub
    # none of them matches describes an attribute, not a module: numpy 1.20's char.pyi is numpy.char, which
    # numpy binds to numpy.core.defchararray (``import numpy.char`` fails there).
    for name, (path, is_pkg) in layout.stubs.items():
        if declared and not is_pkg and name not in declared and name not in layout.modules:
            continue
        if name not in layout.modules or layout.modules[name].kind == "namespace":
            parent = name.rsplit(".", 1)[0]
            if is_pkg or parent in layout.modules:
                layout.modules[name] = ModuleInfo(name, None, is_pkg, "compiled")
    layout.requirements = _requirements(extractor, files, library)
    return layout


def _identifier(s):
    return s.isidentifier()


def _metadata_files(files):
    """Core metadata a published file carries: an sdist's PKG-INFO (and its egg-info, beside the package:
    ``lib/matplotlib.egg-info``), a wheel's METADATA."""
    return [f for f in files if f == "PKG-INFO" or (f.count("/") <= 2 and (
        f.endswith(".egg-info/PKG-INFO") or f.endswith(".dist-info/METADATA")))]


def _metadata_fields(extractor, files, field):
    """Values of ``field`` (``Requires-Python``, ``Classifier``, ``Requires-Dist``) in the metadata files."""
    out = []
    for f in _metadata_files(files):
        text = extractor.read_text(f) or ""
        head = text.split("\n\n", 1)[0]  # headers end at the first blank line (the description follows)
        for line in head.splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip().lower() == field.lower():
                out.append(value.strip())
    return out


def _target_python(extractor, files):
    """Newest Python 3 minor the release declares (classifiers), e.g. (3, 11); None when not declared."""
    best = None
    texts = [extractor.read_text(f) or "" for f in ("setup.py", "pyproject.toml", "setup.cfg") if f in files]
    texts.extend(_metadata_fields(extractor, files, "Classifier"))
    for text in texts:
        for m in _PY_CLASSIFIER.finditer(text):
            v = int(m.group(1))
            best = v if best is None or v > best else best
    if best is None:
        return None
    return (3, best)


def _oldest_python(extractor, files, target):
    """Oldest Python 3 minor the release declares (``requires-python``/``python_requires`` ``>=3.N``, or the
    metadata's ``Requires-Python``), never newer than the target; None when not declared."""
    texts = [extractor.read_text(f) or "" for f in ("pyproject.toml", "setup.py", "setup.cfg") if f in files]
    texts.extend("requires_python = '%s'" % v for v in _metadata_fields(extractor, files, "Requires-Python"))
    for text in texts:
        m = _REQUIRES_PYTHON.search(text)
        if m:
            oldest = (3, int(m.group(1)))
            return min(oldest, tuple(target[:2])) if target else oldest
    return None


def _python_range(oldest, target):
    """The Python minors a build condition is decided for: every supported one (the target alone when the oldest
    is not declared)."""
    if target is None:
        return None
    lo = tuple((oldest or target)[:2])
    return [(3, m) for m in range(lo[1], target[1] + 1)] if lo[0] == target[0] == 3 else [tuple(target[:2])]


def _range_text(pythons):
    """"3.10–3.11" for [(3, 10), (3, 11)]."""
    if not pythons:
        return "none"
    lo, hi = min(pythons), max(pythons)
    return "%d.%d" % lo if lo == hi else "%d.%d–%d.%d" % (lo + hi)


_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def requires_txt(text):
    """The install requirements of an egg-info ``requires.txt``: the lines before any section and those of
    ``[:marker]`` sections (conditional on the environment, not extras)."""
    out = []
    install = True
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            install = s.startswith("[:")
        elif s and install:
            out.append(s)
    return out


def _requirements(extractor, files, library):
    """Import names of the hard requirements (requirements.txt, install_requires, [project] dependencies)."""
    out = set()
    texts = []
    for f in ("requirements.txt",):
        if f in files:
            texts.extend((extractor.read_text(f) or "").splitlines())
    for f in ("setup.py", "pyproject.toml"):
        if f not in files:
            continue
        text = extractor.read_text(f) or ""
        for block in re.findall(r"(?:install_requires|dependencies)\s*=\s*\[(.*?)\]", text, re.S):
            texts.extend(re.findall(r"""['"]([^'"]+)['"]""", block))
        for m in re.finditer(r"""(?:install_requires|dependencies)\s*=\s*['"]([^'"]+)['"]""", text):
            texts.append(m.group(1))
    # the metadata of a published file: Requires-Dist without an extra marker, egg-info's requires.txt
    texts.extend(v for v in _metadata_fields(extractor, files, "Requires-Dist") if "extra" not in v.partition(";")[2])
    for f in files:
        if f.count("/") <= 2 and f.endswith(".egg-info/requires.txt"):  # lib/matplotlib.egg-info too
            texts.extend(requires_txt(extractor.read_text(f) or ""))
    for line in texts:
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        m = _REQ_NAME.match(line)
        if not m:
            continue
        dist = m.group(1).lower()
        out.add(import_name_of(dist))
    out.add(library)
    # what the library re-exports, and what its file says every release needs, are dependencies however its
    # build declares them
    definition = find(library)
    if definition and definition["static"]:
        out.update(definition["static"]["reexports"])
        out.update(definition["static"].get("requires", []))
    return out


def _uses_meson(extractor, files):
    if "pyproject.toml" not in files:
        return False
    text = extractor.read_text("pyproject.toml") or ""
    return "mesonpy" in text or "meson-python" in text


_VERSION_COMPARE = re.compile(r"version\(\)\.version_compare\(\s*'(<=|>=|<|>|==|!=)\s*(\d+)\.(\d+)'\s*\)")


def _meson_condition(cond, pythons):
    """The values a Python-version condition takes over ``pythons`` (a set of booleans), None when not one."""
    m = _VERSION_COMPARE.search(cond)
    if not m or not pythons:
        return None
    op, v = m.group(1), (int(m.group(2)), int(m.group(3)))
    compare = {"<": lambda t: t < v, "<=": lambda t: t <= v, ">": lambda t: t > v, ">=": lambda t: t >= v,
               "==": lambda t: t == v, "!=": lambda t: t != v}[op]
    return frozenset(compare(tuple(t[:2])) for t in pythons)


def _meson_active_mention(text, name, pythons):
    """Is ``'name'`` mentioned in a part of meson.build that applies to some supported Python? "all" when to every
    one, "some" when to some only (numpy's ``distutils``, below 3.12), None when to none."""
    pat = re.compile(r"['\"]%s['\"]" % re.escape(name))
    stack = []
    found = None
    for line in text.splitlines():
        s = line.split("#", 1)[0].strip()
        if s.startswith("if ") or s.startswith("if("):
            stack.append([_meson_condition(s, pythons), False])
            continue
        if s.startswith("elif ") and stack:
            stack[-1] = [_meson_condition(s, pythons), False]
            continue
        if s == "else" and stack:
            stack[-1][1] = True
            continue
        if s == "endif" and stack:
            stack.pop()
            continue
        if pat.search(s):
            ok = True
            for cond, in_else in stack:
                if cond is not None and (not in_else) not in cond:
                    ok = False
            if ok:
                if all(cond is None or len(cond) == 1 for cond, _ in stack):
                    return "all"
                found = "some"
    return found


def _installed_dirs(extractor, files, package_dir, package_dirs, meson, pythons=None, conditional=None):
    """Package folders the build installs. A build file in the parent folder decides: setup.py must
    ``add_subpackage('name')``, meson.build must name the folder; a parent without build files passes its own
    state on (setuptools ``find_packages`` layouts install everything)."""
    fileset = set(files)
    quoted_meson = {}

    def meson_mentions(parent, name, rel):
        key = parent + "/meson.build"
        text = quoted_meson.get(key)
        if text is None:
            text = quoted_meson[key] = extractor.read_text(key) or ""
        return _meson_active_mention(text, name, pythons)

    all_meson = None
    # ``install_subdir('sklearn', ...)``: meson installs that folder whole (scikit-learn's top-level meson.build)
    whole = set()
    if meson:
        for f in files:
            if f == "meson.build" or f.endswith("/meson.build"):
                base = f.rpartition("/")[0]
                for m in re.finditer(r"""install_subdir\(\s*['"]([^'"]+)['"]""", extractor.read_text(f) or ""):
                    whole.add((base + "/" if base else "") + m.group(1).strip("/"))
    out = set()
    for d in sorted(package_dirs, key=lambda p: p.count("/")):
        if d == package_dir:
            out.add(d)
            continue
        parent, _, name = d.rpartition("/")
        if parent != package_dir and parent not in out:
            continue
        if name in ("tests", "test"):
            out.add(d)  # installed with their package (the walk skips them; imports into them work)
            continue
        setup_file = parent + "/setup.py"
        meson_file = parent + "/meson.build"
        if meson and any(d == w or d.startswith(w + "/") for w in whole):
            ok = True
        elif meson and meson_file in fileset:
            ok = meson_mentions(parent, name, d)
            if ok == "some" and conditional is not None:
                conditional[d] = "installed for Python %s only" % _range_text(
                    [t for t in pythons if _meson_active_mention(quoted_meson[meson_file], name, [t])])
            if not ok:
                if all_meson is None:
                    all_meson = "\n".join(extractor.read_text(f) or "" for f in files if f.endswith("meson.build"))
                ok = ("'%s'" % d) in all_meson or ('"%s"' % d) in all_meson
        elif not meson and setup_file in fileset:
            text = extractor.read_text(setup_file) or ""
            ok = bool(re.search(r"add_subpackage\(\(?\s*['\"]%s(['\"]|[./])" % re.escape(name), text))
        else:
            ok = True
        if ok:
            out.add(d)
    return out
