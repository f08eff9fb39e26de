"""The files a project published on a package index, downloaded once and verified by their sha256.

The index is read as pip reads it (PEP 691 JSON at ``INDEX/PROJECT/``, default https://pypi.org/simple), one page
per project, cached. pip itself downloads wheels but an sdist only after building its metadata, which old releases
cannot do with today's build tools: files are therefore fetched from the URL the page gives and checked against the
hash it gives, which is what pip does before it builds anything.

Cache (``ANACHRON_RELEASE_CACHE``, default ``~/.cache/anachron/releases``): ``index/PROJECT.json`` (the page and
when it was read) and ``PROJECT/FILENAME`` (the files)."""
import hashlib
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request

from ..surface_files import cache_folder

DEFAULT_INDEX = "https://pypi.org/simple"
_ACCEPT = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.latest+json;q=0.9"
_FINAL = re.compile(r"^\d+(\.\d+)*$")
_SDIST_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")
# a page younger than this is not read again (new releases appear within a day)
_PAGE_MAX_AGE = 24 * 3600


class IndexError(Exception):  # noqa: A001 (shadows the builtin inside this module only)
    pass


def normalize(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def default_cache():
    return cache_folder("ANACHRON_RELEASE_CACHE", "releases")


def release_key(version):
    """(major, minor, patch) of a final release (``2.2`` is ``(2, 2, 0)``), None for anything else."""
    if not _FINAL.match(version):
        return None
    parts = [int(p) for p in version.split(".")]
    return tuple((parts + [0, 0, 0])[:3]) if len(parts) <= 3 else None


class ReleaseFile(object):
    def __init__(self, entry, project):
        self.filename = entry["filename"]
        self.url = entry["url"]
        self.sha256 = (entry.get("hashes") or {}).get("sha256")
        self.requires_python = entry.get("requires-python")
        self.upload_time = entry.get("upload-time")
        self.yanked = bool(entry.get("yanked"))
        self.size = entry.get("size")
        self.kind, self.version, self.tags = _parse_filename(self.filename, project)

    def is_sdist(self):
        return self.kind == "sdist"

    def is_wheel(self):
        return self.kind == "wheel"


def _parse_filename(filename, project):
    """("wheel", version, [(python, abi, platform)…]) or ("sdist", version, []) or (None, None, [])."""
    low = filename.lower()
    if low.endswith(".whl"):
        parts = filename[:-4].split("-")
        if len(parts) in (5, 6):
            py, abi, plat = parts[-3:]
            tags = [(p, a, pl) for p in py.split(".") for a in abi.split(".") for pl in plat.split(".")]
            return "wheel", parts[1], tags
        return None, None, []
    for suffix in _SDIST_SUFFIXES:
        if low.endswith(suffix):
            stem = filename[: -len(suffix)]
            name, sep, version = stem.rpartition("-")
            if sep and normalize(name) == normalize(project):
                return "sdist", version, []
    return None, None, []


def _utc(stamp):
    """Seconds since the epoch of an index timestamp (``2020-01-29T21:47:34.123Z``), 0 when unknown."""
    if not stamp:
        return 0
    try:
        import calendar

        return calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return 0


class ProjectIndex(object):
    """One project's page of a package index."""

    def __init__(self, project, index_url=None, cache_dir=None, refresh=False):
        self.project = normalize(project)
        self.index_url = (index_url or os.environ.get("ANACHRON_PACKAGE_INDEX") or DEFAULT_INDEX).rstrip("/")
        self.cache_dir = cache_dir or default_cache()
        self.page = self._page(refresh)
        self.files = [ReleaseFile(e, self.project) for e in self.page.get("files", [])]

    def _page(self, refresh):
        cached = os.path.join(self.cache_dir, "index", self.project + ".json")
        if not refresh:
            try:
                with open(cached) as f:
                    data = json.load(f)
                if data.get("index") == self.index_url and time.time() - data.get("fetched", 0) < _PAGE_MAX_AGE:
                    return data["page"]
            except (OSError, ValueError, KeyError):
                pass
        url = "%s/%s/" % (self.index_url, self.project)
        request = urllib.request.Request(url, headers={"Accept": _ACCEPT, "User-Agent": "anachron"})
        try:
            with urllib.request.urlopen(request, timeout=120) as r:
                page = json.loads(r.read().decode("utf-8"))
        except urllib.error.HTTPError as e:
            raise IndexError("%s: HTTP %d%s" % (url, e.code, " (no such project)" if e.code == 404 else ""))
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise IndexError("%s: %s" % (url, getattr(e, "reason", e)))
        if not isinstance(page, dict) or not isinstance(page.get("files"), list):
            raise IndexError("%s: not a PEP 691 project page" % url)
        _write_json(cached, {"index": self.index_url, "fetched": int(time.time()), "page": page})
        return page

    def releases(self):
        """{version: [ReleaseFile]} of final releases with at least one file that is not yanked."""
        out = {}
        for f in self.files:
            if f.version is None or f.yanked or release_key(f.version) is None:
                continue
            out.setdefault(f.version, []).append(f)
        return out

    def upload_time(self, version):
        """When ``version`` was published: its first file's upload time (seconds since the epoch)."""
        times = [_utc(f.upload_time) for f in self.releases().get(version, []) if f.upload_time]
        return min(times) if times else 0

    def sdist(self, version):
        files = [f for f in self.releases().get(version, []) if f.is_sdist()]
        # a release with both a .zip and a .tar.gz (old Django) is read from the tarball
        files.sort(key=lambda f: (not f.filename.endswith(".tar.gz"), f.filename))
        return files[0] if files else None

    def wheels(self, version):
        return [f for f in self.releases().get(version, []) if f.is_wheel()]

    def download(self, release_file):
        """The local path of ``release_file`` (downloaded and verified unless already cached)."""
        path = os.path.join(self.cache_dir, self.project, release_file.filename)
        if os.path.exists(path) and (release_file.sha256 is None or _sha256(path) == release_file.sha256):
            return path
        url = urllib.parse.urljoin("%s/%s/" % (self.index_url, self.project), release_file.url)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.part%d" % (path, os.getpid())
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers={"User-Agent": "anachron"}),
                                        timeout=600) as r, open(tmp, "wb") as out:
                while True:
                    chunk = r.read(1 << 20)
                    if not chunk:
                        break
                    out.write(chunk)
            got = _sha256(tmp)
            if release_file.sha256 and got != release_file.sha256:
                raise IndexError("%s: sha256 %s, the index says %s" % (release_file.filename, got, release_file.sha256))
            os.replace(tmp, path)
        except (urllib.error.URLError, OSError) as e:
            raise IndexError("%s: %s" % (url, getattr(e, "reason", e)))
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return path


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _write_json(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)
