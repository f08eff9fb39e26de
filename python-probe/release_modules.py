#!/usr/bin/env python3
"""python3 release_modules.py ARCHIVE: what a release file (wheel or sdist) says about itself, as JSON on stdout.

{"name": …, "version": …, "requires_python": …, "modules": [top-level import names], "layout": "top_level.txt" |
"files"}. Read in memory with anachron_probe.archive (nothing is unpacked, built or run); the modules are the
release's own top_level.txt (a wheel's dist-info, an sdist's egg-info) when it has one, else the packages and
modules its files make (tests, docs, examples, build scripts and private names left out). anachron's `matrix
fetch` then runs static.py --source ARCHIVE once per module. Exit 2 when the archive cannot be read.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe.archive import ArchiveError, ArchiveTree  # noqa: E402

_NOT_LIBRARY = {"test", "tests", "testing", "doc", "docs", "example", "examples", "benchmark", "benchmarks",
                "bench", "scripts", "tools", "build", "dist", "setup", "conftest", "noxfile", "tasks", "fabfile",
                "ez_setup", "distribute_setup", "bootstrap", "versioneer", "runtests", "pavement", "site-packages"}
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _metadata(tree):
    """Name, Version and Requires-Python from the wheel's METADATA or the sdist's PKG-INFO."""
    names = [n for n in tree.files() if re.match(r"^[^/]+\.dist-info/METADATA$", n)] or \
        [n for n in tree.files() if n == "PKG-INFO"] or \
        [n for n in tree.files() if re.match(r"^([^/]+/)?[^/]+\.egg-info/PKG-INFO$", n)]
    out = {}
    for n in names[:1]:
        data = tree.read(n) or b""
        for line in data.decode("utf-8", "replace").splitlines():
            if not line.strip():
                break  # the body (description) follows the headers
            key, sep, value = line.partition(":")
            if sep and key in ("Name", "Version", "Requires-Python") and key not in out:
                out[key] = value.strip()
    return out


def _top_level_txt(tree):
    names = [n for n in tree.files() if re.match(r"^[^/]+\.dist-info/top_level\.txt$", n)] or \
        [n for n in tree.files() if re.match(r"^(src/)?[^/]+\.egg-info/top_level\.txt$", n)]
    for n in names[:1]:
        data = tree.read(n) or b""
        mods = [m.strip().split("/")[-1] for m in data.decode("utf-8", "replace").splitlines() if m.strip()]
        return [m for m in mods if _IDENTIFIER.match(m)]
    return None


def _installed_path(name):
    """A wheel member as installed: ``pkg-1.0.data/purelib/x/y.py`` is ``x/y.py``."""
    m = re.match(r"^[^/]+\.data/(purelib|platlib)/(.*)$", name)
    return m.group(2) if m else name


def _from_files(tree, is_wheel):
    """Top-level packages (a folder with __init__.py), modules (a .py at the top) and, in a wheel, namespace
    folders; an sdist's loose top-level scripts and folders are not the library."""
    kinds = {}
    for raw in tree.files():
        name = _installed_path(raw) if is_wheel else raw
        if not name.endswith((".py", ".pyi")):
            continue
        parts = name.split("/")
        if not is_wheel and parts[0] == "src" and len(parts) > 1:
            parts = parts[1:]
        if len(parts) == 1:
            top, kind = parts[0].rsplit(".", 1)[0], "module"
        elif len(parts) == 2 and parts[1] in ("__init__.py", "__init__.pyi"):
            top, kind = parts[0], "package"
        else:
            top, kind = parts[0], "folder"
        if not _IDENTIFIER.match(top) or top.startswith("_") or top.lower() in _NOT_LIBRARY:
            continue
        rank = {"package": 0, "module": 1, "folder": 2}
        if top not in kinds or rank[kind] < rank[kinds[top]]:
            kinds[top] = kind
    return sorted(top for top, kind in kinds.items() if is_wheel or kind == "package")


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    path = args[0]
    try:
        tree = ArchiveTree(path)
    except ArchiveError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    is_wheel = path.lower().endswith(".whl")
    meta = _metadata(tree)
    listed = _top_level_txt(tree)
    modules = [m for m in (listed or []) if not m.startswith("_") and m.lower() not in _NOT_LIBRARY]
    layout = "top_level.txt"
    if not modules:
        modules = _from_files(tree, is_wheel)
        layout = "files"
        if not is_wheel and not modules:
            # a single-module sdist (six.py beside setup.py): the module named like the distribution
            wanted = re.sub(r"[-.]+", "_", meta.get("Name", "")).lower()
            loose = [n[:-3] for n in tree.files() if "/" not in n and n.endswith(".py") and n[:-3].lower() == wanted]
            modules = loose
    json.dump({"name": meta.get("Name"), "version": meta.get("Version"), "requires_python": meta.get("Requires-Python"),
               "modules": modules, "layout": layout}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
