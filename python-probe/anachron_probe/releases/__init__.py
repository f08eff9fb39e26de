"""Releases as their package index published them: the files (index.py), the static plan over them (plan.py) and
the virtual environments that install them for the runtime probe (environments.py, runtime.py)."""
