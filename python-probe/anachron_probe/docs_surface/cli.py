"""Command line: docs.py LIBRARY (--git-dir BARE_REPO [--tag TAG] | --source DIR_OR_ARCHIVE | --release)
[--version V] [--out FILE]"""
import argparse
import json
import os
import sys
import time

from . import SCHEMA, __version__
from ..archive import ArchiveError
from ..libraries import LibraryFileError, known_libraries
from ..releases.index import IndexError as ReleaseIndexError
from .extract import extract, library
from .gitsource import GitError, GitTree
from ..surface_files import encode, write_output


def _parse_args(argv):
    p = argparse.ArgumentParser(
        prog="docs.py",
        description="Write the documented API surface of LIBRARY at a release: read from its git history at the "
                    "release's tag, from a source folder or archive, or (--release) as its library file says.",
    )
    p.add_argument("library", help="library with a [docs] section in libraries/NAME.toml (%s)" % ", ".join(known_libraries()))
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir", help="the library's git repository (bare or .git folder)")
    src.add_argument("--source", help="a source folder, or a release archive (sdist .tar.gz/.zip)")
    src.add_argument("--release", action="store_true",
                     help="the release --version as libraries/LIBRARY.toml's [docs] says: its sdist from the package "
                          "index (from = \"sdist\"), else (or where the sdist has no reference pages) the docs "
                          "repository's mirror at the release's tag")
    p.add_argument("--tag", help="release tag (default: from --version, e.g. v1.24.2)")
    p.add_argument("--version", help="library version recorded (default: from the tag)")
    p.add_argument("--out", help="write here (gzip when it ends in .gz) instead of stdout")
    p.add_argument(
        "--out-dir",
        help="write DIR/LIBRARY/LIBRARY-VERSION.docs.json.gz (e.g. matrices/surfaces) instead of stdout",
    )
    p.add_argument("--verbose", action="store_true", help="names from other libraries, per-file counts on stderr")
    args = p.parse_args(argv)
    if not args.tag and not args.version:
        p.error("give --tag or --version")
    if args.source and not args.version:
        p.error("--source needs --version")
    if args.release and not args.version:
        p.error("--release needs --version")
    if args.out and args.out_dir:
        p.error("give --out or --out-dir, not both")
    return args


def build(name, git_dir, tag, version=None):
    """The documented surface of ``name`` at ``tag`` of a git repository."""
    lib = library(name)
    tree = GitTree(git_dir, tag)
    provenance = {"repository": lib.repository, "tag": tag, "commit": tree.commit}
    return build_from(name, tree, version or lib.version_for_tag(tag), provenance)


class NoDocumentation(Exception):
    """The tree has no reference pages of the library, or its pages document nothing: no documented surface is
    written (an empty one would make every name look undocumented and zero the agreement base)."""


def build_from(name, tree, version, provenance):
    """The documented surface of ``name`` read from ``tree`` (a git tree, a folder or an archive)."""
    lib = library(name)
    where = provenance.get("tag") or provenance.get("file") or provenance.get("directory") or tree.commit
    try:
        collector = extract(tree, lib)
        pages = lib.has_pages(tree)
    finally:
        tree.close()
    if not collector.documented:
        raise NoDocumentation("%s %s: %s at %s: no documented surface written" % (
            name, version, "the reference pages document no name" if pages else "no reference pages (%s)" % (
                ", ".join(g for group in lib.page_groups for g in group)), where))
    doc = {
        "schema": SCHEMA,
        "library": name,
        "version": version,
        "provenance": dict({"source": "docs", "extractor": "anachron-docs " + __version__}, **provenance),
        "documented": sorted(collector.documented),
        "documented_private": sorted(collector.private),
        "errors": [{"file": f, "error": e} for f, e in sorted(collector.errors)],
    }
    return doc, collector


def _source_tree(path):
    from ..archive import ArchiveTree, is_archive

    if is_archive(path):
        return ArchiveTree(path), {"file": os.path.basename(path)}
    from ..static.source import DirTree

    return _FolderTree(DirTree(path)), {"directory": os.path.basename(os.path.abspath(path))}


class _FolderTree(object):
    """The docs reader's view of a folder."""

    def __init__(self, tree):
        self.tree = tree
        self.commit = None
        self._files = set(tree.files())
        self.blobs = dict((f, None) for f in self._files)

    def exists(self, path):
        return path in self._files

    def paths(self, prefix="", suffix=""):
        return sorted(p for p in self._files if p.startswith(prefix) and p.endswith(suffix))

    def read_text(self, path):
        data = self.tree.read(path)
        if data is None:
            raise KeyError(path)
        return data.decode("utf-8-sig", "replace")

    def close(self):
        pass


def build_release(name, version):
    """The documented surface of release ``version`` as the library file's [docs] says (see --release)."""
    from ..libraries import mirror_dir

    lib = library(name)
    d = lib.definition
    if lib.source == "sdist":
        from ..archive import ArchiveTree
        from ..releases.index import ProjectIndex

        index = ProjectIndex(d["distribution"])
        f = index.sdist(version)
        if f is not None:
            tree = ArchiveTree(index.download(f))
            if lib.has_pages(tree):
                return build_from(name, tree, version, {"index": index.index_url, "file": f.filename,
                                                        "sha256": f.sha256})
        if not lib.repository:
            raise GitError("%s %s: its sdist has no reference pages and [docs] names no repository" % (name, version))
    if not lib.repository:
        raise GitError("%s: [docs] names no repository" % name)
    git_dir = mirror_dir(lib.repository)
    tag = lib.tag_for_version(version)
    commit = release_commit(git_dir, tag, lib.release_commit, version)
    if commit is None:
        raise GitError("%s %s: no tag %s%s in %s" % (name, version, tag, " and no commit \"%s\"" % (
            lib.release_commit.replace("{version}", version)) if lib.release_commit else "", git_dir))
    doc, collector = build(name, git_dir, commit, version)
    doc["provenance"]["tag"] = tag if commit == tag else None
    doc["provenance"] = dict((k, v) for k, v in doc["provenance"].items() if v is not None)
    if commit != tag:
        doc["provenance"]["release_commit"] = lib.release_commit.replace("{version}", version)
    return doc, collector


def release_commit(git_dir, tag, pattern, version):
    """``tag`` when the repository has it, else the newest commit whose subject is the release pattern
    (``RLS: 3.0.0``, or followed by `` (#123)``), else None."""
    import subprocess

    def git(*args):
        r = subprocess.run(["git", "--git-dir", git_dir] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else ""

    if git("rev-parse", "--verify", "--quiet", tag + "^{commit}").strip():
        return tag
    if not pattern:
        return None
    subject = pattern.replace("{version}", version)
    for line in git("log", "--all", "--format=%H %s").splitlines():
        sha, _, s = line.partition(" ")
        if s == subject or s.startswith(subject + " ("):
            return sha
    return None


def main(argv=None):
    args = _parse_args(argv)
    try:
        lib = library(args.library)
    except LibraryFileError as e:
        sys.stderr.write("docs.py: %s\n" % e)
        return 2
    tag = args.tag or (lib.tag_for_version(args.version) if args.git_dir else None)
    t0 = time.time()
    try:
        if args.git_dir:
            doc, collector = build(args.library, args.git_dir, tag, args.version)
        elif args.source:
            tree, provenance = _source_tree(args.source)
            doc, collector = build_from(args.library, tree, args.version, provenance)
        else:
            doc, collector = build_release(args.library, args.version)
            p = doc["provenance"]
            tag = p.get("tag") or p.get("release_commit") or p.get("file")
    except (GitError, LibraryFileError, ArchiveError, ReleaseIndexError, NoDocumentation, OSError) as e:
        sys.stderr.write("docs.py: %s\n" % e)
        return 2
    tag = tag or args.source
    data = encode(doc)
    if args.out_dir:
        args.out = os.path.join(args.out_dir, args.library, "%s-%s.docs.json.gz" % (args.library, doc["version"]))
    if args.out:
        write_output(data, args.out)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if args.verbose:
        for path, origin in sorted(collector.outside.items()):
            sys.stderr.write("  outside %s (%s)\n" % (path, origin))
        for e in doc["errors"]:
            sys.stderr.write("  error %s: %s\n" % (e["file"], e["error"]))
    sys.stderr.write(
        "%s %s (%s): %d documented (%d only as class-template members, %d under root module aliases), "
        "%d errors, %.2f s\n"
        % (
            args.library, tag, doc["version"], len(doc["documented"]),
            len(collector.template_paths - collector.explicit_paths), len(collector.alias_paths),
            len(doc["errors"]), time.time() - t0,
        )
    )
    return 0
