"""Runtime surfaces of a library's releases, each probed in a virtual environment made from its published wheels
(environments.py), cached.

    python3 -m anachron_probe.releases.runtime LIBRARY --out-dir DIR [--versions V...] [--venvs DIR] [--keep-venvs]
        [--jobs N]

Probes every version given, else every version DIR holds a static surface of (the tracked releases), and writes
DIR/LIBRARY-VERSION.runtime.json.gz with the environment in its provenance (source venv-runtime, the Python, the
packages pip installed, whether they were constrained to the release's date). A version whose runtime surface
exists from the same probe is skipped; one no Python of the machine installs is reported and left out. One line per
version. The venvs (under --venvs, default ANACHRON_VENV_CACHE or ~/.cache/anachron/venvs) are removed after the
probe unless --keep-venvs: the provenance is what it takes to make one again. --jobs N probes up to N versions at
once (each in its own venv; a version that fails is reported and the others go on; a rerun probes what is missing).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from .. import PROBE_VERSION
from ..surface_files import cache_folder, read_surface, write_output
from ..libraries import LibraryFileError, load
from .environments import EnvironmentError_, machine_pythons, make_environment
from .index import IndexError, ProjectIndex, release_key

_PROBE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "probe.py")


def default_venvs():
    return cache_folder("ANACHRON_VENV_CACHE", "venvs")


def tracked_versions(library, out_dir):
    pat = re.compile(r"^%s-(.+)\.static\.json\.gz$" % re.escape(library))
    found = [m.group(1) for m in (pat.match(n) for n in os.listdir(out_dir)) if m] if os.path.isdir(out_dir) else []
    return sorted(found, key=lambda v: release_key(v) or (0, 0, 0))


def probe_release(definition, version, index, out, venvs, pythons, keep=False, log=print, timeout=1800):
    """Probe ``version`` into ``out``; returns (surface or None, seconds, status)."""
    library = definition["name"]
    existing = read_surface(out)
    if existing is not None and existing.get("provenance", {}).get("probe") == PROBE_VERSION:
        return existing, 0.0, "cached"
    t0 = time.time()
    line = ".".join(version.split(".")[:2])
    preferred = definition["runtime"].get("python", {}).get(line)
    env = make_environment(library, definition["distribution"], version, index, venvs, pythons, preferred, log,
                           definition["runtime"].get("venvRequirements", []))
    try:
        prov = ["source=venv-runtime", "probe=%s" % PROBE_VERSION, "index=%s" % index.index_url,
                "python_choice=%s" % env.why, "packages=%s" % " ".join(env.packages),
                "constrained=%s" % ("dependencies no newer than the release" if env.constrained else "none: "
                                    "no wheels satisfied them for this Python")]
        tmp = out + ".probe.json"
        argv = [env.python, _PROBE, library, "--out", tmp, "--release-version", version]
        for p in prov:
            argv += ["--provenance", p]
        r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout,
                           env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0", MPLBACKEND="Agg"))
        if not os.path.exists(tmp):
            raise EnvironmentError_("probe.py wrote nothing (exit %d): %s" % (
                r.returncode, r.stderr.decode("utf-8", "replace").strip()[-500:]))
        with open(tmp, "rb") as f:
            data = f.read()
        os.remove(tmp)
        surface = json.loads(data.decode("utf-8"))
        if r.returncode != 0:
            raise EnvironmentError_("%s does not import in its environment: %s" % (library, "; ".join(
                e["error"] for e in surface.get("errors", []) if e["module"] == library)[:500]))
        write_output(data, out)
        return surface, time.time() - t0, "probed"
    finally:
        if not keep:
            shutil.rmtree(env.path, ignore_errors=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="runtime", description=__doc__.split("\n\n")[0])
    p.add_argument("library")
    p.add_argument("--out-dir", required=True)
    p.add_argument("--versions", nargs="*")
    p.add_argument("--venvs", default=None)
    p.add_argument("--keep-venvs", action="store_true")
    p.add_argument("--release-cache", help="where release files and index pages are kept (ANACHRON_RELEASE_CACHE)")
    p.add_argument("--jobs", type=int, default=1, help="versions probed at once (default 1)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1, not %d" % args.jobs)
    try:
        definition = load(args.library)
        index = ProjectIndex(definition["distribution"], cache_dir=args.release_cache)
    except (LibraryFileError, IndexError) as e:
        p.error(str(e))
    versions = args.versions or tracked_versions(args.library, args.out_dir)
    if not versions:
        p.error("no versions: give --versions or make the static surfaces first")
    venvs = os.path.abspath(args.venvs or default_venvs())
    os.makedirs(venvs, exist_ok=True)
    pythons = machine_pythons()
    print("%s: %d versions; Pythons here: %s" % (args.library, len(versions),
                                                 " ".join("%d.%d" % v for v in sorted(pythons))))
    failed = []
    lock = threading.Lock()

    def say(text):
        with lock:
            print(text)
            sys.stdout.flush()

    def one(version):
        out = os.path.join(args.out_dir, "%s-%s.runtime.json.gz" % (args.library, version))
        # with more than one job the environment's lines name their version
        log = say if args.jobs == 1 else (lambda text: say("%s %s: %s" % (args.library, version, text.strip())))
        return probe_release(definition, version, index, out, venvs, pythons, args.keep_venvs, log=log)

    # threads: each probe is a pip run and a probe.py process of its own
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = dict((pool.submit(one, version), version) for version in versions)
        done = 0
        for future in concurrent.futures.as_completed(running):
            version = running[future]
            done += 1
            try:
                surface, seconds, status = future.result()
            except (EnvironmentError_, IndexError, subprocess.SubprocessError, OSError) as e:
                failed.append(version)
                say("%s %-10s left out: %s" % (args.library, version, e))
                continue
            st = surface["stats"]
            say("%s %-10s %6.1fs  python %-7s apis %6d  modules %4d/%-4d  %s%s" % (
                args.library, version, seconds, surface.get("python"), st["apis"], st["modules_imported"],
                st["modules"], status, "  [%d/%d]" % (done, len(versions)) if len(versions) > 1 else ""))
    failed.sort(key=lambda v: release_key(v) or (0, 0, 0))
    print("%s: %d probed, left out: %s" % (args.library, len(versions) - len(failed), " ".join(failed) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
