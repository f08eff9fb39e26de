"""Read a library's files from a bare git repository at a tag, or from a directory."""
import os
import subprocess


class SourceError(Exception):
    pass


class GitTree(object):
    """Files of ``tag`` in the bare repository ``git_dir``: names from ``git ls-tree``, contents through one
    long-running ``git cat-file --batch`` process. Blobs the mirror lacks read as None."""

    def __init__(self, git_dir, tag):
        self.git_dir = git_dir
        self.tag = tag
        self.commit = self._git("rev-parse", "--verify", "--quiet", tag + "^{commit}").strip()
        if not self.commit:
            raise SourceError("unknown tag %r in %s" % (tag, git_dir))
        out = self._git("ls-tree", "-r", "-z", "--full-tree", self.commit)
        self._blobs = {}
        self.submodules = []
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, _, path = entry.partition("\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == "blob":
                self._blobs[path] = parts[2]
            elif len(parts) == 3 and parts[1] == "commit":
                self.submodules.append(path)
        self._proc = None

    def _git(self, *args):
        try:
            res = subprocess.run(
                ["git", "--git-dir", self.git_dir] + list(args),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                check=False,
            )
        except OSError as e:
            raise SourceError("git: %s" % e)
        if res.returncode != 0 and args[0] != "rev-parse":
            raise SourceError("git %s: %s" % (" ".join(args), res.stderr.decode("utf-8", "replace").strip()))
        return res.stdout.decode("utf-8", "surrogateescape")

    def files(self):
        return sorted(self._blobs)

    def read(self, path):
        """Bytes of ``path`` or None when the blob is absent from the repository."""
        sha = self._blobs.get(path)
        if sha is None:
            return None
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "--git-dir", self.git_dir, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        self._proc.stdin.write((sha + "\n").encode("ascii"))
        self._proc.stdin.flush()
        header = self._proc.stdout.readline().decode("ascii", "replace").split()
        if len(header) < 3 or header[1] == "missing":
            return None
        size = int(header[2])
        data = self._proc.stdout.read(size)
        self._proc.stdout.read(1)  # trailing newline
        return data

    def close(self):
        if self._proc is not None:
            try:
                self._proc.stdin.close()
                self._proc.wait(timeout=10)
            except Exception:
                self._proc.kill()
            self._proc = None


class DirTree(object):
    """Files below ``root`` (a checkout or unpacked source tree)."""

    def __init__(self, root):
        if not os.path.isdir(root):
            raise SourceError("not a directory: %s" % root)
        self.root = root
        self.commit = None
        self.submodules = []
        self._files = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d not in (".git", "__pycache__", "node_modules"))
            rel = os.path.relpath(dirpath, root)
            for f in filenames:
                self._files.append(f if rel == "." else (rel.replace(os.sep, "/") + "/" + f))
        self._files.sort()

    def files(self):
        return list(self._files)

    def read(self, path):
        try:
            with open(os.path.join(self.root, *path.split("/")), "rb") as f:
                return f.read()
        except OSError:
            return None

    def close(self):
        pass
