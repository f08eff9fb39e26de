"""anachron documented surface: the public API paths a library's documentation sources list at a release tag,
read statically from a git repository (Sphinx rst pages and the module docstrings they pull in; nothing is built,
imported or downloaded). Standard library only; Python 3.8 and later.

Entry point: ``python3 python-probe/docs.py LIBRARY --git-dir BARE_REPO --tag TAG [--version V] [--out FILE]``.
"""

SCHEMA = "anachron-docs/1"
__version__ = "1.0.0"


def main(argv=None):
    from .cli import main as _main

    return _main(argv)
