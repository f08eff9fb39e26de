#!/usr/bin/env bash
# Static surfaces of a library over many release tags, cached (python-probe/static.py on each tag).
#
#   scripts/static-tags.sh numpy|scipy|qiskit [extra options for python -m anachron_probe.static.batch]
#   scripts/static-tags.sh LIBRARY --git-dir REPO [--tags T...] [--minors FIRST LAST] [--patches] ...
#
# The three known libraries come with their plan:
#   numpy   every minor v1.16.0 .. v2.5.0, the patch releases whose surface differs from their .0, and the Debian
#           versions v1.19.5 v1.24.2 v2.2.4 v2.4.6;
#   scipy   every minor v1.0.0 .. v1.18.0, differing patch releases, v1.6.0 v1.10.1 v1.15.3 v1.17.1; numpy (which
#           scipy < 1.9 re-exports) read from its repository at the newest minor tagged before each scipy tag;
#   qiskit  0.24.0 (Qiskit 0.43), 0.25.0 (0.44) and every minor .0 up to the newest tag.
# Writes matrices/surfaces/LIB/LIB-VERSION.static.json.gz; a tag whose file exists with the same extractor version is
# skipped. One line per tag (time, APIs, callables, share with a signature).
#
# Environment: ANACHRON_MIRRORS (bare repositories, default /work/.mirror: owner+name/repo), ANACHRON_PYTHON
# (default python3; a Python at least as new as the newest syntax the tags use reads them whole),
# ANACHRON_SURFACES_DIR (default <repo>/matrices/surfaces), ANACHRON_STATIC_CACHE (default ~/.cache/anachron/static:
# surfaces of left-out patch releases and of dependencies).
set -euo pipefail

die() { printf '[static-tags] error: %s\n' "$*" >&2; exit 1; }

[ "$#" -ge 1 ] || die "usage: scripts/static-tags.sh LIBRARY [options]"
LIB="$1"; shift
case "$LIB" in ''|*[!A-Za-z0-9_]*) die "invalid library import name '$LIB'";; esac

REPO="$(cd "$(dirname "$0")/.." && pwd)"
MIRRORS="${ANACHRON_MIRRORS:-/work/.mirror}"
PY="${ANACHRON_PYTHON:-python3}"
OUT="${ANACHRON_SURFACES_DIR:-$REPO/matrices/surfaces}/$LIB"
CACHE="${ANACHRON_STATIC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/anachron/static}/$LIB"

plan=()
case "$LIB" in
  numpy)
    plan=(--git-dir "$MIRRORS/numpy+numpy/repo" --minors v1.16.0 v2.5.0 --patches
          --tags v1.19.5 v1.24.2 v2.2.4 v2.4.6) ;;
  scipy)
    plan=(--git-dir "$MIRRORS/scipy+scipy/repo" --minors v1.0.0 v1.18.0 --patches
          --tags v1.6.0 v1.10.1 v1.15.3 v1.17.1 --external "numpy=$MIRRORS/numpy+numpy/repo") ;;
  qiskit)
    newest="$(git --git-dir "$MIRRORS/Qiskit+qiskit/repo" tag -l | grep -E '^[0-9]+\.[0-9]+\.0$' | sort -V | tail -n1)"
    plan=(--git-dir "$MIRRORS/Qiskit+qiskit/repo" --minors 0.24.0 "$newest" --tags 0.24.0 1.3.0 2.0.0
          --version-map 0.24.0=0.43.0 --version-map 0.25.0=0.44.0) ;;
esac

mkdir -p "$OUT" "$CACHE"
cd "$REPO/python-probe"
exec "$PY" -m anachron_probe.static.batch "$LIB" --out-dir "$OUT" --cache-dir "$CACHE" "${plan[@]}" "$@"
