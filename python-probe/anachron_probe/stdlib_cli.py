"""Command line: python3 stdlib_probe.py [--out FILE] [--provenance KEY=VALUE]... [--timeout-per-module S]"""
import argparse
import gzip
import json
import platform
import sys
import time

from . import SCHEMA
from .isolation import Guard, Silence, exit_now
from .provenance import provenance_map
from .static.cli import encode, write
from .stdlib_runtime import probe_stdlib


def _parse_args(argv):
    p = argparse.ArgumentParser(
        prog="stdlib_probe.py",
        description="Walk this interpreter's standard library and write its public API surface as JSON.",
    )
    p.add_argument("--out", help="write here instead of stdout; gzipped (mtime 0) when it ends in .gz")
    p.add_argument("--provenance", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--candidates", metavar="FILE",
                   help="a surface (.json or .json.gz, e.g. typeshed's for this version) whose module-level names are "
                        "tried with getattr where a module serves names through __getattr__ that dir() does not list")
    p.add_argument("--timeout-per-module", type=float, default=20.0, metavar="SECONDS")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    args.provenance_map = provenance_map(p, args.provenance)
    return args


def _candidates(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        surface = json.load(f)
    modules = set(a["path"] for a in surface.get("apis", []) if a.get("kind") == "module")
    return sorted(a["path"] for a in surface.get("apis", []) if a["path"].rpartition(".")[0] in modules and a.get("kind") != "module")


def main(argv=None):
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    started = time.time()
    candidates = _candidates(args.candidates) if args.candidates else []
    silence = Silence()
    with silence:
        guard = Guard(silence, args.timeout_per_module)
        records, modules, errors, notes, served = probe_stdlib(guard, candidates=candidates)
    if args.candidates:
        args.provenance_map["served_by_module_getattr"] = str(served)
    apis = [records[p] for p in sorted(records)]
    surface = {
        "schema": SCHEMA,
        "library": "python",
        "version": "%d.%d" % sys.version_info[:2],
        "python": platform.python_version(),
        "platform": sys.platform,
        "provenance": dict(args.provenance_map, source=args.provenance_map.get("source", "runtime")),
        "modules": [{"name": n, "imported": ok} for n, ok in sorted(modules.items())],
        "apis": apis,
        "errors": [{"module": m, "error": e} for m, e in sorted(errors)],
        "removal_notes": dict(sorted(notes.items())),
    }
    data = encode(surface)
    if args.out:
        write(data, args.out)
    else:
        silence.write_stdout(data)
    if args.verbose:
        msg = "stdlib %s: %d modules (%d imported), %d apis, %d errors, %.1f s\n" % (
            surface["python"], len(modules), sum(1 for ok in modules.values() if ok), len(apis), len(errors), time.time() - started)
        silence.write_stderr(msg.encode("utf-8", "replace"))
    exit_now(0)
