"""Command line: docs.py LIBRARY --git-dir BARE_REPO --tag TAG [--version V] [--out FILE]"""
import argparse
import gzip
import io
import json
import os
import sys
import time

from . import SCHEMA, __version__
from ..libraries import LibraryFileError, known_libraries
from .extract import extract, library
from .gitsource import GitError, GitTree


def _parse_args(argv):
    p = argparse.ArgumentParser(
        prog="docs.py",
        description="Write the documented API surface of LIBRARY at a release tag, read from its git history.",
    )
    p.add_argument("library", help="library with a [docs] section in libraries/NAME.toml (%s)" % ", ".join(known_libraries()))
    p.add_argument("--git-dir", required=True, help="the library's git repository (bare or .git folder)")
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
    if args.out and args.out_dir:
        p.error("give --out or --out-dir, not both")
    return args


def encode(doc):
    return (json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def write_output(data, out):
    """Write ``data`` to ``out`` atomically; ``.gz``: gzip with no name and mtime 0 (``gzip -n``)."""
    if out.endswith(".gz"):
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as gz:
            gz.write(data)
        data = buf.getvalue()
    folder = os.path.dirname(os.path.abspath(out))
    os.makedirs(folder, exist_ok=True)
    tmp = out + ".tmp%d" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)


def build(name, git_dir, tag, version=None):
    lib = library(name)
    tree = GitTree(git_dir, tag)
    try:
        collector = extract(tree, lib)
    finally:
        tree.close()
    doc = {
        "schema": SCHEMA,
        "library": name,
        "version": version or lib.version_for_tag(tag),
        "provenance": {
            "source": "docs",
            "repository": lib.repository,
            "tag": tag,
            "commit": tree.commit,
            "extractor": "anachron-docs " + __version__,
        },
        "documented": sorted(collector.documented),
        "documented_private": sorted(collector.private),
        "errors": [{"file": f, "error": e} for f, e in sorted(collector.errors)],
    }
    return doc, collector


def main(argv=None):
    args = _parse_args(argv)
    try:
        lib = library(args.library)
    except LibraryFileError as e:
        sys.stderr.write("docs.py: %s\n" % e)
        return 2
    tag = args.tag or lib.tag_for_version(args.version)
    t0 = time.time()
    try:
        doc, collector = build(args.library, args.git_dir, tag, args.version)
    except GitError as e:
        sys.stderr.write("docs.py: %s\n" % e)
        return 2
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
