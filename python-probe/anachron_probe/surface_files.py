"""Writing a surface file the same way from every extractor (static, docs): canonical JSON (sorted keys, compact,
UTF-8) and, for ``.gz``, gzip with no name and mtime 0 (``gzip -n``), so that the same surface gives the same bytes;
the file is replaced atomically."""
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
