"""The files of a published release archive, read in memory: an sdist (``.tar.gz``, ``.tar.bz2``, ``.tar.xz``,
``.tgz``, ``.zip``) or a wheel (``.whl``). Paths are relative to the archive's one top folder when it has one
(``pandas-1.0.0/setup.py`` is ``setup.py``), as in a checkout; a wheel's are as installed (``pandas/__init__.py``).
Serves the static extractor (``files``/``read``) and the docs reader (``paths``/``exists``/``read_text``)."""
import os
import tarfile
import zipfile

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip", ".whl")
# members that are never source: keeps a 50 MB sdist of data files from filling memory
_SKIP_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".pdf", ".svg", ".ttf", ".otf", ".afm", ".pfb", ".npy", ".npz",
                  ".mat", ".h5", ".hdf5", ".xls", ".xlsx", ".ods", ".feather", ".parquet", ".sas7bdat", ".xpt",
                  ".dta", ".sav", ".pickle", ".pkl", ".gz", ".bz2", ".xz", ".zip", ".ico", ".woff", ".woff2")


class ArchiveError(Exception):
    pass


def is_archive(path):
    return os.path.isfile(path) and path.lower().endswith(ARCHIVE_SUFFIXES)


class ArchiveTree(object):
    def __init__(self, path):
        self.path = path
        self.commit = None
        self.submodules = []
        self.name = os.path.basename(path)
        self._data = {}
        self._names = []
        try:
            if path.lower().endswith((".zip", ".whl")):
                self._read_zip(path)
            else:
                self._read_tar(path)
        except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as e:
            raise ArchiveError("%s: not a readable archive (%s)" % (path, e))
        roots = set(n.split("/", 1)[0] for n in self._names)
        if len(roots) == 1 and all("/" in n for n in self._names) and not path.lower().endswith(".whl"):
            root = roots.pop() + "/"
            self._data = dict((k[len(root):], v) for k, v in self._data.items())
            self._names = [n[len(root):] for n in self._names]
        self._names.sort()

    def _keep(self, name):
        return not name.lower().endswith(_SKIP_SUFFIXES)

    def _read_tar(self, path):
        with tarfile.open(path, "r:*") as tf:
            for m in tf:
                name = m.name.lstrip("./")
                if not m.isfile() or not name or ".." in name.split("/"):
                    continue
                self._names.append(name)
                if self._keep(name):
                    f = tf.extractfile(m)
                    self._data[name] = f.read() if f is not None else None
                else:
                    self._data[name] = None

    def _read_zip(self, path):
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                name = info.filename.lstrip("./")
                if info.is_dir() or not name or ".." in name.split("/"):
                    continue
                self._names.append(name)
                self._data[name] = zf.read(info) if self._keep(name) else None

    # the static extractor's interface (static/source.py)
    def files(self):
        return list(self._names)

    def read(self, path):
        return self._data.get(path)

    def close(self):
        pass

    # the docs reader's interface (docs_surface/gitsource.py)
    @property
    def blobs(self):
        return self._data

    def exists(self, path):
        return path in self._data

    def paths(self, prefix="", suffix=""):
        return [p for p in self._names if p.startswith(prefix) and p.endswith(suffix)]

    def read_bytes(self, path):
        data = self._data[path]
        if data is None:
            raise KeyError(path)
        return data

    def read_text(self, path):
        return self.read_bytes(path).decode("utf-8-sig", "replace")
