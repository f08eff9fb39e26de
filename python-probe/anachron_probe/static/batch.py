"""Static surfaces for many tags of one library, cached (scripts/static-tags.sh runs this).

    python3 -m anachron_probe.static.batch LIBRARY --git-dir REPO --out-dir DIR
        [--tags TAG...] [--minors FIRST LAST] [--patches] [--external LIB=REPO] [--version-map TAG=VERSION]...
        [--cache-dir DIR] [--jobs N]
    python3 -m anachron_probe.static.batch LIBRARY --plan --out-dir DIR [--cache-dir DIR] [--tags TAG...] [--jobs N]

--plan takes the release plan of libraries/LIBRARY.toml (a [static] section with from = "git"): its repository's
mirror (ANACHRON_MIRRORS), the minors from releases.first to releases.last (default: the newest), patches, the
extra versions, tag-versions, and the mirrors of the libraries it re-exports.

Writes DIR/LIBRARY-VERSION.static.json.gz for every tag in --tags and every minor release ``X.Y.0`` between FIRST
and LAST; with --patches also every patch release of those minors whose public surface (API paths and parameter
names) differs from the previous release of its line that is kept (its ``.0``, or an earlier patch release that
differed); the others are reported and left out. A tag whose output exists with the same
extractor version is skipped. --external LIB=REPO reads that dependency from its repository at the newest minor
release tagged before the tag (what scipy < 1.9 re-exports from numpy). --index-project NAME reads the releases
from the files a package index published (releases/index.py; its sdist, else a wheel) instead of tags: a release
is then named by its version. One line per tag on stdout, as each finishes. --jobs N reads up to N releases at
once (forked worker processes; the minor releases first, then the patch releases, each compared with its line in
release order once read); a release that fails, or whose worker dies, is reported and the others go on; a rerun
extracts only what is missing. Exit status 3 when some releases failed (the others are written), 2 for bad
arguments.
"""
import argparse
import concurrent.futures
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time

from . import EXTRACTOR_VERSION
from ..surface_files import read_surface
from .cli import build_surface, encode, extract, write
from .external import ExternalSurface
from .source import GitTree
from ..releases.index import release_key

FAILED_RELEASES = 3  # the exit status when some releases failed and the others were read
_RELEASE = re.compile(r"^v?(\d+)\.(\d+)\.(\d+)$")
_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$")  # a --minors bound: 2.2 is 2.2.0 (Django's minors)


def _git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, check=False).stdout.decode("utf-8", "replace")


def release_tags(repo):
    """{tag: ((major, minor, patch), commit time)} of final releases."""
    out = {}
    for line in _git(repo, "for-each-ref", "--format=%(refname:short) %(*committerdate:unix)%(committerdate:unix)",
                     "refs/tags").splitlines():
        parts = line.split()
        if len(parts) != 2:
            continue
        m = _RELEASE.match(parts[0])
        if m:
            out[parts[0]] = (tuple(int(g) for g in m.groups()), int(parts[1]))
    return out


def _version_of(tag, version_map):
    return version_map.get(tag) or (tag[1:] if tag[:1] in "vV" else tag)


def _signature_key(surface):
    """What the patch rule compares: the public surface's paths and parameter names. A name counts where it is
    defined (``pandas.core.frame.DataFrame``), where the root package shows it (``pandas.DataFrame``) and as a
    module; not where an implementation imports it (``pandas.core.internals.blocks.Timestamp``), which patch
    releases reshuffle without changing what users call. Class members count with their class."""
    records = dict((a["path"], a) for a in surface["apis"] if a.get("exported", True))
    root = surface.get("library")
    memo = {}

    def counts(path):
        if path in memo:
            return memo[path]
        a = records.get(path)
        parent = path.rpartition(".")[0]
        p = records.get(parent)
        if a is None:
            ok = False
        elif a["kind"] == "module" or not parent:
            ok = True
        elif p is not None and p["kind"] == "class":
            ok = counts(parent)
        else:
            ok = parent == root or a.get("defined_in") in (None, parent)
        memo[path] = ok
        return ok

    out = set()
    for path, a in records.items():
        if not counts(path):
            continue
        sig = a.get("signature")
        params = tuple(p["name"] for p in sig["parameters"]) if sig else None
        out.add((path, params))
    return out


def _current(path):
    s = read_surface(path)
    if s is not None and s.get("provenance", {}).get("extractor") == EXTRACTOR_VERSION:
        return s
    return None


class GitReleases(object):
    """Releases as the tags of a bare repository."""

    def __init__(self, repo, version_map):
        self.repo = repo
        self.version_map = version_map
        self.tags = release_tags(repo)

    def version_of(self, tag):
        return _version_of(tag, self.version_map)

    def time_of(self, tag):
        return self.tags.get(tag, ((0, 0, 0), 0))[1] or _commit_time(self.repo, tag)

    def open(self, tag):
        return GitTree(self.repo, tag)

    def provenance(self, tag, tree):
        prov = {"repository": _repo_name(self.repo), "tag": tag, "commit": tree.commit}
        plain = tag[1:] if tag[:1] in "vV" else tag
        if self.version_of(tag) != plain:
            prov["tag_version"] = plain
        return prov


class IndexReleases(object):
    """Releases as the files a package index published: each read from its sdist (the sources as released, with
    the build files that say which extension modules exist), else from a wheel."""

    def __init__(self, project, cache_dir=None):
        from ..releases.index import ProjectIndex, release_key

        self.index = ProjectIndex(project, cache_dir=cache_dir)
        self.tags = dict((v, (release_key(v), self.index.upload_time(v))) for v in self.index.releases())
        self._files = {}

    def version_of(self, name):
        return name

    def time_of(self, name):
        return self.tags.get(name, ((0, 0, 0), 0))[1]

    def file_of(self, version):
        if version not in self._files:
            f = self.index.sdist(version)
            if f is None:
                wheels = self.index.wheels(version)
                pure = [w for w in wheels if any(t[2] == "any" for t in w.tags)]
                f = (pure or wheels or [None])[0]
            if f is None:
                raise ValueError("%s %s published no sdist and no wheel" % (self.index.project, version))
            self._files[version] = f
        return self._files[version]

    def open(self, version):
        from ..archive import ArchiveTree

        return ArchiveTree(self.index.download(self.file_of(version)))

    def provenance(self, version, tree):
        f = self.file_of(version)
        return {"index": self.index.index_url, "file": f.filename, "sha256": f.sha256}


class Batch(object):
    def __init__(self, args):
        self.args = args
        self.library = args.library
        if getattr(args, "index_project", None):
            self.releases = IndexReleases(args.index_project, getattr(args, "release_cache", None))
        else:
            self.releases = GitReleases(args.git_dir, dict(v.split("=", 1) for v in args.version_map))
        self.tags = self.releases.tags
        self.cache_dir = args.cache_dir
        self.externals = {}
        for item in args.external:
            lib, repo = item.split("=", 1)
            self.externals[lib] = (repo, release_tags(repo), {})
        os.makedirs(args.out_dir, exist_ok=True)
        if self.cache_dir:
            os.makedirs(self.cache_dir, exist_ok=True)

    def write_same_surface(self, same_surface):
        """LIB.same-surface.json beside the surfaces: the patch releases left out because their surface is a kept
        release's (the matrix answers for them as for that release)."""
        path = _same_surface_path(self.args.out_dir, self.library)
        text = json.dumps(dict(sorted(same_surface.items(), key=lambda kv: release_key(kv[0]) or (0, 0, 0))), indent=1) + "\n"
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)

    def out_path(self, tag, directory=None):
        version = self.releases.version_of(tag)
        return os.path.join(directory or self.args.out_dir, "%s-%s.static.json.gz" % (self.library, version))

    def external_for(self, tag):
        """LIB -> ExternalSurface of the dependency's newest minor release tagged before ``tag``'s minor release
        (the ``.0``: all patch releases of a minor see the same dependency, so the patch rule compares the
        library, not its dependency)."""
        v = self.tags.get(tag, ((0, 0, 0), 0))[0]
        base = [name for name, (bv, t) in self.tags.items() if bv[:2] == v[:2] and bv[2] == 0]
        ref = base[0] if base else tag
        when = self.releases.time_of(ref)
        out = {}
        for lib, (repo, tags, memo) in sorted(self.externals.items()):
            minors = [(v, t, name) for name, (v, t) in tags.items() if v[2] == 0 and t <= when]
            if not minors:
                continue
            v, t, name = max(minors)
            if name not in memo:
                memo[name] = self._external_surface(lib, repo, name)
            out[lib] = memo[name]
        return out

    def _external_surface(self, lib, repo, tag):
        cached = None
        if self.cache_dir:
            cached = os.path.join(self.cache_dir, "external-%s-%s-%s.json.gz" % (lib, tag, EXTRACTOR_VERSION))
            data = read_surface(cached)
            if data is not None:
                return ExternalSurface(lib, data=data["surface"], alls=data["alls"], origin=data["origin"])
        from .external import surface_from_git

        surf = surface_from_git(lib, "%s@%s" % (repo, tag))
        if cached:
            blob = {"surface": {"version": surf.version, "apis": list(surf.records.values()),
                                "modules": [{"name": m, "imported": True} for m in sorted(surf.modules)]},
                    "alls": surf.alls, "origin": surf.origin}
            write(json.dumps(blob, sort_keys=True).encode("utf-8"), cached)
        return surf

    def minor_target(self, tag):
        """The target Python of ``tag``'s minor release (its ``.0``): patch releases are read for the same Python,
        so the patch rule compares the library, not the Pythons their classifiers name."""
        v = self.tags.get(tag, ((0, 0, 0), 0))[0]
        if v[2] == 0:
            return None
        base = [name for name, (bv, t) in self.tags.items() if bv[:2] == v[:2] and bv[2] == 0]
        if not base:
            return None
        s = read_surface(self.out_path(base[0]))
        tp = s.get("provenance", {}).get("target_python") if s else None
        if not tp:
            return None
        major, minor = tp.split(".")[:2]
        return (int(major), int(minor))

    def run_tag(self, tag, out):
        """Extract ``tag`` into ``out`` unless it is current. Returns (surface, seconds, status)."""
        existing = _current(out)
        target = self.minor_target(tag)
        if existing is not None and (target is None or
                                     existing.get("provenance", {}).get("target_python") == "%d.%d" % target):
            return existing, 0.0, "cached"
        t0 = time.time()
        tree = self.releases.open(tag)
        try:
            version = self.releases.version_of(tag)
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ext = self.external_for(tag)
                x, records, modules, errors = _extract_with(self.library, tree, version, ext, target,
                                                            getattr(self.args, "package_dir", None))
        finally:
            tree.close()
        prov = {"source": "static", "extractor": EXTRACTOR_VERSION}
        prov.update(self.releases.provenance(tag, tree))
        prov["target_python"] = "%d.%d" % x.target_python
        for lib, surf in sorted(ext.items()):
            prov["external_" + lib] = surf.origin
        surface = build_surface(self.library, version, prov, x, records, modules, errors)
        write(encode(surface), out)
        return surface, time.time() - t0, "extracted"

    def line(self, tag, st, seconds, status, note=""):
        pct = 100.0 * st["callables_with_signature"] / st["callables"] if st["callables"] else 0.0
        print("%s %-10s %6.1fs  apis %6d  callables %6d  with signature %5.1f%%  %s%s" % (
            self.library, tag, seconds, st["apis"], st["callables"], pct, status, (" " + note) if note else ""))
        sys.stdout.flush()

    def compare_patches(self, pool, minors, chosen, kept_patches, same_surface, failed):
        """The patch rule: every patch release of each minor is read (all at once, up to the pool's jobs), then
        compared in release order with the previous release its line keeps: a change that stays (2.2.1's new name,
        still there in 2.2.2) is one more version, not one per later patch."""
        args = self.args
        lines = []
        for base in minors:
            if read_surface(self.out_path(base)) is None:
                continue
            bv = self.tags[base][0]
            patches = sorted((v, name) for name, (v, t) in self.tags.items()
                             if v[:2] == bv[:2] and v[2] > 0 and name not in args.skip)
            reads = []
            for v, tag in patches:
                out = self.out_path(tag)
                if tag in chosen:
                    reads.append((tag, out, None, None))
                    continue
                scratch = self.out_path(tag, self.cache_dir) if self.cache_dir else out
                path = out if os.path.exists(out) else scratch
                reads.append((tag, out, (path, scratch), pool.submit(_extract, tag, path)))
            lines.append((base, reads))
        for base, reads in lines:
            base_key = _signature_key(read_surface(self.out_path(base)))
            for tag, out, paths, future in reads:
                if future is None:  # read with the minors: it is kept, and the next patch is compared with it
                    kept = read_surface(out)
                    if kept is not None:
                        base, base_key = tag, _signature_key(kept)
                    continue
                path, scratch = paths
                try:
                    stats, seconds, status = future.result()
                    surface = read_surface(path)
                    if surface is None:
                        raise ValueError("no surface at %s after reading it" % path)
                except Exception as e:
                    failed.append(tag)
                    print("%s %-10s failed: %s: %s" % (self.library, tag, type(e).__name__, e))
                    sys.stdout.flush()
                    continue
                key = _signature_key(surface)
                if key != base_key:
                    if not os.path.exists(out):
                        write(encode(surface), out)
                    added = len(set(p for p, _ in key) - set(p for p, _ in base_key))
                    removed = len(set(p for p, _ in base_key) - set(p for p, _ in key))
                    kept_patches.append(tag)
                    self.line(tag, stats, seconds, status, "kept: differs from %s (+%d -%d paths, %d changed)" % (
                        base, added, removed, len(key ^ base_key)))
                    base, base_key = tag, key
                else:
                    if os.path.exists(out) and out != scratch:
                        os.remove(out)
                    self.line(tag, stats, seconds, status, "same surface as %s: left out" % base)
                    same_surface[self.releases.version_of(tag)] = self.releases.version_of(base)
        self.write_same_surface(same_surface)

    def main(self):
        args = self.args
        chosen = list(args.tags)
        minors = []
        if args.minors:
            lo = _parse(args.minors[0])
            hi = _parse(args.minors[1])
            for name, (v, t) in sorted(self.tags.items(), key=lambda kv: kv[1][0]):
                if v[2] == 0 and lo <= v <= hi:
                    minors.append(name)
        for tag in minors:
            if tag not in chosen:
                chosen.append(tag)
        chosen = [t for t in chosen if t not in args.skip]
        # minor releases first: the patch releases (and any other tags) read for their target Python
        chosen.sort(key=lambda t: (self.tags.get(t, ((0, 0, 0), 0))[0][2] != 0, self.tags.get(t, ((0, 0, 0), 0))[0]))
        kept_patches = []
        same_surface = {}  # left-out patch release -> the kept release whose surface it has
        failed = []
        with _pool(self, getattr(args, "jobs", 1)) as pool:
            done = 0
            # the .0 releases in one wave, then the others (read for their minor's target Python)
            for wave in ([t for t in chosen if self.tags.get(t, ((0, 0, 0), 0))[0][2] == 0],
                         [t for t in chosen if self.tags.get(t, ((0, 0, 0), 0))[0][2] != 0]):
                running = dict((pool.submit(_extract, tag, self.out_path(tag)), tag) for tag in wave)
                for future in concurrent.futures.as_completed(running):
                    tag = running[future]
                    done += 1
                    try:
                        stats, seconds, status = future.result()
                    except Exception as e:  # report and go on with the other tags
                        failed.append(tag)
                        # the failure counts in the progress too, or the counter skips the number it took
                        print("%s %-10s failed: %s: %s%s" % (self.library, tag, type(e).__name__, e,
                                                             " [%d/%d]" % (done, len(chosen)) if len(chosen) > 1 else ""))
                        sys.stdout.flush()
                        continue
                    self.line(tag, stats, seconds, status, "[%d/%d]" % (done, len(chosen)) if len(chosen) > 1 else "")
            if args.patches:
                self.compare_patches(pool, minors, chosen, kept_patches, same_surface, failed)
        print("%s: %d tags, patch releases kept: %s" % (self.library, len(chosen) + len(kept_patches),
                                                         " ".join(kept_patches) or "none"))
        if failed:
            print("%s: failed: %s" % (self.library, " ".join(sorted(failed, key=lambda t: self.tags.get(t, ((0, 0, 0), 0))[0]))))
            return FAILED_RELEASES
        return 0


_WORKER = None  # the Batch a worker process reads releases with (set before the workers fork)


def _extract(tag, out):
    """Read ``tag`` into ``out`` (in a worker, or in this process with one job); returns (stats, seconds, status)."""
    surface, seconds, status = _WORKER.run_tag(tag, out)
    return surface["stats"], seconds, status


class _Inline(object):
    """One job: each release read in this process when submitted (the order and output of a plain loop)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, fn, *args):
        future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args))
        except Exception as e:
            future.set_exception(e)
        return future


def _pool(batch, jobs):
    """Where releases are read: this process for one job, else up to ``jobs`` forked workers. A worker that dies
    (killed, out of memory) fails the releases it had; a new pool is not started: a rerun reads what is missing."""
    global _WORKER
    _WORKER = batch
    if jobs <= 1:
        return _Inline()
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"))


def _same_surface_path(out_dir, library):
    return os.path.join(out_dir, "%s.same-surface.json" % library)


def _extract_with(library, tree, version, external, target=None, package_dir=None):
    from .extract import Extractor

    x = Extractor(library, tree, package_dir, version, target, external_surfaces=external)
    x.run()
    x.knowledge.finalize()
    records, modules, errors = x.module_records()
    return x, records, modules, errors


def _commit_time(repo, tag):
    out = _git(repo, "log", "-1", "--format=%ct", tag).strip()
    return int(out) if out.isdigit() else 0


def _repo_name(git_dir):
    from .cli import _repository_name

    return _repository_name(git_dir)


def _parse(v):
    m = _VERSION.match(v)
    if not m:
        raise SystemExit("not a release version: %s" % v)
    return tuple(int(g or 0) for g in m.groups())


def apply_plan(args):
    """Fill ``args`` from libraries/LIBRARY.toml (``--plan``)."""
    from ..libraries import LibraryFileError, load, mirror_dir, tag_of

    d = load(args.library)
    st = d.get("static")
    rel = d.get("releases")
    if not st or not rel:
        raise LibraryFileError("libraries/%s.toml has no release plan ([static] and [releases])" % args.library)
    if st["from"] == "pypi":
        args.index_project = d["distribution"]
        name_of = lambda v: v  # noqa: E731 (releases are named by their version)
        names = IndexReleases(args.index_project, getattr(args, "release_cache", None)).tags
    else:
        args.git_dir = args.git_dir or mirror_dir(st["repository"])
        if not os.path.isdir(args.git_dir):
            raise LibraryFileError("no mirror of %s at %s" % (st["repository"], args.git_dir))
        name_of = lambda v: tag_of(d, v)  # noqa: E731
        names = None
        for tag_version, version in sorted(rel["tagVersions"].items()):
            args.version_map.append("%s=%s" % (st["tag"].replace("{version}", tag_version), version))
        for lib in st["reexports"]:
            args.external.append("%s=%s" % (lib, mirror_dir(load(lib)["static"]["repository"])))
    first = name_of(rel["first"])
    last = name_of(rel["last"]) if rel["last"] else None
    if last is None:
        names = names if names is not None else release_tags(args.git_dir)
        minors = [(v, name) for name, (v, t) in names.items() if v[2] == 0]
        last = max(minors)[1] if minors else first
    args.minors = [first, last]
    args.patches = args.patches or rel["patches"]
    args.package_dir = getattr(args, "package_dir", None) or st["packageDir"]
    args.skip = list(getattr(args, "skip", []) or []) + [name_of(v) for v in rel["skip"]]
    args.tags = list(args.tags) + [name_of(v) for v in rel["extra"] if name_of(v) not in args.tags]
    return args


def main(argv=None):
    p = argparse.ArgumentParser(prog="static-tags", description=__doc__.split("\n\n")[0])
    p.add_argument("library")
    p.add_argument("--plan", action="store_true", help="the release plan of libraries/LIBRARY.toml")
    p.add_argument("--git-dir")
    p.add_argument("--out-dir", required=True)
    p.add_argument("--tags", nargs="*", default=[])
    p.add_argument("--minors", nargs=2, metavar=("FIRST", "LAST"))
    p.add_argument("--patches", action="store_true")
    p.add_argument("--external", action="append", default=[], metavar="LIB=REPO")
    p.add_argument("--version-map", action="append", default=[], metavar="TAG=VERSION")
    p.add_argument("--cache-dir")
    p.add_argument("--index-project", help="read releases from the files a package index published (the "
                                           "distribution's name) instead of a repository's tags")
    p.add_argument("--release-cache", help="where downloaded release files are kept (ANACHRON_RELEASE_CACHE)")
    p.add_argument("--skip", nargs="*", default=[], help="releases left out")
    p.add_argument("--package-dir", help="folder of the package in each tree (default: found)")
    p.add_argument("--jobs", type=int, default=1, help="releases read at once (worker processes; default 1)")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1, not %d" % args.jobs)
    if args.plan:
        from ..libraries import LibraryFileError

        try:
            apply_plan(args)
        except LibraryFileError as e:
            p.error(str(e))
    elif not args.git_dir and not args.index_project:
        p.error("give --git-dir REPO, --index-project NAME or --plan")
    return Batch(args).main()


if __name__ == "__main__":
    sys.exit(main())
