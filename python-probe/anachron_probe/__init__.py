"""anachron runtime probe: write the public API surface of an installed Python library as JSON.

Standard library only; runs on Python 3.8 and later. Entry point: ``python3 python-probe/probe.py LIBRARY``.
"""

SCHEMA = "anachron-surface/1"
__version__ = "1.0.0"
# Bumped whenever the probe's output for the same interpreter can change (cached runtime surfaces key on it).
PROBE_VERSION = "runtime-5"


def main(argv=None):
    from .cli import main as _main

    return _main(argv)
