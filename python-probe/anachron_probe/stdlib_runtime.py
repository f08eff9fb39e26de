"""The standard library of the running interpreter as one surface (library "python", version "3.M"), walked with
the runtime probe's rules: every public top-level standard-library module is a root, and every module of the
standard library (private ones such as ``_io`` or ``posixpath`` included) counts as the library's own."""
import os
import pkgutil
import sys
import sysconfig
import types

from .walker import Probe, _safe_getattr, classify, is_constant, is_public_module

# Importing these has effects (a browser tab, printed text, a GUI, the test suite) or they exist only to be
# run; none is an API that code imports.
NOT_WALKED = frozenset(("antigravity", "this", "idlelib", "turtledemo", "test", "__main__", "pydoc_data", "lib2to3.tests"))


def stdlib_top_level_names():
    """Every top-level module name of this interpreter's standard library (public and private)."""
    names = set(sys.builtin_module_names)
    listed = getattr(sys, "stdlib_module_names", None)
    if listed:
        names.update(listed)
    else:  # Python < 3.10: the standard library's folders
        paths = sysconfig.get_paths()
        folders = [paths["stdlib"], paths.get("platstdlib") or paths["stdlib"]]
        folders += [os.path.join(f, "lib-dynload") for f in folders]
        for info in pkgutil.iter_modules([f for f in folders if os.path.isdir(f)]):
            names.add(info.name)
    names.discard("site-packages")
    return names


def public_roots(names):
    return sorted(n for n in names if is_public_module(n) and n not in NOT_WALKED and not n.startswith("xx"))


class StdlibProbe(Probe):
    """One root of the standard library; ``stdlib`` is the set of every top-level standard-library module."""

    def __init__(self, root, guard, stdlib):
        Probe.__init__(self, root, guard)
        self.stdlib = stdlib

    def in_library(self, module_name):
        return isinstance(module_name, str) and module_name.split(".")[0] in self.stdlib

    def public_names(self, module_name, module, public_path):
        """As the library probe; in a module without ``__all__``, a name it imports from another public module
        (``contextlib.deque``, ``smtplib.re``, tkinter's star imports) is not exported, so a class's members are
        recorded where it is defined, not under every module that imports it."""
        names = Probe.public_names(self, module_name, module, public_path)
        if _safe_getattr(module, "__all__") is not None:
            return names
        return [(name, obj, exported and self._defined_in(module_name, obj)) for name, obj, exported in names]

    @staticmethod
    def _defined_in(module_name, obj):
        home = _safe_getattr(obj, "__name__") if isinstance(obj, types.ModuleType) else _safe_getattr(obj, "__module__")
        if not isinstance(home, str) or is_constant(obj):
            return True
        if home == module_name or home.startswith(module_name + "."):
            return True
        # Implementation modules (_io behind io, _collections_abc behind collections.abc) are the module's own.
        return any(part.startswith("_") for part in home.split(".")) and home != "__main__"

    def _discover(self, root):
        # Sub-packages that exist only to be run or tested are left out like the test modules of a library.
        Probe._discover(self, root)
        for name in list(self.modules):
            if name in NOT_WALKED or any(name.startswith(n + ".") for n in NOT_WALKED):
                self.modules.pop(name, None)
                self.module_objects.pop(name, None)

    def walks_alias(self, path, target):
        """As the library probe, but a module another module merely imports (``os.sys``, ``logging.os``,
        ``email.headerregistry.parser``, which is ``email._header_value_parser``) is a record, not walked again: only
        modules a package exports under its own name (``os.path``, in ``os.__all__``) are."""
        parent, _, name = path.rpartition(".")
        listed = _safe_getattr(self.module_objects.get(parent), "__all__") or ()
        try:
            return name in list(listed)
        except Exception:
            return False


def served_candidates(probe, candidates):
    """Module-level names that dir() does not show but a module's ``__getattr__`` serves (``collections.Mapping``
    until 3.9, ``ast.Num`` until 3.13, both with a DeprecationWarning): each candidate path is tried with getattr on
    the imported module, and recorded when it resolves."""
    import warnings

    found = 0
    for path in candidates:
        module_name, _, name = path.rpartition(".")
        module = probe.module_objects.get(module_name)
        if module is None or path in probe.records or name.startswith("_"):
            continue
        if _safe_getattr(module, "__getattr__") is None:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                obj = getattr(module, name)
            except Exception:
                continue
        kind = classify(obj)
        sig = probe.object_signature(obj, kind, module_name, name) if kind in ("function", "class") else None
        defined_in = _safe_getattr(obj, "__name__" if kind == "module" else "__module__")
        probe.records[path] = probe.record(path, kind, defined_in if isinstance(defined_in, str) else module_name, sig, probe.doc_of(obj, kind), True)
        found += 1
    return found


def probe_stdlib(guard, log=lambda m: None, candidates=()):
    """(records, modules, errors, removal notes, names served by __getattr__) of every public root of the
    standard library; ``candidates``: module-level paths to try where a module serves names dir() does not list."""
    stdlib = stdlib_top_level_names()
    records, modules, errors, notes = {}, {}, set(), {}
    served = 0
    by_root = {}
    for path in candidates:
        by_root.setdefault(path.split(".")[0], []).append(path)
    for root in public_roots(stdlib):
        probe = StdlibProbe(root, guard, stdlib)
        probe.run()
        served += served_candidates(probe, by_root.get(root, ()))
        for path, rec in probe.records.items():
            records.setdefault(path, rec)
        for name, ok in probe.modules.items():
            modules[name] = modules.get(name, False) or ok
        errors |= probe.errors
        for path, note in probe.removal_notes.items():
            notes.setdefault(path, note)
        log("%s: %d records" % (root, len(probe.records)))
    return records, modules, errors, notes, served
