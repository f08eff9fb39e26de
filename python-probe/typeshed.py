#!/usr/bin/env python3
"""The standard library's surface per Python minor from typeshed's stubs. See python-probe/README.md, section
"The standard library from typeshed"."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from anachron_probe.typeshed.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
