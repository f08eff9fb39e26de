#!/usr/bin/env python3
"""Static API surface of a library's source tree. See python-probe/README.md, section "Static extraction"."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe.static.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
