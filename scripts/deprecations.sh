#!/usr/bin/env bash
# What each tracked release deprecates (python-probe/deprecations.py), beside its static surface:
#   scripts/deprecations.sh LIB GIT_DIR   e.g. scripts/deprecations.sh numpy "$ANACHRON_MIRRORS/numpy+numpy/repo"
# For every matrices/surfaces/LIB/LIB-VERSION.static.json.gz read from a tag, writes LIB-VERSION.deprecations.json.gz
# from the same tag; `npm run build:matrices -- LIB` then puts them in the matrix.
set -euo pipefail
lib=$1
git_dir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
for surface in "$root"/matrices/surfaces/"$lib"/"$lib"-*.static.json.gz; do
  tag=$(python3 -c 'import gzip, json, sys; print(json.load(gzip.open(sys.argv[1])).get("provenance", {}).get("tag", ""))' "$surface")
  [ -n "$tag" ] || { echo "$surface: no tag in its provenance; skipped" >&2; continue; }
  python3 "$root/python-probe/deprecations.py" --git-dir "$git_dir" --tag "$tag" --package "$lib" \
    --surface "$surface" --out "${surface%.static.json.gz}.deprecations.json.gz"
done
