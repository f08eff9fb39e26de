"""The library files (``libraries/NAME.toml``, format in ``libraries/README.md``) for the Python stages: the static
extractor's release plans and requirement names, the docs reader's pages. Defaults are those of
``server/src/core/library-definition.ts``, which also checks the files (a test compares both readers on every file).

    python3 -m anachron_probe.libraries NAME     # the definition as JSON, with every default filled in
"""
import json
import os
import re
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


class LibraryFileError(Exception):
    pass


def libraries_folder():
    """``ANACHRON_LIBRARIES``, else ``libraries/`` of the checkout python-probe belongs to."""
    env = os.environ.get("ANACHRON_LIBRARIES")
    return os.path.abspath(env) if env else os.path.join(os.path.dirname(os.path.dirname(_HERE)), "libraries")


def _read_toml(path):
    try:
        import tomllib
    except ImportError:
        raise LibraryFileError("%s: reading library files needs Python 3.11+ (tomllib); this is %d.%d"
                               % (path, sys.version_info[0], sys.version_info[1]))
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise LibraryFileError("%s: %s" % (path, e.strerror or e))
    except tomllib.TOMLDecodeError as e:
        raise LibraryFileError("%s: %s" % (path, e))


def normalize_distribution(name):
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def _definition(data, name):
    rel = data.get("releases")
    st = data.get("static")
    dc = data.get("docs")
    rt = data.get("runtime") or {}
    return {
        "name": data.get("name", name),
        "distribution": normalize_distribution(data.get("distribution", name)),
        "otherDistributions": [normalize_distribution(d) for d in data.get("other-distributions", [])],
        "modules": data.get("modules") or [data.get("name", name)],
        "summary": data.get("summary", ""),
        "knowledge": data.get("knowledge"),
        "releases": None if rel is None else {
            "first": rel.get("first"),
            "last": rel.get("last"),
            "patches": rel.get("patches", True),
            "extra": list(rel.get("extra", [])),
            "skip": list(rel.get("skip", [])),
            "tagVersions": dict(rel.get("tag-versions", {})),
        },
        "static": None if st is None else {
            "from": st.get("from", "pypi"),
            "repository": st.get("repository"),
            "tag": st.get("tag", "v{version}"),
            "packageDir": st.get("package-dir"),
            "reexports": list(st.get("reexports", [])),
            "requires": list(st.get("requires", [])),
            "decoratorParameters": dict(st.get("decorator-parameters", {})),
        },
        "docs": None if dc is None else {
            "from": dc.get("from", "git"),
            "repository": dc.get("repository"),
            "tag": dc.get("tag"),
            "releaseCommit": dc.get("release-commit"),
            "root": dc.get("root", "doc"),
            "pages": [list(g) for g in dc.get("pages", [])],
            "moduleDocstrings": list(dc.get("module-docstrings", [])),
            "referenceDicts": list(dc.get("reference-dicts", [])),
        },
        "runtime": {
            "venv": rt.get("venv", False),
            "python": dict(rt.get("python", {})),
            "venvRequirements": list(rt.get("venv-requirements", [])),
            "debianPackage": rt.get("debian-package"),
            "debianSuites": list(rt.get("debian-suites", [])),
            "debianExtraPackages": list(rt.get("debian-extra-packages", [])),
            "smokeTest": rt.get("smoke-test"),
        },
    }


_CACHE = {}


def load(name, folder=None):
    """The definition of library ``name`` (a dict shaped like the TypeScript ``LibraryDefinition``)."""
    folder = folder or libraries_folder()
    key = (folder, name)
    if key not in _CACHE:
        path = os.path.join(folder, name + ".toml")
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name) or not os.path.isfile(path):
            known = ", ".join(sorted(known_libraries(folder)))
            raise LibraryFileError("no library file %s (known: %s)" % (path, known or "none"))
        _CACHE[key] = _definition(_read_toml(path), name)
    return _CACHE[key]


def find(name, folder=None):
    """``load(name)``, or None when there is no library file for it."""
    folder = folder or libraries_folder()
    return load(name, folder) if os.path.isfile(os.path.join(folder, name + ".toml")) else None


def known_libraries(folder=None):
    folder = folder or libraries_folder()
    try:
        return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".toml") and n != "distributions.toml")
    except OSError:
        return []


def import_names(folder=None):
    """{normalised distribution: top-level module} from every library file and distributions.toml."""
    folder = folder or libraries_folder()
    key = (folder, "<import-names>")
    if key not in _CACHE:
        out = {}
        path = os.path.join(folder, "distributions.toml")
        if os.path.isfile(path):
            for dist, mod in _read_toml(path).get("import-names", {}).items():
                out[normalize_distribution(dist)] = mod
        for name in known_libraries(folder):
            d = load(name, folder)
            for dist in [d["distribution"]] + d["otherDistributions"]:
                out[dist] = d["name"]
        _CACHE[key] = out
    return _CACHE[key]


def import_name_of(distribution, folder=None):
    """The module a distribution installs (library files, distributions.toml, else "-" as "_")."""
    n = normalize_distribution(distribution)
    return import_names(folder).get(n, n.replace("-", "_"))


def tag_of(definition, version, pattern=None):
    """The tag of ``version`` (through ``tag-versions``) under ``pattern`` (default: the static source's)."""
    rel = definition.get("releases") or {}
    tag_version = next((t for t, v in (rel.get("tagVersions") or {}).items() if v == version), version)
    pattern = pattern or ((definition.get("static") or {}).get("tag")) or "v{version}"
    return pattern.replace("{version}", tag_version)


def mirror_dir(repository):
    """Where the bare mirror of ``github:owner/name`` lies: ``$ANACHRON_MIRRORS/owner+name/repo``. There is no default
    folder (machines differ): without the variable this is an error that says what to set."""
    if not repository or not repository.startswith("github:"):
        raise LibraryFileError("not a github:owner/name repository: %r" % (repository,))
    owner, _, name = repository[len("github:"):].partition("/")
    mirrors = os.environ.get("ANACHRON_MIRRORS")
    if not mirrors:
        raise LibraryFileError("%s is read from a bare mirror: set ANACHRON_MIRRORS to the folder holding "
                               "owner+name/repo mirrors (or pass the git folder explicitly)" % (repository,))
    return os.path.join(mirrors, "%s+%s" % (owner, name), "repo")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        sys.stderr.write("usage: python3 -m anachron_probe.libraries NAME\n")
        return 2
    try:
        sys.stdout.write(json.dumps(load(argv[0]), sort_keys=True) + "\n")
    except LibraryFileError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
