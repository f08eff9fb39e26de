#!/usr/bin/env python3
"""The running interpreter's standard library as a surface. See python-probe/README.md, section "The standard library
at runtime"."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe.stdlib_cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
