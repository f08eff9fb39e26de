"""Command line: python3 probe.py LIBRARY [--out FILE] [--provenance KEY=VALUE]... [--timeout-per-module S]"""
import argparse
import json
import os
import platform
import sys
import time

from . import SCHEMA
from .isolation import Guard, Silence, exit_now
from .provenance import provenance_map
from .walker import CALLABLE_KINDS, Probe


def _parse_args(argv):
    p = argparse.ArgumentParser(
        prog="probe.py",
        description="Import LIBRARY in this interpreter and write its public API surface as JSON.",
    )
    p.add_argument("library", help="top-level import name, e.g. numpy")
    p.add_argument("--out", help="write the JSON here instead of stdout")
    p.add_argument(
        "--provenance",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="recorded verbatim under 'provenance' (repeatable)",
    )
    p.add_argument(
        "--release-version",
        metavar="VERSION",
        help="the library's release version as its packager states it (Debian's upstream version); when the "
        "library's own version (__version__, e.g. torch's 1.7.0a0) differs, VERSION is the surface's version "
        "and the library's own goes to provenance as LIBRARY_version",
    )
    p.add_argument("--timeout-per-module", type=float, default=20.0, metavar="SECONDS")
    p.add_argument("--verbose", action="store_true", help="timing and counts on stderr")
    args = p.parse_args(argv)
    args.provenance_map = provenance_map(p, args.provenance)
    return args


def _library_version(library, root):
    v = getattr(root, "__version__", None) if root is not None else None
    if isinstance(v, str) and v:
        return v
    try:
        from importlib import metadata
    except ImportError:
        return None
    try:
        return metadata.version(library)
    except Exception:
        pass
    try:
        dists = metadata.packages_distributions().get(library) or []
        for d in sorted(dists):
            return metadata.version(d)
    except Exception:
        pass
    return None


def build_surface(args, probe):
    apis = [probe.records[p] for p in sorted(probe.records)]
    callables = [a for a in apis if a["kind"] in CALLABLE_KINDS]
    with_sig = [a for a in callables if a["signature"] is not None]
    sources = {"inspect": 0, "docstring": 0, "stub": 0}
    for a in with_sig:
        sources[a["signature"]["source"]] = sources.get(a["signature"]["source"], 0) + 1
    modules = [{"name": n, "imported": ok} for n, ok in sorted(probe.modules.items())]
    version = _library_version(args.library, probe.root)
    provenance = dict(args.provenance_map)
    if args.release_version and args.release_version != version:
        if version is not None:
            provenance.setdefault(args.library + "_version", version)
        version = args.release_version
    return {
        "schema": SCHEMA,
        "library": args.library,
        "version": version,
        "python": platform.python_version(),
        "platform": sys.platform,
        "provenance": provenance,
        "modules": modules,
        "apis": apis,
        "errors": [{"module": m, "error": e} for m, e in sorted(probe.errors)],
        "removal_notes": dict(sorted(probe.removal_notes.items())),
        "stats": {
            "modules": len(modules),
            "modules_imported": sum(1 for m in modules if m["imported"]),
            "apis": len(apis),
            "callables": len(callables),
            "callables_with_signature": len(with_sig),
            "callables_with_returns": sum(1 for a in with_sig if a["signature"]["returns"] is not None),
            "apis_exported": sum(1 for a in apis if a.get("exported", True)),
            "signature_sources": sources,
        },
    }


def main(argv=None):
    args = _parse_args(sys.argv[1:] if argv is None else argv)
    started = time.time()
    silence = Silence()
    with silence:
        guard = Guard(silence, args.timeout_per_module)
        probe = Probe(args.library, guard)
        ok = probe.run()
        surface = build_surface(args, probe)
    data = (json.dumps(surface, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    if args.out:
        tmp = args.out + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, args.out)
    else:
        silence.write_stdout(data)
    if args.verbose or not ok:
        st = surface["stats"]
        msg = "probe %s %s: %d modules (%d imported), %d apis, %d/%d callables with signature, %.1f s\n" % (
            args.library,
            surface["version"],
            st["modules"],
            st["modules_imported"],
            st["apis"],
            st["callables_with_signature"],
            st["callables"],
            time.time() - started,
        )
        if not ok:
            msg += "error: could not import %s: %s\n" % (
                args.library,
                "; ".join(e["error"] for e in surface["errors"] if e["module"] == args.library),
            )
        silence.write_stderr(msg.encode("utf-8", "replace"))
    exit_now(0 if ok else 1)
