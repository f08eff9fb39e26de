# Sourced by the scripts that take a library's import name first (probe-debian.sh, static-tags.sh): die() prefixed
# with the script's name, check_import_name, and REPO, the repository's root.
die() { printf '[%s] error: %s\n' "$(basename "$0" .sh)" "$*" >&2; exit 1; }
check_import_name() { case "$1" in ''|*[!A-Za-z0-9_]*) die "invalid library import name '$1'";; esac; }
REPO="$(cd "$(dirname "$0")/.." && pwd)"
