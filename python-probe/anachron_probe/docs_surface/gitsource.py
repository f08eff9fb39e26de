"""Read the files of one tag straight from a (bare) git repository: ``git ls-tree`` once, then blobs through one
long-lived ``git cat-file --batch``. Mirrors may lack large blobs (4 MiB and more): such files read as missing."""
import subprocess


class MissingBlob(Exception):
    """The tree names the file but the repository does not hold its blob."""


class GitError(Exception):
    pass


def _git(git_dir, *args):
    p = subprocess.run(
        ["git", "--git-dir", git_dir] + list(args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if p.returncode != 0:
        raise GitError("git %s: %s" % (" ".join(args), p.stderr.decode("utf-8", "replace").strip()))
    return p.stdout


class GitTree:
    """The blobs of one commit, by path."""

    def __init__(self, git_dir, tag):
        self.git_dir = git_dir
        self.tag = tag
        self.commit = _git(git_dir, "rev-parse", "--verify", "--quiet", tag + "^{commit}").decode().strip()
        out = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", self.commit)
        self.blobs = {}
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, _, path = rec.partition(b"\t")
            parts = meta.split()
            if len(parts) == 3 and parts[1] == b"blob":
                self.blobs[path.decode("utf-8", "surrogateescape")] = parts[2].decode()
        self._proc = None
        self._cache = {}

    def exists(self, path):
        return path in self.blobs

    def paths(self, prefix="", suffix=""):
        return sorted(p for p in self.blobs if p.startswith(prefix) and p.endswith(suffix))

    def read_bytes(self, path):
        """Bytes of the file at ``path``; KeyError when the tree has no such file, MissingBlob when the mirror
        lacks its content."""
        if path in self._cache:
            data = self._cache[path]
        else:
            sha = self.blobs[path]
            data = self._cat(sha)
            self._cache[path] = data
        if data is None:
            raise MissingBlob(path)
        return data

    def read_text(self, path):
        return self.read_bytes(path).decode("utf-8-sig", "replace")

    def _cat(self, sha):
        if self._proc is None:
            self._proc = subprocess.Popen(
                ["git", "--git-dir", self.git_dir, "cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        self._proc.stdin.write(sha.encode() + b"\n")
        self._proc.stdin.flush()
        header = self._proc.stdout.readline()
        if not header:
            raise GitError("git cat-file --batch ended unexpectedly")
        fields = header.split()
        if len(fields) >= 2 and fields[-1] == b"missing":
            return None
        if len(fields) != 3:
            raise GitError("unexpected git cat-file header: %r" % header)
        size = int(fields[2])
        data = self._proc.stdout.read(size)
        self._proc.stdout.read(1)  # the newline after the content
        return data

    def close(self):
        if self._proc is not None:
            try:
                self._proc.stdin.close()
            except OSError:
                pass
            self._proc.wait()
            self._proc = None
