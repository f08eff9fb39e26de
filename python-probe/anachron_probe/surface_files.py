"""Surface files the same way for every extractor (static, docs, the release runner): written as canonical JSON
(sorted keys, compact, UTF-8) and, for ``.gz``, gzip with no name and mtime 0 (``gzip -n``), so that the same surface
gives the same bytes, replaced atomically; read back leniently; kept in caches under one root."""
import gzip
import io
import json
import os


def encode(doc):
    return (json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def write_output(data, out):
    """Write ``data`` to ``out`` atomically (its folder made when missing)."""
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


def read_surface(path):
    """The surface in the gzipped JSON file ``path``; None where it is missing or unreadable."""
    try:
        with gzip.open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError):
        return None


def cache_folder(variable, name):
    """``$variable`` when set, else ``$XDG_CACHE_HOME/anachron/name`` (``~/.cache/anachron/name``)."""
    env = os.environ.get(variable)
    if env:
        return os.path.abspath(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "anachron", name)
