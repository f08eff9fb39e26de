"""python3 typeshed.py --repo TYPESHED.git [--rev REV] [--minors 8-14] --out-dir DIR [--verbose]

Writes DIR/python-3.M.static.json.gz for every minor: the standard library at Python 3.M as typeshed's stubs
describe it (see extract.py for how several commits are chained)."""
import argparse
import os
import sys
import time

from .. import SCHEMA
from ..static.cli import encode, write
from .extract import chain, evaluate_commit
from .gitfiles import commit_info, newest_commit_supporting, read_tree

EXTRACTOR_VERSION = "typeshed-1"


def _parse_args(argv):
    p = argparse.ArgumentParser(prog="typeshed.py", description=__doc__.split("\n\n")[1])
    p.add_argument("--repo", required=True, help="bare git repository of github:python/typeshed")
    p.add_argument("--rev", default="HEAD", help="the newest commit to read (default HEAD)")
    p.add_argument("--minors", default="8-14", help="Python 3 minors, FIRST-LAST (default 8-14)")
    p.add_argument("--out-dir", required=True)
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    try:
        first, last = (int(x) for x in args.minors.split("-"))
    except ValueError:
        p.error("--minors expects FIRST-LAST, e.g. 8-14, not %r" % args.minors)
    if first > last:
        p.error("--minors: %d is after %d" % (first, last))
    args.minor_list = list(range(first, last + 1))
    return args


def main(argv=None):
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    log = (lambda m: sys.stderr.write(m + "\n")) if args.verbose else (lambda m: None)
    started = time.time()
    head, _ = commit_info(args.repo, args.rev)
    # Which commit reads which minor: the newest commit still supporting it.
    plan = {}
    for minor in args.minor_list:
        commit = newest_commit_supporting(args.repo, head, minor)
        if commit is None:
            sys.stderr.write("typeshed.py: no commit of %s supports Python 3.%d\n" % (args.repo, minor))
            return 2
        plan.setdefault(commit_info(args.repo, commit), []).append(minor)
    commits = sorted(plan, key=lambda c: c[1], reverse=True)  # newest first
    newest = commits[0]
    evaluations = {}
    for commit in commits:
        own = plan[commit]
        wanted = list(own)
        if commit != newest:
            wanted.append(max(own) + 1)  # the next minor, to tell Python's changes from typeshed's
        t = time.time()
        evaluations[commit] = evaluate_commit(read_tree(args.repo, commit[0]), wanted)
        log("typeshed %s (%s): 3.%s in %.1f s" % (commit[0][:12], commit[1][:10], ", 3.".join(map(str, wanted)), time.time() - t))
    newest_records = dict((m, evaluations[newest][m][0]) for m in plan[newest])
    older = []
    for commit in commits[1:]:
        for minor in sorted(plan[commit], reverse=True):
            older.append((minor, dict((m, evaluations[commit][m][0]) for m in (minor, minor + 1))))
    older.sort(key=lambda t: -t[0])
    final, inherited = chain(newest_records, older)

    # Platforms per path: the minor's own commit, and for what it inherited, the next minor's.
    owner = dict((m, c) for c in commits for m in plan[c])
    specific_at = {}
    for minor in sorted(final, reverse=True):
        own = evaluations[owner[minor]][minor][1]
        nxt = specific_at.get(minor + 1, {})
        specific_at[minor] = dict((p, own[p] if p in own else nxt[p]) for p in final[minor] if p in own or (p in inherited.get(minor, ()) and p in nxt))

    os.makedirs(args.out_dir, exist_ok=True)
    for commit in commits:
        for minor in plan[commit]:
            records, _, incomplete, unknown = evaluations[commit][minor]
            specific = specific_at[minor]
            apis = [final[minor][p] for p in sorted(final[minor])]
            paths = set(final[minor])
            provenance = {
                "source": "typeshed",
                "extractor": EXTRACTOR_VERSION,
                "repository": "github:python/typeshed",
                "typeshed_commit": commit[0],
                "typeshed_date": commit[1],
                "platforms": "linux, darwin, win32",
            }
            if minor in inherited:
                provenance["typeshed_newer_commit"] = newest[0]
                provenance["inherited_from_newer_commit"] = str(len(inherited[minor]))
            surface = {
                "schema": SCHEMA,
                "library": "python",
                "version": "3.%d" % minor,
                "python": None,
                "provenance": provenance,
                "modules": [{"name": a["path"], "imported": True} for a in apis if a["kind"] == "module" and a["defined_in"] == a["path"]],
                "apis": apis,
                "errors": [],
                "merge_with_runtime": "union",
                "version_series": True,
                "platform_specific": dict(sorted((p, v) for p, v in specific.items() if p in paths)),
                "incomplete_modules": sorted(m for m in incomplete if m in paths),
                "unknown_conditions": sorted(unknown),
            }
            out = os.path.join(args.out_dir, "python-3.%d.static.json.gz" % minor)
            write(encode(surface), out)
            log("3.%d: %d APIs (%d platform-specific) -> %s" % (minor, len(apis), len(surface["platform_specific"]), out))
    log("done in %.1f s" % (time.time() - started))
    return 0
