#!/usr/bin/env python3
"""Launcher: python3 python-probe/probe.py LIBRARY [--out FILE] [--provenance KEY=VALUE]... [--timeout-per-module S]"""
import os
import sys

# No __pycache__ in the repository, nor in the probed library's folders.
sys.dont_write_bytecode = True

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from anachron_probe import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
