#!/usr/bin/env python3
"""What a release tag deprecates, joined to the public paths of its surface (anachron_probe/deprecations.py).

    deprecations.py --git-dir REPO.git --tag v2.2.0 --package numpy --surface numpy-2.2.0.static.json.gz \
        --out numpy-2.2.0.deprecations.json.gz
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe import deprecations  # noqa: E402
from anachron_probe.static.cli import _repository_name  # noqa: E402
from anachron_probe.static.source import GitTree, SourceError  # noqa: E402
from anachron_probe.surface_files import encode, read_surface, write_output  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--git-dir", required=True, help="bare git repository of the library")
    parser.add_argument("--tag", required=True)
    parser.add_argument("--package", required=True, help="the top-level package folder (numpy, scipy)")
    parser.add_argument("--surface", required=True, help="the release's surface (its public paths and defined_in)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    surface = read_surface(args.surface)
    if surface is None:
        parser.error("cannot read the surface %s" % args.surface)
    try:
        tree = GitTree(args.git_dir, args.tag)
    except SourceError as e:
        print("deprecations.py: %s" % e, file=sys.stderr)
        return 2
    try:
        modules = deprecations.read_definitions(tree, args.package)
        defs, mods = deprecations.definitions(modules)
    finally:
        tree.close()
    found = deprecations.join_surface(defs, mods, surface)
    doc = {
        "schema": deprecations.FORMAT,
        "library": surface["library"],
        "version": surface["version"],
        "provenance": {"repository": _repository_name(args.git_dir), "tag": args.tag, "commit": tree.commit,
                       "extractor": deprecations.EXTRACTOR, "surface": os.path.basename(args.surface)},
        "deprecations": found,
    }
    write_output(encode(doc), args.out)
    print("%s %s: %d deprecations" % (surface["library"], surface["version"], len(found)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
