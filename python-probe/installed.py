"""Prints the distributions installed in the running interpreter as JSON: {"numpy": "1.24.2", ...}, and the
interpreter's own version as "python" (Python is pinned like a library).

Standard library only (Python 3.8+). anachron runs this with the interpreter the user selected, only in trusted
workspaces, to read "installed" pins.
"""
import json
import re
import sys


def main() -> int:
    try:
        from importlib import metadata
    except ImportError:  # Python < 3.8
        print(json.dumps({"python": "%d.%d.%d" % sys.version_info[:3]}))
        return 0
    versions = {}
    for dist in metadata.distributions():
        name = dist.metadata.get("Name") if dist.metadata else None
        if not name or not dist.version:
            continue
        key = re.sub(r"[-_.]+", "-", name).lower()
        versions.setdefault(key, dist.version)
    versions["python"] = "%d.%d.%d" % sys.version_info[:3]
    json.dump(dict(sorted(versions.items())), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
