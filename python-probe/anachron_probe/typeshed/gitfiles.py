"""typeshed's stdlib stubs at one commit of a bare git repository, read with git alone (no checkout)."""
import re
import subprocess


def _git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo] + list(args), check=True, stdout=subprocess.PIPE).stdout


def commit_info(repo, rev):
    """(full hash, ISO commit date) of ``rev``."""
    out = _git(repo, "log", "-1", "--format=%H %cI", rev).decode().split()
    return out[0], out[1]


def read_tree(repo, commit, prefix="stdlib/"):
    """{path: text} of every file under ``prefix`` at ``commit`` (one ``git cat-file --batch`` for all of them)."""
    listing = _git(repo, "ls-tree", "-r", "--full-tree", commit, prefix).decode().splitlines()
    entries = []
    for line in listing:
        meta, path = line.split("\t", 1)
        _mode, kind, sha = meta.split()
        if kind == "blob":
            entries.append((path, sha))
    proc = subprocess.run(
        ["git", "--git-dir", repo, "cat-file", "--batch"],
        input=("\n".join(sha for _, sha in entries) + "\n").encode(),
        check=True,
        stdout=subprocess.PIPE,
    )
    data = proc.stdout
    files = {}
    pos = 0
    for path, sha in entries:
        end = data.index(b"\n", pos)
        header = data[pos:end].decode().split()
        if len(header) < 3 or header[1] == "missing":
            raise RuntimeError("%s: blob %s of %s is missing from the snapshot" % (commit, sha, path))
        size = int(header[2])
        blob = data[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
        files[path] = blob.decode("utf-8")
    return files


_OLDEST = re.compile(r'^oldest[_-]supported[_-]python\s*=\s*"3\.(\d+)"', re.M)


def oldest_supported(repo, commit):
    """The minor of ``[tool.typeshed] oldest_supported_python`` in pyproject.toml at ``commit`` (None if absent)."""
    try:
        text = _git(repo, "show", commit + ":pyproject.toml").decode()
    except subprocess.CalledProcessError:
        return None
    m = _OLDEST.search(text)
    return int(m.group(1)) if m else None


def newest_commit_supporting(repo, head, minor):
    """The newest first-parent ancestor of ``head`` (itself included) whose pyproject.toml still declares
    ``oldest_supported_python`` <= 3.``minor``: the last commit whose stubs still tell 3.``minor`` apart from the
    next version (typeshed deletes the branches of a version once it stops supporting it)."""
    oldest = oldest_supported(repo, head)
    if oldest is not None and oldest <= minor:
        return head
    log = _git(repo, "log", "--first-parent", "--format=%H", head, "--", "pyproject.toml").decode().split()
    for commit in log:
        # The commits that changed pyproject.toml, newest first: the first one at or below the minor is the
        # state from that commit up to (not including) the next change, whose parent is the commit we want.
        value = oldest_supported(repo, commit)
        if value is not None and value <= minor:
            later = log[log.index(commit) - 1] if log.index(commit) > 0 else head
            return _git(repo, "rev-parse", later + "^").decode().strip() if later != head else head
    return None
