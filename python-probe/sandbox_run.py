#!/usr/bin/env python3
"""Runs one generated code sample against a test harness, inside the interpreter under test.

    PYTHON sandbox_run.py  < request.json          (result: one JSON line on fd 3)

Standard library only, Python 3.8+. Started by server/src/environments/sandbox.ts, which owns the real isolation
(bubblewrap: user/pid/network/mount namespaces, a read-only root with a tmpfs working directory, an unprivileged
uid, a seccomp filter; pids and memory cgroups, a scrubbed environment, the wall-clock timeout and the kill of the
whole process group). This file adds, from inside the interpreter:

- resource limits (RLIMIT_AS, RLIMIT_CPU, RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_CORE), soft = hard so
  the sample cannot raise them back (root could: raising them is blocked by the audit hook);
- an audit hook (PEP 578) that refuses network connections, process creation beyond a small allowance, and
  writes outside the working directory. Audit hooks are DEFENCE IN DEPTH, NOT THE BOUNDARY: code in C (numpy,
  ctypes calls to libc, _posixsubprocess) can do all of these without raising an audit event, and Python code
  that wants to can find and tamper with this module's state. The boundary is what the kernel enforces
  (namespaces, read-only mounts, rlimits, cgroups); the hook turns the common cases into a clear
  `SandboxViolation` instead of an obscure OSError;
- the classification: pass, soft-fail (passes, but the library under test raised a DeprecationWarning: a warning
  whose class has DeprecationWarning in its MRO, as the quantum-api-drift paper's §2.5 defines it; its other
  warnings, PendingDeprecationWarning, FutureWarning, numpy's VisibleDeprecationWarning (a UserWarning), are recorded
  with their MRO and leave a pass a pass), hard-fail (with the exception type), and the phase it failed in (import,
  define, check).

Request (stdin, JSON): {code, harness, entryPoint, memoryMb, cpuSeconds, maxProcesses, maxFileMb,
                        library?, resultFd? (3), readyFd? (none), auditHook? (true)}
Result (one line on resultFd; never stdout, which the sample may fill): {outcome, errorType, errorBase, message,
trace, warnings: [{category, message, filename, lineno, fromLibrary, caller, mro, deprecation, count}], phase,
violations, enforced, python}. mro: the class names of the warning's MRO, most derived first, module-qualified but
for builtins; deprecation: DeprecationWarning is in it.
"""
import builtins
import json
import os
import sys
import traceback
import types
import warnings

_RUNNER_FILE = os.path.abspath(__file__)
_MAIN_PID = os.getpid()
_write = os.write
_dumps = json.dumps
_exit = os._exit

MAX_WARNINGS = 50
MAX_MESSAGE = 2000
MAX_TRACE = 6000
SAMPLE_FILE = "sample.py"
HARNESS_FILE = "harness.py"


class SandboxViolation(PermissionError):
    """An operation the sandbox refuses (network, process creation beyond the allowance, writes outside the
    working directory, raising resource limits). A PermissionError, so library code that copes with a denied
    operation keeps working; the run is classified as a hard-fail with errorType "SandboxViolation" anyway."""


class CpuTimeLimit(BaseException):
    """RLIMIT_CPU's soft limit was reached (SIGXCPU). A BaseException so `except Exception` does not swallow it."""


# ---------------------------------------------------------------------------------------------------------------
# Resource limits


def _uid_is_real_root():
    """True when this process is root of the initial user namespace, where RLIMIT_NPROC is not enforced."""
    if os.geteuid() != 0:
        return False
    try:
        with open("/proc/self/uid_map") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[0] == "0":
                    return parts[1] == "0"
    except OSError:
        pass
    return True


def _tasks_of_uid(uid):
    """Threads (tasks) the kernel counts against RLIMIT_NPROC for this uid, as far as /proc shows them."""
    count = 0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0
    for name in names:
        if not name.isdigit():
            continue
        try:
            if os.stat("/proc/" + name).st_uid != uid:
                continue
            count += len(os.listdir("/proc/%s/task" % name))
        except OSError:
            continue
    return count


def apply_limits(req, enforced):
    try:
        import resource
    except ImportError:  # not POSIX
        return
    mb = 1024 * 1024

    def set_limit(which, value, label):
        try:
            soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY and value > hard:
                value = hard
            resource.setrlimit(which, (value, value))
            enforced.append(label)
        except (ValueError, OSError):
            pass

    memory_mb = int(req.get("memoryMb") or 0)
    if memory_mb > 0:
        set_limit(resource.RLIMIT_AS, memory_mb * mb, "rlimit-as")
    cpu = int(req.get("cpuSeconds") or 0)
    if cpu > 0:
        try:
            import signal

            def on_xcpu(signum, frame):
                raise CpuTimeLimit("CPU time limit of %d s exceeded" % cpu)

            signal.signal(signal.SIGXCPU, on_xcpu)
            soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
            used = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime + resource.getrusage(resource.RUSAGE_SELF).ru_stime)
            # soft: SIGXCPU (our handler), hard two seconds later: SIGKILL from the kernel.
            resource.setrlimit(resource.RLIMIT_CPU, (used + cpu, used + cpu + 2))
            enforced.append("rlimit-cpu")
        except (ValueError, OSError, AttributeError):
            pass
    file_mb = int(req.get("maxFileMb") or 0)
    if file_mb > 0:
        set_limit(resource.RLIMIT_FSIZE, file_mb * mb, "rlimit-fsize")
    set_limit(resource.RLIMIT_CORE, 0, "rlimit-core")
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        nofile = 1024 if hard == resource.RLIM_INFINITY else min(hard, 1024)
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        enforced.append("rlimit-nofile")
    except (ValueError, OSError):
        pass
    max_processes = int(req.get("maxProcesses") or 0)
    if max_processes > 0 and hasattr(resource, "RLIMIT_NPROC"):
        if _uid_is_real_root():
            pass  # the kernel exempts root: the pids cgroup (sandbox.ts) and the audit hook bound forks instead
        else:
            # RLIMIT_NPROC counts every task (threads included) of the user, not only ours.
            limit = _tasks_of_uid(os.getuid()) + max_processes + 16
            set_limit(resource.RLIMIT_NPROC, limit, "rlimit-nproc")


# ---------------------------------------------------------------------------------------------------------------
# Audit hook: defence in depth (see the module docstring)

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_ALLOWED_WRITE_PATHS = {"/dev/null", "/dev/stdout", "/dev/stderr"}
_PATH_EVENTS_FIRST = {"os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.utime", "os.truncate",
                      "os.chflags", "os.lchflags", "os.setxattr", "os.removexattr", "shutil.rmtree", "os.mkfifo",
                      "os.mknod"}
_PATH_EVENTS_BOTH = {"os.rename", "os.link"}
_PROCESS_EVENTS = {"os.fork", "os.forkpty", "subprocess.Popen", "os.posix_spawn", "os.spawn", "os.system",
                   "pty.spawn", "os.startfile"}
_DANGEROUS_SYMBOLS = {"fork", "vfork", "clone", "clone3", "execve", "execv", "execvp", "execvpe", "execl",
                      "execlp", "execle", "fexecve", "system", "popen", "posix_spawn", "posix_spawnp", "connect",
                      "bind", "sendto", "sendmsg", "setrlimit", "prlimit", "prlimit64", "unshare", "setns",
                      "kill", "ptrace", "mount", "chroot"}
_LOCAL_HOSTS = {None, "", "localhost", b"localhost"}


class _Guard:
    def __init__(self, root, max_processes):
        self.root = root
        self.processes_left = max_processes
        self.violations = []
        self.busy = False
        self.active = False

    def violation(self, event, detail):
        text = "%s refused: %s" % (event, detail)
        if len(self.violations) < 20:
            self.violations.append({"event": event, "detail": str(detail)[:300]})
        raise SandboxViolation(text)

    def inside(self, path):
        if isinstance(path, int):
            try:
                path = os.readlink("/proc/self/fd/%d" % path)
            except OSError:
                return True  # an fd we cannot name: let the kernel decide
            if not path.startswith("/"):
                return True  # pipe:[…], socket:[…], anon_inode:…
        try:
            path = os.fsdecode(os.fspath(path))
        except TypeError:
            return True
        if path in _ALLOWED_WRITE_PATHS:
            return True
        if not os.path.isabs(path):
            try:
                path = os.path.join(os.getcwd(), path)  # the sample may have changed directory
            except OSError:
                return False
        full = os.path.realpath(path)
        # A path that does not exist yet: realpath resolved its existing parents, which is what matters.
        return full == self.root or full.startswith(self.root + os.sep) or full in _ALLOWED_WRITE_PATHS

    def hook(self, event, args):
        if not self.active or self.busy:
            return
        self.busy = True
        try:
            self.check(event, args)
        finally:
            self.busy = False

    def check(self, event, args):
        if event == "open":
            path = args[0] if args else None
            mode = args[1] if len(args) > 1 else None
            flags = args[2] if len(args) > 2 else 0
            writing = bool(isinstance(flags, int) and flags & _WRITE_FLAGS) or (
                isinstance(mode, str) and any(c in mode for c in "wax+"))
            if writing and path is not None and not self.inside(path):
                self.violation("open", "writing %r is outside the working directory" % (path,))
        elif event in _PATH_EVENTS_FIRST:
            if args and not self.inside(args[0]):
                self.violation(event, "%r is outside the working directory" % (args[0],))
        elif event in _PATH_EVENTS_BOTH:
            for p in args[:2]:
                if not self.inside(p):
                    self.violation(event, "%r is outside the working directory" % (p,))
        elif event == "os.symlink":
            if len(args) > 1 and not self.inside(args[1]):
                self.violation(event, "%r is outside the working directory" % (args[1],))
        elif event in ("socket.connect", "socket.bind"):
            address = args[1] if len(args) > 1 else None
            if isinstance(address, (str, bytes)) and address[:1] not in ("\0", b"\0") and self.inside(address):
                return  # a Unix socket inside the working directory
            self.violation(event, "no network in the sandbox (address %r)" % (address,))
        elif event == "socket.sendto" or (event == "socket.sendmsg" and len(args) > 1 and args[1] is not None):
            self.violation(event, "no network in the sandbox")
        elif event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex",
                       "socket.gethostbyaddr"):
            host = args[0] if args else None
            if host in _LOCAL_HOSTS or _is_numeric_address(host):
                return
            self.violation(event, "no name resolution in the sandbox (%r)" % (host,))
        elif event == "os.exec":
            self.violation(event, "replacing the interpreter is not allowed (%r)" % (args[0] if args else None,))
        elif event in _PROCESS_EVENTS:
            if os.getpid() != _MAIN_PID or self.processes_left <= 0:
                self.violation(event, "process limit reached")
            self.processes_left -= 1
        elif event in ("os.kill", "os.killpg", "signal.pthread_kill"):
            target = args[0] if args else None
            if event == "signal.pthread_kill" or target in (0, os.getpid()) or _is_child(target):
                return
            self.violation(event, "signals only to the sample's own processes (%r)" % (target,))
        elif event in ("resource.setrlimit", "resource.prlimit"):
            self.violation(event, "resource limits are fixed")
        elif event == "ctypes.dlsym":
            name = args[1] if len(args) > 1 else None
            if isinstance(name, bytes):
                name = name.decode("ascii", "replace")
            if isinstance(name, str) and name in _DANGEROUS_SYMBOLS:
                self.violation(event, "the C function %r is not available in the sandbox" % name)


def _is_numeric_address(host):
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    try:
        import ipaddress
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _is_child(pid):
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
        return int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid()
    except (OSError, ValueError, IndexError):
        return False


# ---------------------------------------------------------------------------------------------------------------
# Warnings


class _WarningLog:
    """Records every warning with where it came from. Installed as warnings.showwarning inside
    catch_warnings(record=True) with the "always" filter, so it runs in the stack that raised the warning."""

    def __init__(self, library, sample_files):
        self.entries = []
        self.seen = {}
        self.enabled = True
        self.library = library
        self.sample_files = sample_files
        self.library_dirs = []

    def add_library_dir(self, module):
        f = getattr(module, "__file__", None)
        if f:
            self.library_dirs.append(os.path.dirname(os.path.realpath(f)) + os.sep)

    def is_library_file(self, filename):
        if not filename or filename.startswith("<"):
            return False
        path = os.path.realpath(filename)
        if any(path.startswith(d) for d in self.library_dirs):
            return True
        parts = path.split(os.sep)
        return "site-packages" in parts or "dist-packages" in parts or (
            bool(self.library) and self.library in parts)

    def category_from_library(self, category):
        module = getattr(category, "__module__", "") or ""
        top = module.split(".")[0]
        if top in ("builtins", "warnings", "exceptions", ""):
            return False
        if self.library and top == self.library:
            return True
        mod = sys.modules.get(top)
        return self.is_library_file(getattr(mod, "__file__", None))

    def __call__(self, message, category, filename, lineno, file=None, line=None):
        if not self.enabled:
            return
        emitter = None
        caller = "other"
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_globals.get("__name__")
            code_file = frame.f_code.co_filename
            if name in ("warnings", "_py_warnings") or code_file == _RUNNER_FILE and emitter is None:
                frame = frame.f_back
                continue
            if emitter is None:
                emitter = frame
            if code_file in self.sample_files:
                caller = self.sample_files[code_file]
                break
            frame = frame.f_back
        mro = _class_names(category)
        deprecation = isinstance(category, type) and issubclass(category, DeprecationWarning)
        from_library = self.is_library_file(filename) or self.category_from_library(category)
        if not from_library and emitter is not None:
            emitter_file = emitter.f_code.co_filename
            if self.is_library_file(emitter_file):
                from_library = True
            elif emitter_file in self.sample_files:
                # Raised while sample or harness code was the innermost Python frame: either the code's own
                # warnings.warn(...) or native code it called (numpy's C-level deprecations). Tell them apart by
                # the source line (a heuristic: a C function of the standard library counts as the library's).
                import linecache
                text = linecache.getline(emitter_file, emitter.f_lineno)
                from_library = "warn" not in text
        key = (category.__name__, str(message), filename, lineno)
        if key in self.seen:
            self.seen[key]["count"] += 1
            return
        if len(self.entries) >= MAX_WARNINGS:
            return
        entry = {
            "category": category.__name__,
            "message": _trim(str(message), MAX_MESSAGE),
            "filename": filename,
            "lineno": lineno,
            "fromLibrary": bool(from_library),
            "caller": caller,
            "mro": mro,
            "deprecation": deprecation,
            "count": 1,
        }
        self.seen[key] = entry
        self.entries.append(entry)

    def soft_fail(self):
        return any(e["deprecation"] and e["fromLibrary"] and e["caller"] != "harness" for e in self.entries)


# ---------------------------------------------------------------------------------------------------------------
# Running the sample


def _class_names(cls):
    """The MRO of a warning class as names, most derived first: builtins bare (DeprecationWarning), others
    module-qualified (numpy.exceptions.VisibleDeprecationWarning)."""
    names = []
    for c in getattr(cls, "__mro__", (cls,)):
        module = getattr(c, "__module__", "") or ""
        name = getattr(c, "__qualname__", None) or getattr(c, "__name__", None) or str(c)
        names.append(name if module in ("builtins", "exceptions", "") else "%s.%s" % (module, name))
    return names


def _trim(text, limit):
    return text if len(text) <= limit else text[: limit - 20] + "… (%d chars)" % len(text)


def _error_base(exc):
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins":
            return cls.__name__
    return "BaseException"


def _format_trace(exc):
    tb = exc.__traceback__
    frames = [f for f in traceback.extract_tb(tb) if os.path.abspath(f.filename) != _RUNNER_FILE] if tb else []
    lines = ["Traceback (most recent call last):\n"] if frames else []
    if len(frames) > 30:
        lines.append("  … %d frames …\n" % (len(frames) - 30))
        frames = frames[-30:]
    lines.extend(traceback.format_list(frames))
    lines.extend(traceback.format_exception_only(type(exc), exc))
    text = "".join(lines)
    if len(text) > MAX_TRACE:
        text = "…\n" + text[-(MAX_TRACE - 2):]
    return text


class _Failure(Exception):
    def __init__(self, exc, phase, prefix="", error_type=None):
        Exception.__init__(self)
        self.exc = exc
        self.phase = phase
        self.prefix = prefix
        self.error_type = error_type


def _import_lines(tree):
    import ast
    lines = set()
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            end = getattr(node, "end_lineno", node.lineno) or node.lineno
            lines.update(range(node.lineno, end + 1))
    return lines


def _failed_on_import_line(exc, import_lines):
    """Did the exception come out of a top-level import statement of the sample?"""
    tb = exc.__traceback__
    sample_frame_line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == SAMPLE_FILE and tb.tb_frame.f_code.co_name == "<module>":
            sample_frame_line = tb.tb_lineno
        tb = tb.tb_next
    return sample_frame_line is not None and sample_frame_line in import_lines


def run_sample(req, log):
    code = req.get("code") or ""
    harness = req.get("harness") or ""
    entry_point = req.get("entryPoint") or ""
    import linecache
    for name, text in ((SAMPLE_FILE, code), (HARNESS_FILE, harness)):
        # Tracebacks and inspect.getsource find the text without a file on disk.
        linecache.cache[name] = (len(text), None, text.splitlines(True), name)

    # import / define: the sample's module body
    try:
        compiled = compile(code, SAMPLE_FILE, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        raise _Failure(e, "define")
    import ast
    try:
        import_lines = _import_lines(ast.parse(code))
    except (SyntaxError, ValueError):
        import_lines = set()
    module = types.ModuleType("sample")
    module.__file__ = SAMPLE_FILE
    sys.modules["sample"] = module
    namespace = module.__dict__
    namespace["__builtins__"] = builtins
    try:
        exec(compiled, namespace)
    except BaseException as e:  # noqa: B902 - SystemExit, KeyboardInterrupt and CpuTimeLimit are results too
        if isinstance(e, CpuTimeLimit):
            raise
        phase = "import" if isinstance(e, ImportError) or _failed_on_import_line(e, import_lines) else "define"
        raise _Failure(e, phase)
    if entry_point not in namespace:
        raise _Failure(NameError("the sample defines no %r" % entry_point), "define")
    candidate = namespace[entry_point]
    if not callable(candidate):
        raise _Failure(TypeError("%r is not callable (%s)" % (entry_point, type(candidate).__name__)), "define")

    # check: the harness's check(candidate)
    try:
        harness_code = compile(harness, HARNESS_FILE, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        raise _Failure(e, "check", "harness: ", "HarnessError")
    harness_ns = {"__name__": "harness", "__file__": HARNESS_FILE, "__builtins__": builtins}
    try:
        exec(harness_code, harness_ns)
    except BaseException as e:
        if isinstance(e, CpuTimeLimit):
            raise
        raise _Failure(e, "check", "harness: ")
    check = harness_ns.get("check")
    if not callable(check):
        raise _Failure(NameError("the harness defines no check(candidate)"), "check", "harness: ", "HarnessError")
    try:
        verdict = check(candidate)
    except BaseException as e:
        if isinstance(e, CpuTimeLimit):
            raise
        raise _Failure(e, "check")
    if verdict is False:
        raise _Failure(AssertionError("check() returned False"), "check")


def _result_from_exception(exc, phase, prefix="", error_type=None):
    if isinstance(exc, MemoryError):
        name = "MemoryError"  # numpy's _ArrayMemoryError and friends
    else:
        name = error_type or type(exc).__name__
    if isinstance(exc, SandboxViolation):
        name = "SandboxViolation"
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ must not lose the result
        message = "<unprintable %s>" % type(exc).__name__
    if name == "MemoryError" and not message:
        message = "out of memory (the sandbox's memory limit, or the machine's)"
    return {
        "outcome": "hard-fail",
        "errorType": name,
        "errorBase": _error_base(exc),
        "message": _trim(prefix + message, MAX_MESSAGE),
        "trace": _format_trace(exc),
        "phase": phase,
    }


def main():
    # Nothing from python-probe/ should be importable by the sample.
    here = os.path.dirname(_RUNNER_FILE)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    raw = sys.stdin.buffer.read()
    req = json.loads(raw.decode("utf-8"))
    result_fd = int(req.get("resultFd", 3))
    ready_fd = req.get("readyFd")
    try:
        os.set_inheritable(result_fd, False)
    except OSError:
        pass
    enforced = []
    result = None

    def emit(obj):
        data = (_dumps(obj, ensure_ascii=True) + "\n").encode("ascii")
        fd = result_fd
        while data:
            try:
                n = _write(fd, data)
            except OSError:
                if fd == 1:
                    return
                fd = 1  # run by hand, without a result fd: stdout
                continue
            data = data[n:]

    def in_child():
        # A forked child runs on through the sample's code and then through this runner: it must never report.
        try:
            os.close(result_fd)
        except OSError:
            pass

    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=in_child)
    try:
        import faulthandler
        faulthandler.enable()  # a segfault leaves a Python stack on stderr
    except Exception:  # noqa: BLE001
        pass
    if ready_fd is not None:
        try:
            _write(int(ready_fd), b"ready\n")
            os.close(int(ready_fd))
        except OSError:
            pass

    sys.dont_write_bytecode = True  # no __pycache__ beside the library (it would be a write outside)
    root = os.path.realpath(os.getcwd())
    library = req.get("library") or None
    log = _WarningLog(library, {SAMPLE_FILE: "sample", HARNESS_FILE: "harness"})
    guard = _Guard(root, int(req.get("maxProcesses") or 0))
    apply_limits(req, enforced)
    if req.get("auditHook", True) and hasattr(sys, "addaudithook"):
        sys.addaudithook(guard.hook)
        guard.active = True
        enforced.append("audit-hook")

    try:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            warnings.showwarning = log
            if library:
                # Import the library first, its import-time warnings unrecorded: they are not the sample's doing.
                log.enabled = False
                try:
                    import importlib
                    log.add_library_dir(importlib.import_module(library))
                except BaseException:  # noqa: BLE001 - the sample's own import reports it
                    pass
                log.enabled = True
            run_sample(req, log)
        result = {"outcome": "soft-fail" if log.soft_fail() else "pass", "phase": "check"}
    except _Failure as f:
        result = _result_from_exception(f.exc, f.phase, f.prefix, f.error_type)
    except CpuTimeLimit as e:
        result = _result_from_exception(e, "check")
    except BaseException as e:  # noqa: BLE001
        result = _result_from_exception(e, "check")
        result["message"] = "sandbox runner: " + result["message"]
    if os.getpid() != _MAIN_PID:
        _exit(1)
    guard.active = False
    if guard.violations and (result["outcome"] != "hard-fail" or result["errorType"] != "SandboxViolation"):
        # Contained, and still the sample's doing even when it caught the exception.
        v = guard.violations[0]
        result.update({"outcome": "hard-fail", "errorType": "SandboxViolation", "errorBase": "PermissionError",
                       "message": _trim("%s refused: %s" % (v["event"], v["detail"]), MAX_MESSAGE),
                       "trace": result.get("trace") or ""})
    result["warnings"] = log.entries
    result["violations"] = guard.violations
    result["enforced"] = enforced
    result["python"] = sys.version.split()[0]
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001
        pass
    emit(result)
    # Do not wait for threads the sample left running, nor run its atexit handlers.
    _exit(0)


if __name__ == "__main__":
    main()
