"""What the reader knows about names from outside the library.

Standard-library modules are introspected in this interpreter (only the standard library is ever imported; the
library being extracted never is): that tells ``math.pi`` (a constant) from ``math.sqrt`` (a function). Anything
else outside the library is an ``ExternalValue`` of unknown kind."""
import builtins
import importlib
import sys
import types

from ..walker import classify, is_constant as _is_constant  # the runtime probe's rules, so both surfaces agree
from .values import ExternalValue

# Modules of the standard library that newer Pythons removed; old releases of a library still import them.
_REMOVED = {
    "distutils", "imp", "asynchat", "asyncore", "smtpd", "aifc", "audioop", "cgi", "cgitb", "chunk", "crypt",
    "imghdr", "mailcap", "msilib", "nis", "nntplib", "ossaudiodev", "pipes", "sndhdr", "spwd", "sunau",
    "telnetlib", "uu", "xdrlib", "lib2to3", "tkinter", "__future__", "_thread", "builtins", "sre_compile",
    "sre_parse", "sre_constants",
}
# ... and from which version on (their imports fail there)
REMOVED_IN = {"distutils": (3, 12), "imp": (3, 12), "asynchat": (3, 12), "asyncore": (3, 12), "smtpd": (3, 12),
              "aifc": (3, 13), "audioop": (3, 13), "cgi": (3, 13), "cgitb": (3, 13), "chunk": (3, 13),
              "crypt": (3, 13), "imghdr": (3, 13), "mailcap": (3, 13), "msilib": (3, 13), "nis": (3, 13),
              "nntplib": (3, 13), "ossaudiodev": (3, 13), "pipes": (3, 13), "sndhdr": (3, 13), "spwd": (3, 13),
              "sunau": (3, 13), "telnetlib": (3, 13), "uu": (3, 13), "xdrlib": (3, 13), "lib2to3": (3, 13)}
# Standard-library modules newer than some interpreters (available from the target Python on)
ADDED_IN = {"annotationlib": (3, 14), "compression": (3, 14), "string.templatelib": (3, 14),
            "tomllib": (3, 11), "zoneinfo": (3, 9), "graphlib": (3, 9), "_interpreters": (3, 13)}
# Never imported here (side effects, GUI, slow).
_NO_INTROSPECTION = {"antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "ensurepip", "venv",
                     "pydoc", "lib2to3", "distutils", "test", "msilib", "winreg", "winsound", "_winapi"}

def _stdlib_from_path():
    """Module names of this interpreter's standard library folder (Python < 3.10 has no stdlib_module_names)."""
    import pkgutil
    import sysconfig

    names = set(sys.builtin_module_names)
    try:
        path = sysconfig.get_paths()["stdlib"]
        names.update(m.name for m in pkgutil.iter_modules([path]))
        names.update(m.name for m in pkgutil.iter_modules([path + "/lib-dynload"]))
    except Exception:
        pass
    return names


try:
    _STDLIB = frozenset(sys.stdlib_module_names) | _REMOVED
except AttributeError:  # Python < 3.10
    _STDLIB = frozenset(_stdlib_from_path()) | _REMOVED
if False:
    _STDLIB = frozenset(sys.builtin_module_names) | _REMOVED | frozenset("""
        abc argparse array ast asyncio atexit base64 bisect binascii bz2 calendar cmath codecs collections
        colorsys concurrent configparser contextlib contextvars copy copyreg csv ctypes dataclasses datetime
        decimal difflib dis doctest email encodings enum errno fcntl filecmp fnmatch fractions ftplib functools
        gc getopt getpass gettext glob gzip hashlib heapq hmac html http importlib inspect io ipaddress itertools
        json keyword linecache locale logging lzma marshal math mimetypes mmap multiprocessing netrc numbers
        operator optparse os pathlib pickle pkgutil platform plistlib pprint profile pstats pty pwd queue quopri
        random re reprlib resource runpy sched secrets select selectors shelve shlex shutil signal site smtplib
        socket socketserver sqlite3 ssl stat statistics string stringprep struct subprocess symtable sys
        sysconfig syslog tabnanny tarfile tempfile termios textwrap threading time timeit token tokenize trace
        traceback tracemalloc types typing unicodedata unittest urllib uuid warnings wave weakref webbrowser
        xml xmlrpc zipfile zipimport zlib zoneinfo graphlib
    """.split())

_BUILTIN_NAMES = frozenset(dir(builtins)) | {"__builtins__", "__debug__", "__name__", "__file__", "__doc__",
                                             "__spec__", "__loader__", "__package__", "__path__"}
_cache = {}


def is_stdlib(module_name):
    return module_name.split(".")[0] in _STDLIB


def is_builtin_name(name):
    return name in _BUILTIN_NAMES and not name.startswith("__")


def _resolve(dotted):
    """The stdlib object named ``dotted`` in this interpreter, or raise LookupError."""
    parts = dotted.split(".")
    if parts[0] == "builtins":
        obj = builtins
        rest = parts[1:]
    else:
        if parts[0] not in _STDLIB or parts[0] in _NO_INTROSPECTION:
            raise LookupError(dotted)
        obj = None
        rest = []
        for i in range(len(parts), 0, -1):
            name = ".".join(parts[:i])
            try:
                mod = sys.modules.get(name) or importlib.import_module(name)
            except Exception:
                continue
            obj = mod
            rest = parts[i:]
            break
        if obj is None:
            raise LookupError(dotted)
    for p in rest:
        try:
            obj = getattr(obj, p)
        except Exception:
            raise LookupError(dotted)
    return obj


def external_value(dotted):
    v = _cache.get(dotted)
    if v is not None:
        return v
    kind = None
    const = False
    try:
        obj = _resolve(dotted)
    except LookupError:
        obj = None
    else:
        kind = classify(obj)
        const = _is_constant(obj)
    v = ExternalValue(dotted, kind, const)
    if obj is not None:
        v.obj = obj
    _cache[dotted] = v
    return v


def star_names(module_name):
    """Names ``from module import *`` binds, for standard-library modules; None when unknown."""
    try:
        mod = _resolve(module_name)
    except LookupError:
        return None
    if not isinstance(mod, types.ModuleType):
        return None
    all_ = getattr(mod, "__all__", None)
    if all_ is not None:
        try:
            return sorted(set(str(x) for x in all_))
        except Exception:
            return None
    return sorted(n for n in dir(mod) if not n.startswith("_"))


def has_attr(dotted, name):
    try:
        obj = _resolve(dotted)
    except LookupError:
        return None
    return hasattr(obj, name)


def module_constants(module_name):
    """Public constants of a standard-library module (what the runtime lists for e.g. ``numpy.math``)."""
    try:
        mod = _resolve(module_name)
    except LookupError:
        return None
    out = {}
    for n in dir(mod):
        if n.startswith("_"):
            continue
        try:
            v = getattr(mod, n)
        except Exception:
            continue
        if _is_constant(v):
            out[n] = v
    return out
