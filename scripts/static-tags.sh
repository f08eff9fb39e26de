#!/usr/bin/env bash
# Static surfaces of a library over many release tags, cached (python-probe/static.py on each tag).
#
#   scripts/static-tags.sh LIBRARY [extra options for python -m anachron_probe.static.batch]
#   scripts/static-tags.sh LIBRARY --git-dir REPO [--tags T...] [--minors FIRST LAST] [--patches] ...
#
# Without --git-dir the plan is the library file's (libraries/LIB.toml: [static] from = "git", [releases]): every
# minor from releases.first to releases.last (default: the newest tag), with releases.patches the patch releases
# whose surface differs from their .0, the extra versions, tag-versions, and the libraries it re-exports read from
# their own mirrors (scipy < 1.9 re-exports numpy's names).
# Writes matrices/surfaces/LIB/LIB-VERSION.static.json.gz; a tag whose file exists with the same extractor version is
# skipped. One line per tag (time, APIs, callables, share with a signature).
#
# Environment: ANACHRON_MIRRORS (the folder of bare mirrors as owner+name/repo; required), ANACHRON_PYTHON
# (default python3; a Python at least as new as the newest syntax the tags use reads them whole),
# ANACHRON_SURFACES_DIR (default <repo>/matrices/surfaces), ANACHRON_STATIC_CACHE (default ~/.cache/anachron/static:
# surfaces of left-out patch releases and of dependencies).
set -euo pipefail

. "$(dirname "$0")/library-script.sh"

[ "$#" -ge 1 ] || die "usage: scripts/static-tags.sh LIBRARY [options]"
LIB="$1"; shift
check_import_name "$LIB"

PY="${ANACHRON_PYTHON:-python3}"
OUT="${ANACHRON_SURFACES_DIR:-$REPO/matrices/surfaces}/$LIB"
CACHE="${ANACHRON_STATIC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/anachron/static}/$LIB"

plan=(--plan)
for a in "$@"; do [ "$a" != --git-dir ] || plan=(); done

mkdir -p "$OUT" "$CACHE"
cd "$REPO/python-probe"
exec "$PY" -m anachron_probe.static.batch "$LIB" --out-dir "$OUT" --cache-dir "$CACHE" "${plan[@]}" "$@"
