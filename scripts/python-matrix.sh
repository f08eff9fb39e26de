#!/usr/bin/env bash
# The python matrix (the standard library per Python minor), from scratch:
#
#   scripts/python-matrix.sh TYPESHED_GIT_DIR [--minors 8-14]
#
# 1. typeshed's stubs evaluated at every minor (python-probe/typeshed.py; TYPESHED_GIT_DIR is a bare clone of
#    github:python/typeshed, e.g. from the search tool's fetch) -> matrices/surfaces/python/python-3.M.static.json.gz
# 2. the standard library walked in a real interpreter of every minor (python-probe/stdlib_probe.py): the newest
#    pyenv build of the minor under ${PYENV_ROOT:-~/.pyenv}/versions, else Debian's (scripts/debian-python.sh, for
#    the suites below); PYTHON_3_M=/path/to/python overrides -> python-3.M.runtime.json.gz
# 3. Debian's interpreters of the same minors as cross-checks (bullseye 3.9, bookworm 3.11, trixie 3.13) ->
#    matrices/surfaces/python/cross-check/python-3.M.debian-SUITE.json.gz, compared with typeshed and with the
#    runtime the matrix uses in matrices/agreement/python-debian.md
# 4. the matrix: anachron build-matrices python (matrices/python.sqlite, matrices/agreement/python-3.M.md)
#
# Heavy steps run under nice. Needs git, python3 (3.9+), node; the Debian steps need the Debian mirror.
set -euo pipefail

log() { printf '[python-matrix] %s\n' "$*" >&2; }
die() { printf '[python-matrix] error: %s\n' "$*" >&2; exit 1; }

[ "$#" -ge 1 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
TYPESHED="$1"; shift
MINORS="8-14"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --minors) MINORS="$2"; shift 2;;
    *) die "unknown option $1";;
  esac
done
[ -d "$TYPESHED" ] || die "no typeshed repository at $TYPESHED"
HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/matrices/surfaces/python"
CROSS="$OUT/cross-check"
mkdir -p "$OUT" "$CROSS"
FIRST="${MINORS%-*}"; LAST="${MINORS#*-}"

# Debian suites and the Python minor each ships (docs: shared notes on the Debian suites).
declare -A SUITE_OF=([9]=bullseye [11]=bookworm [13]=trixie [14]=sid)
# What a full standard library needs in each suite beyond python3 (tkinter, venv; distutils/lib2to3 before 3.12).
debian_packages() {
  case "$1" in
    bullseye|bookworm) echo python3-distutils python3-lib2to3 python3-tk python3-venv;;
    *) echo python3-tk python3-venv;;
  esac
}
debian_python() { "$HERE/scripts/debian-python.sh" "$1" $(debian_packages "$1") | tail -n 1; }

log "typeshed: $(git --git-dir "$TYPESHED" log -1 --format='%h %cI')"
nice -n 10 python3 "$HERE/python-probe/typeshed.py" --repo "$TYPESHED" --minors "$MINORS" --out-dir "$OUT" --verbose

probe() { # interpreter, output, provenance...
  local python="$1" out="$2" static="$3"; shift 3
  local args=()
  for p in "$@"; do args+=(--provenance "$p"); done
  (cd "${TMPDIR:-/tmp}" && nice -n 10 "$python" -I "$HERE/python-probe/stdlib_probe.py" --candidates "$static" --out "$out" --verbose "${args[@]}")
}

for m in $(seq "$FIRST" "$LAST"); do
  static="$OUT/python-3.$m.static.json.gz"
  var="PYTHON_3_$m"
  python="${!var:-}"
  source=""
  if [ -z "$python" ]; then
    python="$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$m".[0-9]* 2>/dev/null | sort -V | tail -n 1 || true)"
    [ -n "$python" ] && python="$python/bin/python3" && source="pyenv"
  else
    source="interpreter"
  fi
  if [ -z "$python" ] && [ -n "${SUITE_OF[$m]:-}" ]; then
    python="$(debian_python "${SUITE_OF[$m]}")"
    source="debian-runtime"
  fi
  [ -n "$python" ] || die "no Python 3.$m: install it with pyenv, or set PYTHON_3_$m"
  version="$("$python" -c 'import platform; print(platform.python_version())')"
  case "$version" in 3."$m".*) ;; *) die "$python is Python $version, not 3.$m";; esac
  extra=()
  [ "$source" = "debian-runtime" ] && extra+=("debian_suite=${SUITE_OF[$m]}")
  log "runtime 3.$m: $python ($version, $source)"
  probe "$python" "$OUT/python-3.$m.runtime.json.gz" "$static" "source=$source" "interpreter=$version" "${extra[@]}"
done

for m in 9 11 13; do
  [ "$m" -ge "$FIRST" ] && [ "$m" -le "$LAST" ] || continue
  suite="${SUITE_OF[$m]}"
  python="$(debian_python "$suite")"
  log "cross-check 3.$m: Debian $suite"
  probe "$python" "$CROSS/python-3.$m.debian-$suite.json.gz" "$OUT/python-3.$m.static.json.gz" "source=debian-runtime" "debian_suite=$suite"
done

cd "$HERE"
node bin/anachron.js build-matrices python
{
  echo "# The standard library at Debian's interpreters, against typeshed and against the matrix's runtimes"
  echo
  echo "Written by scripts/python-matrix.sh: each Debian interpreter's surface (cross-check/) compared with typeshed's"
  echo "stubs at the same minor (names and keywords, platform-specific names and a module's mere imports set apart),"
  echo "and with the runtime surface the matrix uses for that minor (the same rules)."
  for f in "$CROSS"/python-3.*.debian-*.json.gz; do
    m="$(basename "$f" | sed -E 's/^python-(3\.[0-9]+)\..*/\1/')"
    suite="$(basename "$f" | sed -E 's/.*debian-([a-z]+)\.json\.gz/\1/')"
    echo
    echo "## Python $m, Debian $suite"
    echo
    echo "- typeshed: $(node bin/anachron.js compare-surfaces "$f" "$OUT/python-$m.static.json.gz" --limit 0 | head -n 1)"
    echo "- the matrix's runtime ($(zcat "$OUT/python-$m.runtime.json.gz" | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["python"], s["provenance"].get("source"))')): $(node bin/anachron.js compare-surfaces "$f" "$OUT/python-$m.runtime.json.gz" --limit 0 | head -n 1)"
  done
} > matrices/agreement/python-debian.md
log "wrote matrices/agreement/python-debian.md"
