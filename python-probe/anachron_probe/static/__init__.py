"""Static extraction: the public API surface of a Python library read from its source tree (a bare git
repository at a tag, or a directory), in the runtime probe's "anachron-surface/1" format, without importing it.

Entry point: ``python3 python-probe/static.py LIBRARY (--git-dir REPO --tag TAG | --source DIR) ...``.
"""

# Bumped whenever the output for the same input can change (caches of generated surfaces key on it).
EXTRACTOR_VERSION = "static-21"
