"""A virtual environment that has one release installed from its published wheels, as a user of that time would
have had it: the Python, and dependencies no newer than the release itself.

- **Python**: the library file's ``runtime.python`` for the release line, else the newest Python the machine has
  that a wheel of the release is built for (``cp38``, ``abi3``); for a pure release, the newest Python released
  before the release that its ``Requires-Python`` allows (the one its authors tested), else the oldest allowed.
- **Dependencies**: each requirement of the release constrained to its newest final version published before the
  release (``numpy<=1.18.1`` for pandas 1.0.0), so that an old release is not run against a future numpy it never
  saw; when pip finds no wheels that satisfy that for this Python, the constraints are dropped and said so. The
  requirements of those requirements are bounded the same way once pip has chosen them (Flask 1.1.0's Jinja2 2.10
  needs MarkupSafe, whose 2.1 removed the ``soft_unicode`` Jinja2 2.10 imports): where the first install brought a
  package newer than the release, it is brought back to its newest version published before the release.
- **Wheels only** (``--only-binary :all:``), except for a release that published none (SQLAlchemy 1.3: its sdist
  is built by pip, its optional C extensions may fail without harm).

The environment's packages (``pip freeze``) go into the surface's provenance, which is what it takes to make it
again.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

from .index import ProjectIndex, normalize, release_key

# first release of each Python minor (the newest Python a release could have been tested on)
PYTHON_RELEASED = {(3, 6): "2016-12-23", (3, 7): "2018-06-27", (3, 8): "2019-10-14", (3, 9): "2020-10-05",
                   (3, 10): "2021-10-04", (3, 11): "2022-10-24", (3, 12): "2023-10-02", (3, 13): "2024-10-07",
                   (3, 14): "2025-10-07"}


class EnvironmentError_(Exception):
    pass


def machine_pythons():
    """{(3, minor): interpreter} of the machine: ``ANACHRON_PYTHONS`` (paths separated by ``:``), else pyenv's
    versions and the ``python3.X`` on PATH. Each is asked for its version."""
    env = os.environ.get("ANACHRON_PYTHONS")
    if env:
        candidates = [p for p in env.split(os.pathsep) if p]
    else:
        root = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
        candidates = sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python3")))
        for minor in range(6, 20):
            found = shutil.which("python3.%d" % minor)
            if found:
                candidates.append(found)
    out = {}
    for path in candidates:
        try:
            r = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        m = re.match(r"^3\.(\d+)$", r.stdout.decode().strip())
        if r.returncode == 0 and m:
            out.setdefault((3, int(m.group(1))), path)
    return out


def allows(specifier, python):
    """Does a ``Requires-Python`` specifier (``>=3.6.1``, ``>=2.7,!=3.0.*``, ``~=3.7``) allow Python ``(3, minor)``
    (any of its patch releases)? Unknown clauses allow."""
    if not specifier:
        return True
    for clause in specifier.split(","):
        clause = clause.strip()
        m = re.match(r"^(~=|===|==|!=|<=|>=|<|>)\s*([0-9][0-9.]*)(\.\*)?$", clause)
        if not m:
            continue
        op, v, star = m.group(1), tuple(int(x) for x in m.group(2).split(".")), m.group(3)
        lo = tuple(python) + (0,)     # the minor's first patch release
        hi = tuple(python) + (999,)   # and its last
        vv = (v + (0, 0, 0))[:3]
        if op in ("==", "==="):
            ok = (tuple(python) == v[:2]) if (star or len(v) <= 2) else lo <= vv <= hi
        elif op == "!=":
            ok = not (tuple(python) == v[:2] and (star or len(v) <= 2))
        elif op == ">=":
            ok = hi >= vv
        elif op == ">":
            ok = hi > vv
        elif op == "<=":
            ok = lo <= vv
        elif op == "<":
            ok = lo < vv if not star else tuple(python) < v[:2]
        else:  # ~=: at least v, and the same release up to v's last component
            prefix = v[:max(len(v) - 1, 1)]
            ok = hi >= vv and tuple(python)[:len(prefix)] == prefix[:2]
        if not ok:
            return False
    return True


def _manylinux_ok(platform):
    return platform == "any" or (("manylinux" in platform or platform.startswith("linux_")) and
                                 platform.endswith("x86_64"))


def wheel_pythons(release_file, pythons):
    """The machine's Pythons a wheel installs on (by its tags and Requires-Python)."""
    out = set()
    for py, abi, plat in release_file.tags:
        if not _manylinux_ok(plat):
            continue
        m = re.match(r"^cp3(\d+)$", py)
        for p in pythons:
            if not allows(release_file.requires_python, p):
                continue
            if m and abi == "abi3" and p[1] >= int(m.group(1)):
                out.add(p)
            elif m and p[1] == int(m.group(1)):
                out.add(p)
            elif py in ("py3", "py2.py3") or (py.startswith("py3") and abi == "none"):
                out.add(p)
    return out


def choose_python(index, version, pythons, preferred=None):
    """(python, why) for ``version``, or (None, why) when no Python of the machine installs it."""
    if preferred:
        key = tuple(int(x) for x in preferred.split(".")[:2])
        if key in pythons:
            return key, "the library file's runtime.python"
        return None, "runtime.python says %s, which this machine does not have" % preferred
    wheels = index.wheels(version)
    compiled = set()
    pure = False
    for w in wheels:
        if any(t[2] == "any" for t in w.tags):
            pure = True
        else:
            compiled |= wheel_pythons(w, pythons)
    if compiled and not pure:
        return max(compiled), "the newest Python its wheels are built for"
    files = index.releases().get(version, [])
    spec = next((f.requires_python for f in files if f.requires_python), None)
    allowed = sorted(p for p in pythons if allows(spec, p))
    if wheels and pure:
        allowed = sorted(p for p in allowed if any(p in wheel_pythons(w, [p]) for w in wheels if
                                                    any(t[2] == "any" for t in w.tags)))
    if not allowed:
        return None, "no Python of this machine is allowed by Requires-Python %s" % spec
    uploaded = time.strftime("%Y-%m-%d", time.gmtime(index.upload_time(version)))
    before = [p for p in allowed if PYTHON_RELEASED.get(p, "9999") <= uploaded]
    if before:
        return max(before), "the newest Python released before it (%s)" % uploaded
    return min(allowed), "the oldest Python it allows"


def requirements_of(path):
    """Requirement names of a wheel's METADATA or an sdist's PKG-INFO/requires.txt (no extras)."""
    from ..archive import ArchiveTree

    tree = ArchiveTree(path)
    names = []
    for f in tree.files():
        if f.endswith(".dist-info/METADATA") or f == "PKG-INFO" or f.endswith(".egg-info/PKG-INFO"):
            head = (tree.read(f) or b"").decode("utf-8", "replace").split("\n\n", 1)[0]
            for line in head.splitlines():
                k, _, v = line.partition(":")
                if k.strip().lower() == "requires-dist" and "extra" not in v.partition(";")[2]:
                    names.append(v.strip())
        elif f.endswith(".egg-info/requires.txt"):
            from ..static.modules import requires_txt

            names.extend(requires_txt((tree.read(f) or b"").decode("utf-8", "replace")))
    out = []
    for n in names:
        m = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)", n)
        if m and normalize(m.group(1)) not in out:
            out.append(normalize(m.group(1)))
    return out


def constraints_before(requirements, when, cache_dir=None, log=None):
    """["dep<=V"…]: each requirement's newest final release published no later than ``when``."""
    out = []
    for dep in requirements:
        try:
            ix = ProjectIndex(dep, cache_dir=cache_dir)
        except Exception as e:  # a requirement the index does not know stays unconstrained
            if log:
                log("  %s: no constraint (%s)" % (dep, e))
            continue
        versions = [v for v in ix.releases() if 0 < ix.upload_time(v) <= when]
        if versions:
            out.append("%s<=%s" % (dep, max(versions, key=release_key)))
    return out


_TOOLS = ("pip", "setuptools", "wheel", "distribute")


def _freeze(venv_python):
    code, text = _run([venv_python, "-m", "pip", "--disable-pip-version-check", "freeze", "--all"])
    return sorted(l for l in text.splitlines() if "==" in l)


def too_new(packages, bounds, skip=()):
    """["dep<=V"…] of the installed ``packages`` (pip freeze lines) newer than their bound in ``bounds``
    (["dep<=V"…]), leaving out the names in ``skip``."""
    bound = dict((normalize(b.split("<=")[0]), b.split("<=")[1]) for b in bounds)
    out = []
    for line in packages:
        name, _, version = line.partition("==")
        n = normalize(name)
        if n in skip or n not in bound:
            continue
        try:
            newer = release_key(version) > release_key(bound[n])
        except Exception:
            continue
        if newer:
            out.append("%s<=%s" % (n, bound[n]))
    return out


def _bound_transitive(pip, index_url, binary, cfile, constraints, spec, distribution, packages, when, cache_dir,
                      venv_python, log):
    """The installed requirements of requirements brought back to the release's time (see the module's doc); the
    packages as installed in the end."""
    direct = set(normalize(c.split("<=")[0]) for c in constraints)
    skip = direct | set([normalize(distribution)]) | set(_TOOLS)
    others = [l.partition("==")[0] for l in packages if normalize(l.partition("==")[0]) not in skip]
    more = constraints_before([normalize(n) for n in others], when, cache_dir)
    back = too_new(packages, more, skip)
    if not back:
        return packages
    with open(cfile, "w") as f:
        f.write("".join(c + "\n" for c in constraints + more))
    code, text = _run(pip + ["install", "--index-url", index_url] + binary + ["-c", cfile, spec] + back)
    if code != 0:
        if log:
            log("  %s: its dependencies' requirements stay as pip chose them (%s could not be installed: %s)"
                % (spec, " ".join(back), text.strip().splitlines()[-1:]))
        return packages
    if log:
        log("  %s: dependencies' requirements brought back to the release's time: %s" % (spec, " ".join(back)))
    return _freeze(venv_python)


def _run(argv, log=None, timeout=1800):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    text = r.stdout.decode("utf-8", "replace")
    return r.returncode, text


class Environment(object):
    def __init__(self, path, python, packages, constrained, why):
        self.path = path
        self.python = python  # the venv's interpreter
        self.packages = packages  # pip freeze lines
        self.constrained = constrained
        self.why = why


def _fill_environment(distribution, version, index, path, pythons, py, extra, log):
    """Make the venv at ``path`` and install the release (and ``extra``) into it; returns (packages, constrained)."""
    venv_python = os.path.join(path, "bin", "python")
    code, text = _run([pythons[py], "-m", "venv", path])
    if code != 0:
        raise EnvironmentError_("venv for Python %d.%d failed: %s" % (py[0], py[1], text.strip()[-500:]))
    pip = [venv_python, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    index_url = index.index_url
    # the pip an old Python's venv comes with predates the manylinux tags of later wheels; an index without pip
    # (a local one) leaves it as it is
    code, text = _run(pip + ["install", "--index-url", index_url, "--upgrade", "pip"])
    if code != 0 and log:
        log("  pip not upgraded in %s (%s): the venv's own pip installs" % (path, text.strip().splitlines()[-1:]))
    wheels = index.wheels(version)
    sample = (wheels or [index.sdist(version)])[0]
    requirements = requirements_of(index.download(sample)) if sample is not None else []
    requirements += [n for n in extra if n not in requirements]
    when = index.upload_time(version)
    constraints = constraints_before(requirements, when, index.cache_dir, log)
    binary = ["--only-binary", ":all:"] if wheels else ["--prefer-binary"]
    cfile = os.path.join(path, "anachron-constraints.txt")
    with open(cfile, "w") as f:
        f.write("".join(c + "\n" for c in constraints))
    spec = "%s==%s" % (distribution, version)
    code, text = _run(pip + ["install", "--index-url", index_url] + binary + ["-c", cfile, spec] + extra)
    constrained = True
    if code != 0:
        if log:
            log("  %s: no wheels within the constraints for Python %d.%d; installing without them"
                % (spec, py[0], py[1]))
        constrained = False
        code, text = _run(pip + ["install", "--index-url", index_url] + binary + [spec] + extra)
        if code != 0:
            raise EnvironmentError_("pip install %s failed: %s" % (spec, text.strip()[-800:]))
    packages = _freeze(venv_python)
    if constrained:
        packages = _bound_transitive(pip, index_url, binary, cfile, constraints, spec, distribution, packages, when,
                                     index.cache_dir, venv_python, log)
    return packages, constrained


def make_environment(library, distribution, version, index, venv_root, pythons, preferred=None, log=None,
                     extra_requirements=()):
    """The venv with ``distribution==version`` (made once; ``.anachron-ready`` marks it complete), and the
    library file's ``runtime.venv-requirements`` (``extra_requirements``: optional requirements that change the
    surface) installed beside it, bounded to the release's time like its own requirements."""
    extra = [normalize(n) for n in extra_requirements]
    py, why = choose_python(index, version, pythons, preferred)
    if py is None:
        raise EnvironmentError_("%s %s: %s" % (distribution, version, why))
    path = os.path.join(venv_root, "%s-%s-py%d.%d" % (library, version, py[0], py[1]))
    ready = os.path.join(path, ".anachron-ready")
    venv_python = os.path.join(path, "bin", "python")
    if os.path.exists(ready):
        with open(ready) as f:
            info = json.load(f)
        if info.get("extra", []) == extra:
            return Environment(path, venv_python, info["packages"], info["constrained"], info["why"])
    if os.path.exists(path):
        shutil.rmtree(path)
    try:
        packages, constrained = _fill_environment(distribution, version, index, path, pythons, py, extra, log)
    except BaseException:
        shutil.rmtree(path, ignore_errors=True)  # a venv that could not be made is not kept half-made
        raise
    with open(ready, "w") as f:
        json.dump({"packages": packages, "constrained": constrained, "why": why, "extra": extra}, f)
    return Environment(path, venv_python, packages, constrained, why)
