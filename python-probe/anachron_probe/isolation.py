"""Keep imported modules from disturbing the probe: output, cwd, argv, warnings, hangs."""
import io
import os
import signal
import sys
import warnings

from .text import error_text


class ProbeTimeout(BaseException):
    """Raised from SIGALRM when a module takes too long (a BaseException so library code rarely swallows it)."""


class _Sink(io.TextIOBase):
    """A text stream that discards everything (what sys.stdout/sys.stderr point to while probing)."""

    encoding = "utf-8"
    errors = "replace"

    def writable(self):
        return True

    def write(self, s):
        return len(s) if isinstance(s, str) else 0

    def flush(self):
        pass

    def isatty(self):
        return False

    def fileno(self):
        raise io.UnsupportedOperation("fileno")


class Silence(object):
    """Redirects fds 1 and 2 to /dev/null and replaces sys.stdout/sys.stderr for the whole probe; keeps
    duplicates of the real ones for the probe's own output."""

    def __init__(self):
        self.real_stdout_fd = None
        self.real_stderr_fd = None
        self._saved_streams = None
        self._devnull = None
        self._filters = None
        self.sink = _Sink()

    def __enter__(self):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        self._saved_streams = (sys.stdout, sys.stderr)
        try:
            self.real_stdout_fd = os.dup(1)
            self.real_stderr_fd = os.dup(2)
            self._devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(self._devnull, 1)
            os.dup2(self._devnull, 2)
        except OSError:
            self.real_stdout_fd = self.real_stderr_fd = None
        self.reset_streams()
        self._filters = warnings.catch_warnings()
        self._filters.__enter__()
        warnings.simplefilter("ignore")
        return self

    def reset_streams(self):
        sys.stdout = self.sink
        sys.stderr = self.sink

    def reset_warnings(self):
        warnings.resetwarnings()
        warnings.simplefilter("ignore")
        warnings.showwarning = lambda *a, **k: None

    def __exit__(self, *exc):
        try:
            self._filters.__exit__(None, None, None)
        except Exception:
            pass
        sys.stdout, sys.stderr = self._saved_streams
        if self.real_stdout_fd is not None:
            os.dup2(self.real_stdout_fd, 1)
            os.dup2(self.real_stderr_fd, 2)
            os.close(self._devnull)
        return False

    def write_stdout(self, data):
        fd = self.real_stdout_fd if self.real_stdout_fd is not None else 1
        _write_all(fd, data)

    def write_stderr(self, data):
        fd = self.real_stderr_fd if self.real_stderr_fd is not None else 2
        _write_all(fd, data)


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _on_alarm(signum, frame):
    raise ProbeTimeout()


class Guard(object):
    """Runs callables with a time limit (SIGALRM, where available), restoring cwd/argv/streams afterwards and
    turning every exception into an error text."""

    def __init__(self, silence, timeout):
        self.silence = silence
        self.timeout = timeout if timeout and timeout > 0 else None
        self.cwd = os.getcwd()
        self.argv = list(sys.argv)
        self.can_alarm = (
            hasattr(signal, "SIGALRM")
            and hasattr(signal, "setitimer")
            and _is_main_thread()
        )

    def run(self, fn, *args):
        """Returns (result, None) or (None, error_text)."""
        old_handler = None
        armed = False
        try:
            try:
                if self.can_alarm and self.timeout:
                    old_handler = signal.signal(signal.SIGALRM, _on_alarm)
                    signal.setitimer(signal.ITIMER_REAL, self.timeout)
                    armed = True
                return fn(*args), None
            finally:
                if armed:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    try:
                        signal.signal(signal.SIGALRM, old_handler or signal.SIG_DFL)
                    except Exception:
                        pass
                self.restore()
        except KeyboardInterrupt:
            raise
        except ProbeTimeout:
            return None, "Timeout: more than %g s" % self.timeout
        except BaseException as e:  # SystemExit and everything else a module may throw
            return None, error_text(e)

    def restore(self):
        try:
            if os.getcwd() != self.cwd:
                os.chdir(self.cwd)
        except OSError:
            try:
                os.chdir(self.cwd)
            except OSError:
                pass
        if sys.argv != self.argv:
            sys.argv = list(self.argv)
        self.silence.reset_streams()
        self.silence.reset_warnings()


def _is_main_thread():
    import threading

    return threading.current_thread() is threading.main_thread()


def exit_now(code):
    """Leaves without running atexit handlers or joining threads the probed library may have started."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:
        pass
    os._exit(code)
