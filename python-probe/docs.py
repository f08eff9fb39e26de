#!/usr/bin/env python3
"""Launcher: python3 python-probe/docs.py LIBRARY --git-dir BARE_REPO --tag TAG [--version V] [--out FILE]"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe.docs_surface import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
