#!/usr/bin/env bash
# Probe the runtime API surface of a Python library as packaged by several Debian suites.
#
#   scripts/probe-debian.sh LIBRARY SUITE...        e.g.  scripts/probe-debian.sh numpy bullseye bookworm trixie sid
#
# For each suite: builds (or reuses) the interpreter environment with python3-LIBRARY via scripts/debian-python.sh,
# runs python-probe/probe.py in it with provenance (source=debian-runtime, debian_suite, debian_package,
# debian_version, python) and writes matrices/surfaces/LIBRARY/LIBRARY-VERSION.runtime.json.gz (gzip -n: byte-reproducible).
# Prints one summary line per suite on stdout.
#
# Environment: ANACHRON_DEBIAN_PACKAGE overrides the Debian package name (default python3-LIBRARY);
# ANACHRON_DEBIAN_EXTRA_PACKAGES adds Debian packages to the environment (space separated; recorded in the provenance
# as debian_extra_packages), e.g. python3-setuptools for torch.utils.cpp_extension, which imports setuptools but
# whose package does not depend on it before sid;
# ANACHRON_SURFACES_DIR overrides the output folder (default <repo>/matrices/surfaces).
#
# The surface's version is the upstream part of the Debian version (no epoch, revision or +dfsg/+ds repack suffix)
# when the library's own __version__ differs from it (torch 1.7.1 says 1.7.0a0, 2.6.0 says 2.6.0+debian); the
# library's own then goes to the provenance as LIBRARY_version.
set -euo pipefail

. "$(dirname "$0")/library-script.sh"

[ "$#" -ge 2 ] || die "usage: scripts/probe-debian.sh LIBRARY SUITE..."
LIB="$1"; shift
check_import_name "$LIB"

PKG="${ANACHRON_DEBIAN_PACKAGE:-python3-$(printf '%s' "$LIB" | tr 'A-Z_' 'a-z-')}"
EXTRA="$(printf '%s\n' ${ANACHRON_DEBIAN_EXTRA_PACKAGES:-} | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ *$//')"
EXTRA_PROV=()
[ -z "$EXTRA" ] || EXTRA_PROV=(--provenance "debian_extra_packages=$EXTRA")
OUTDIR="${ANACHRON_SURFACES_DIR:-$REPO/matrices/surfaces}/$LIB"
mkdir -p "$OUTDIR"

status=0
for SUITE in "$@"; do
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  if ! PY="$("$REPO/scripts/debian-python.sh" "$SUITE" "$PKG" $EXTRA | tail -n1)"; then
    printf '%s %s: environment build failed\n' "$LIB" "$SUITE"
    status=1
    continue
  fi
  t1=$(date +%s.%N)
  ROOT="$(dirname "$PY")"
  DEBVER="$(sed -n "s/^deb=$PKG \([^ ]*\) .*/\1/p" "$ROOT/.anachron-complete" | head -n1)"
  PYVER="$(sed -n 's/^python=//p' "$ROOT/.anachron-complete" | head -n1)"
  # Upstream release of the Debian version: no epoch (1:), no Debian revision (-7, -5+b2), no repack suffix (+dfsg, +ds1).
  # The surface takes it as its version when the library's own __version__ differs (torch 1.7.1 says 1.7.0a0).
  UPSTREAM="$(printf '%s' "$DEBVER" | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//' -e 's/[+~]\(dfsg\|ds\)[0-9.]*$//')"
  TMP="$(mktemp "$OUTDIR/.probe-$SUITE.XXXXXX")"
  if ! "$PY" "$REPO/python-probe/probe.py" "$LIB" --out "$TMP" ${UPSTREAM:+--release-version "$UPSTREAM"} \
        --provenance source=debian-runtime \
        --provenance "debian_suite=$SUITE" \
        --provenance "debian_package=$PKG" \
        --provenance "debian_version=$DEBVER" \
        --provenance "python=$PYVER" ${EXTRA_PROV[@]+"${EXTRA_PROV[@]}"}; then
    rm -f "$TMP"
    printf '%s %s: probe failed\n' "$LIB" "$SUITE"
    status=1
    continue
  fi
  t2=$(date +%s.%N)
  # Version and summary figures from the JSON, read by the same interpreter.
  SUMMARY="$("$PY" - "$TMP" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
s = d["stats"]
c = s["callables"] or 1
src = s["signature_sources"]
print(d["version"] or "unknown")
print("apis=%d callables=%d with_signature=%.1f%% (inspect=%d docstring=%d stub=%d) modules=%d/%d errors=%d" % (
    s["apis"], s["callables"], 100.0 * s["callables_with_signature"] / c,
    src.get("inspect", 0), src.get("docstring", 0), src.get("stub", 0),
    s["modules_imported"], s["modules"], len(d["errors"])))
PYEOF
)"
  VERSION="$(printf '%s\n' "$SUMMARY" | sed -n 1p)"
  DEST="$OUTDIR/$LIB-$VERSION.runtime.json.gz"
  gzip -n -9 -c "$TMP" > "$DEST.tmp"
  mv "$DEST.tmp" "$DEST"
  rm -f "$TMP"
  printf '%s %s %s (Debian %s, python %s): %s env=%.1fs probe=%.1fs -> %s\n' \
    "$LIB" "$VERSION" "$SUITE" "$DEBVER" "$PYVER" "$(printf '%s\n' "$SUMMARY" | sed -n 2p)" \
    "$(awk "BEGIN{print $t1 - $t0}")" "$(awk "BEGIN{print $t2 - $t1}")" "${DEST#$REPO/}"
done
exit $status
