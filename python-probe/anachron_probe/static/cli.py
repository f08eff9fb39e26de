"""python3 static.py LIBRARY (--git-dir REPO --tag TAG | --source DIR_OR_ARCHIVE) [--package-dir SUBPATH] [--version V]
[--out FILE] [--provenance KEY=VALUE]... [--sibling LIB]... [--verbose]"""
import argparse
import os
import sys
import time

from .. import SCHEMA
from . import EXTRACTOR_VERSION
from .extract import CALLABLE_KINDS, Extractor
from ..archive import ArchiveError, ArchiveTree, is_archive
from ..provenance import provenance_map
from .source import DirTree, GitTree, SourceError
from ..surface_files import encode, write_output as write  # batch.py writes through these too


def _parse_args(argv):
    p = argparse.ArgumentParser(
        prog="static.py",
        description="Read LIBRARY's public API surface from its source tree (never imported) and write it as JSON.",
    )
    p.add_argument("library", help="top-level import name, e.g. numpy")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir", help="bare git repository (read with git ls-tree / cat-file)")
    src.add_argument("--source", help="a source folder (checkout, unpacked sdist or wheel) or a release archive "
                                      "(sdist .tar.gz/.zip, wheel .whl)")
    p.add_argument("--tag", help="tag (or any commit-ish) to read; required with --git-dir")
    p.add_argument("--package-dir", help="folder of the package inside the tree (default: found)")
    p.add_argument("--version", help="version to record (default: the tag without a leading 'v')")
    p.add_argument("--out", help="write here instead of stdout; gzipped (mtime 0) when it ends in .gz")
    p.add_argument("--provenance", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--target-python", help="Python version conditions are decided for, e.g. 3.11 "
                                           "(default: newest the release declares)")
    p.add_argument("--external-surface", action="append", default=[], metavar="LIB=FILE",
                   help="surface of a dependency the library re-exports names from (repeatable)")
    p.add_argument("--external-git", action="append", default=[], metavar="LIB=GITDIR@TAG",
                   help="a dependency read statically from its own repository at TAG (repeatable)")
    p.add_argument("--sibling", action="append", default=[], metavar="LIB",
                   help="another top-level package of the same tree the library imports from (attrs's attr); read "
                        "from the same source, never run (repeatable)")
    p.add_argument("--verbose", action="store_true", help="timing and counts on stderr")
    args = p.parse_args(argv)
    if args.git_dir and not args.tag:
        p.error("--git-dir needs --tag")
    args.provenance_map = provenance_map(p, args.provenance)
    ext = {}
    for item in args.external_surface:
        if "=" not in item:
            p.error("--external-surface expects LIB=FILE, got %r" % item)
        k, v = item.split("=", 1)
        ext[k] = v
    for item in args.external_git:
        if "=" not in item or "@" not in item:
            p.error("--external-git expects LIB=GITDIR@TAG, got %r" % item)
        k, v = item.split("=", 1)
        ext[k] = ("git", v)
    args.external_map = ext
    if args.target_python:
        try:
            major, minor = args.target_python.split(".")[:2]
            args.target = (int(major), int(minor))
        except ValueError:
            p.error("--target-python expects MAJOR.MINOR")
    else:
        args.target = None
    return args


def _repository_name(git_dir):
    """github:owner/name for mirrors laid out as .../owner+name/repo, else the folder name."""
    d = os.path.abspath(git_dir).rstrip("/")
    parts = d.split("/")
    for p in reversed(parts):
        if "+" in p:
            owner, name = p.split("+", 1)
            return "github:%s/%s" % (owner, name)
    return parts[-1]


def build_surface(library, version, provenance, extractor, records, modules, errors):
    apis = [records[p] for p in sorted(records)]
    callables = [a for a in apis if a["kind"] in CALLABLE_KINDS]
    with_sig = [a for a in callables if a["signature"] is not None]
    sources = {"inspect": 0, "docstring": 0, "stub": 0}
    for a in with_sig:
        sources[a["signature"]["source"]] = sources.get(a["signature"]["source"], 0) + 1
    mods = [{"name": n, "imported": ok} for n, ok in sorted(modules.items())]
    all_errors = set(errors)
    for m, t in extractor.notes:
        all_errors.add((m, t))
    return {
        "schema": SCHEMA,
        "library": library,
        "version": version,
        "python": None,
        "platform": "linux",
        "provenance": provenance,
        "modules": mods,
        "apis": apis,
        "errors": [{"module": m, "error": e} for m, e in sorted(all_errors)],
        "removal_notes": dict(sorted(getattr(extractor, "removal_notes", {}).items())),
        # modules that exist on some of the Pythons the release supports only: a runtime surface made on another
        # Python lacks them without disagreeing
        "python_conditional": dict(sorted(getattr(extractor, "python_conditional", {}).items())),
        "stats": {
            "modules": len(mods),
            "modules_imported": sum(1 for m in mods if m["imported"]),
            "apis": len(apis),
            "callables": len(callables),
            "callables_with_signature": len(with_sig),
            "callables_with_returns": sum(1 for a in with_sig if a["signature"].get("returns") is not None),
            "apis_exported": sum(1 for a in apis if a.get("exported", True)),
            "signature_sources": sources,
        },
    }


def extract(library, tree, package_dir=None, version=None, target=None, external=None, siblings=None):
    from .external import ExternalSurface

    from .external import surface_from_git

    surfaces = {}
    for lib, spec in sorted((external or {}).items()):
        if isinstance(spec, tuple):
            surfaces[lib] = surface_from_git(lib, spec[1])
        else:
            surfaces[lib] = ExternalSurface(lib, spec)
    x = Extractor(library, tree, package_dir, version, target, external_surfaces=surfaces, siblings=siblings)
    x.run()
    x.knowledge.finalize()
    records, modules, errors = x.module_records()
    return x, records, modules, errors


def main(argv=None):
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    started = time.time()
    try:
        if args.git_dir:
            tree = GitTree(args.git_dir, args.tag)
        elif is_archive(args.source):
            tree = ArchiveTree(args.source)
        else:
            tree = DirTree(args.source)
    except (SourceError, ArchiveError) as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    version = args.version or (args.tag[1:] if args.tag and args.tag[:1] in "vV" else args.tag) or "unknown"
    provenance = {"source": "static", "extractor": EXTRACTOR_VERSION}
    if args.git_dir:
        provenance.update({"repository": _repository_name(args.git_dir), "tag": args.tag, "commit": tree.commit})
    elif is_archive(args.source):
        provenance["file"] = os.path.basename(args.source)
    else:
        provenance["directory"] = os.path.basename(os.path.abspath(args.source))
    provenance.update(args.provenance_map)
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of old sources
            x, records, modules, errors = extract(args.library, tree, args.package_dir, version, args.target,
                                                  args.external_map, args.sibling)
    finally:
        tree.close()
    provenance.setdefault("target_python", "%d.%d" % x.target_python)
    for lib, surf in sorted(x.external.items()):
        provenance.setdefault("external_" + lib, surf.origin or "%s %s" % (lib, surf.version))
    surface = build_surface(args.library, version, provenance, x, records, modules, errors)
    data = encode(surface)
    if args.out:
        write(data, args.out)
    else:
        sys.stdout.buffer.write(data)
    if args.verbose:
        st = surface["stats"]
        pct = 100.0 * st["callables_with_signature"] / st["callables"] if st["callables"] else 0.0
        sys.stderr.write("static %s %s: %d modules (%d read), %d apis, %d callables, %.1f%% with signature, "
                         "%d errors, %.1f s\n" % (args.library, version, st["modules"], st["modules_imported"],
                                                 st["apis"], st["callables"], pct, len(surface["errors"]),
                                                 time.time() - started))
    root_ok = modules.get(args.library, False)
    return 0 if root_ok else 1
