#!/usr/bin/env bash
# Build (or reuse) a runnable Python interpreter of a Debian suite with some packages installed,
# without chroot and without touching the machine's own apt configuration.
#
#   scripts/debian-python.sh SUITE PACKAGE...
#
# SUITE is a Debian suite name (bullseye, bookworm, trixie, sid, ...). python3 is always added to the
# package list. The environment lives in ${ANACHRON_ENV_CACHE:-$HOME/.cache/anachron/debian}/SUITE-<hash>,
# where <hash> is derived from the sorted package list. The last line printed on stdout is the path of an
# executable wrapper, <root>/run-python, that runs the suite's python3 through the suite's own dynamic
# loader (plain LD_LIBRARY_PATH does not work with a newer glibc than the host's).
#
# How: a private apt configuration per suite under the cache folder (own sources.list, lists, archives and an
# empty dpkg status, so apt resolves the full dependency closure as if nothing were installed), then
# `apt-get install --download-only`, then `dpkg -x` of every .deb apt chose into the root. Maintainer scripts
# never run, which is why the wrapper also puts the blas/lapack alternative folders on the library path.
#
# Environment: ANACHRON_ENV_CACHE (cache folder), ANACHRON_DEBIAN_MIRROR (default http://deb.debian.org/debian),
# ANACHRON_DEBIAN_KEYRING (default /usr/share/keyrings/debian-archive-keyring.gpg),
# ANACHRON_APT_MAX_AGE (seconds before the suite's package lists are refreshed; default 86400; lists are only
# refreshed when an environment has to be built).
set -euo pipefail

log() { printf '[debian-python] %s\n' "$*" >&2; }
die() { printf '[debian-python] error: %s\n' "$*" >&2; exit 1; }
trap 'printf "[debian-python] error: command failed at line %s\n" "$LINENO" >&2' ERR

if [ "$#" -lt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi

SUITE="$1"; shift
case "$SUITE" in
  ''|*[!a-z0-9-]*) die "invalid suite name '$SUITE' (expected e.g. bullseye, bookworm, trixie, sid)";;
esac

for p in "$@"; do
  case "$p" in
    ''|*[!a-z0-9.+-]*) die "invalid Debian package name '$p'";;
  esac
done

for tool in apt-get dpkg-deb sha256sum; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required"
done

MIRROR="${ANACHRON_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
KEYRING="${ANACHRON_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}"
MAX_AGE="${ANACHRON_APT_MAX_AGE:-86400}"
CACHE="${ANACHRON_ENV_CACHE:-$HOME/.cache/anachron/debian}"

# Sorted, de-duplicated package list (python3 always included) and its hash.
PKGS="$(printf '%s\n' python3 "$@" | LC_ALL=C sort -u)"
HASH="$(printf '%s\n' "$PKGS" | sha256sum | cut -c1-12)"
ROOT="$CACHE/$SUITE-$HASH"
WRAPPER="$ROOT/run-python"
STAMP="$ROOT/.anachron-complete"

if [ -f "$STAMP" ] && [ -x "$WRAPPER" ] && [ "$(sed -n '1,/^$/p' "$STAMP" | sed '/^$/d')" = "$PKGS" ]; then
  log "reusing $ROOT"
  printf '%s\n' "$WRAPPER"
  exit 0
fi

START=$(date +%s)
APTDIR="$CACHE/apt/$SUITE"
NEW_APTDIR=0
[ -d "$APTDIR" ] || NEW_APTDIR=1
mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial" "$APTDIR/state"
# One build per suite at a time (apt runs without its own locks here).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$APTDIR/.lock"
  flock 9
  if [ -f "$STAMP" ] && [ -x "$WRAPPER" ] && [ "$(sed -n '1,/^$/p' "$STAMP" | sed '/^$/d')" = "$PKGS" ]; then
    log "reusing $ROOT (built concurrently)"
    printf '%s\n' "$WRAPPER"
    exit 0
  fi
fi
[ -f "$KEYRING" ] || die "Debian archive keyring not found at $KEYRING"
printf 'deb [signed-by=%s] %s %s main\n' "$KEYRING" "$MIRROR" "$SUITE" > "$APTDIR/sources.list"
: > "$APTDIR/status.empty"   # nothing installed: apt resolves the whole closure

APT_OPTS=(
  -o "Dir::Etc::SourceList=$APTDIR/sources.list"
  -o "Dir::Etc::SourceParts=-"
  -o "Dir::State=$APTDIR/state"
  -o "Dir::State::Lists=$APTDIR/lists"
  -o "Dir::State::status=$APTDIR/status.empty"
  -o "Dir::Cache=$APTDIR"
  -o "Dir::Cache::Archives=$APTDIR/archives"
  -o "Dir::Cache::pkgcache="
  -o "Dir::Cache::srcpkgcache="
  -o "Debug::NoLocking=true"
  -o "APT::Install-Recommends=false"
  -o "APT::Install-Suggests=false"
  -o "APT::Get::AllowUnauthenticated=false"
  -o "Acquire::Languages=none"
)
if [ "$(id -u)" != 0 ]; then
  APT_OPTS+=(-o "APT::Sandbox::User=$(id -un)")
fi

# Refresh the suite's package lists when missing or older than MAX_AGE.
release_file() { ls "$APTDIR/lists/"*"_dists_${SUITE}_InRelease" 2>/dev/null | head -n1 || true; }
REL="$(release_file)"
NOW=$(date +%s)
if [ -z "$REL" ] || [ $((NOW - $(stat -c %Y "$REL"))) -gt "$MAX_AGE" ]; then
  log "apt-get update for $SUITE ($MIRROR)"
  if ! apt-get "${APT_OPTS[@]}" -q update >"$APTDIR/update.log" 2>&1; then
    sed 's/^/    /' "$APTDIR/update.log" >&2
    [ "$NEW_APTDIR" = 0 ] || rm -rf "$APTDIR"
    die "apt-get update failed for suite '$SUITE' (unknown suite, or the mirror is unreachable)"
  fi
  if grep -Eq '^(E:|W: Failed|Err:)' "$APTDIR/update.log"; then
    sed 's/^/    /' "$APTDIR/update.log" >&2
    [ "$NEW_APTDIR" = 0 ] || rm -rf "$APTDIR"
    die "apt-get update reported errors for suite '$SUITE' (unknown suite, or the mirror is unreachable)"
  fi
  REL="$(release_file)"
  [ -n "$REL" ] || die "no Release file for suite '$SUITE' after apt-get update (unknown suite?)"
  touch "$REL"
fi
ls "$APTDIR/lists/"*"_dists_${SUITE}_main_binary-"*"_Packages"* >/dev/null 2>&1 \
  || die "no Packages index for suite '$SUITE' (unknown suite?)"

# Resolve the closure (simulation), then download what is not already in the suite's archive cache.
log "resolving dependencies of: $(echo $PKGS)"
# shellcheck disable=SC2086
if ! apt-get "${APT_OPTS[@]}" -s -q install $PKGS >"$APTDIR/simulate.log" 2>&1; then
  sed 's/^/    /' "$APTDIR/simulate.log" >&2
  unknown="$(sed -n -e 's/^E: Unable to locate package \(.*\)$/\1/p' \
                    -e "s/^E: Package '\\(.*\\)' has no installation candidate$/\\1/p" "$APTDIR/simulate.log" | tr '\n' ' ')"
  [ -z "$unknown" ] || die "package(s) not found in Debian $SUITE: $unknown"
  die "apt could not resolve the packages in Debian $SUITE"
fi
# Lines look like: Inst libc6 (2.36-9+deb12u4 Debian:12.5/stable [amd64]) []
SELECTED="$(sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) [^[]*\[\([^]]*\)\]).*$/\1 \2 \3/p' "$APTDIR/simulate.log" | sed 's/:[a-z0-9]* / /' | LC_ALL=C sort)"
[ -n "$SELECTED" ] || { sed 's/^/    /' "$APTDIR/simulate.log" >&2; die "apt selected no packages"; }
COUNT=$(printf '%s\n' "$SELECTED" | wc -l)
log "$COUNT packages in the closure; downloading"
# shellcheck disable=SC2086
if ! apt-get "${APT_OPTS[@]}" -q -y --download-only install $PKGS >"$APTDIR/download.log" 2>&1; then
  sed 's/^/    /' "$APTDIR/download.log" >&2
  die "download failed"
fi

# Extract into a fresh root (built beside, then moved into place).
TMPROOT="$ROOT.tmp.$$"
rm -rf "$TMPROOT"
mkdir -p "$TMPROOT"
trap 'rm -rf "$TMPROOT"' EXIT
log "extracting into $ROOT"
while read -r name version arch; do
  file="$APTDIR/archives/${name}_${version//:/%3a}_${arch}.deb"
  [ -f "$file" ] || die "expected download missing: $file"
  dpkg-deb -x "$file" "$TMPROOT" || die "dpkg-deb -x failed for $file"
done <<EOF
$SELECTED
EOF

# Resolve a path inside the root, following symlinks inside the root (absolute targets are root-relative).
resolve_in_root() {
  local rel="$1" n=0 target dir
  while [ -L "$TMPROOT/$rel" ] && [ $n -lt 40 ]; do
    target="$(readlink "$TMPROOT/$rel")"
    case "$target" in
      /*) rel="${target#/}";;
      *) dir="$(dirname "$rel")"; rel="$dir/$target";;
    esac
    n=$((n + 1))
  done
  # If a parent directory is a symlink (merged /usr inside the root), resolve component by component.
  if [ ! -e "$TMPROOT/$rel" ]; then return 1; fi
  printf '%s\n' "$rel"
}

LOADER=""
for cand in usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 \
            usr/lib64/ld-linux-x86-64.so.2 lib64/ld-linux-x86-64.so.2; do
  if r="$(resolve_in_root "$cand")" && [ -f "$TMPROOT/$r" ]; then LOADER="$r"; break; fi
done
[ -n "$LOADER" ] || die "no dynamic loader found in the extracted root (is libc6 in the closure?)"

PYBIN=""
r="$(resolve_in_root usr/bin/python3)" && PYBIN="$r"
[ -n "$PYBIN" ] && [ -f "$TMPROOT/$PYBIN" ] || die "no usr/bin/python3 in the extracted root"

# Library path: the multiarch folders plus every folder holding a blas/lapack alternative.
LIBDIRS="lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu lib usr/lib"
extra=""
for base in usr/lib/x86_64-linux-gnu lib/x86_64-linux-gnu; do
  [ -d "$TMPROOT/$base" ] && [ ! -L "$TMPROOT/$base" ] || continue
  extra="$extra $(cd "$TMPROOT" && find "$base" -mindepth 2 \
          \( -name 'libblas.so.3' -o -name 'liblapack.so.3' -o -name 'libcblas.so.3' \) \
          -exec dirname {} \; | LC_ALL=C sort -u | tr '\n' ' ')"
done
LIBDIRS="$LIBDIRS $extra"

{
  echo '#!/bin/sh'
  echo "# Debian $SUITE python3 with: $(echo $PKGS)"
  echo '# Generated by scripts/debian-python.sh; runs the suite'"'"'s python3 through its own dynamic loader.'
  echo 'R="$(cd "$(dirname "$0")" && pwd)"'
  printf 'LP=""\nfor d in %s; do LP="${LP:+$LP:}$R/$d"; done\n' "$LIBDIRS"
  echo 'unset PYTHONHOME'
  echo 'export PYTHONNOUSERSITE=1'
  printf 'exec "$R/%s" --library-path "$LP" "$R/%s" "$@"\n' "$LOADER" "$PYBIN"
} > "$TMPROOT/run-python"
chmod +x "$TMPROOT/run-python"

# Smoke test before publishing the root.
if ! VERSION_LINE="$("$TMPROOT/run-python" -c 'import sys; print(sys.version.split()[0])' 2>&1)"; then
  printf '%s\n' "$VERSION_LINE" >&2
  die "the extracted python3 does not run"
fi

{
  printf '%s\n\n' "$PKGS"
  printf 'suite=%s\npython=%s\n' "$SUITE" "$VERSION_LINE"
  printf '%s\n' "$SELECTED" | sed 's/^/deb=/'
} > "$TMPROOT/.anachron-complete"

# Readable by every user: the drift suite's sandbox runs samples as an unprivileged uid of their own.
chmod -R a+rX "$TMPROOT"
rm -rf "$ROOT"
mv "$TMPROOT" "$ROOT"
trap - EXIT
END=$(date +%s)
log "built $ROOT (python $VERSION_LINE, $COUNT packages, $(du -sm "$ROOT" | cut -f1) MB) in $((END - START)) s"
printf '%s\n' "$WRAPPER"
