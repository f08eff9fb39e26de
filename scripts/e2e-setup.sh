#!/usr/bin/env bash
# Installs what the end-to-end tests need, outside the repository: Debian chromium (and libkrb5-dev, ripgrep for
# code-server's install), then code-server 4.99.4 from npm into a cache folder. Idempotent and quick once done.
# Prints the code-server executable on its last line.
#   ANACHRON_E2E_CACHE   where code-server goes (default: ~/.cache/anachron-e2e)
set -euo pipefail

CODE_SERVER_VERSION=4.99.4 # VS Code 1.99.3; the newest code-server that runs on Node 20
CACHE="${ANACHRON_E2E_CACHE:-$HOME/.cache/anachron-e2e}"
PREFIX="$CACHE/code-server-$CODE_SERVER_VERSION"
BIN="$PREFIX/node_modules/.bin/code-server"

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v rg >/dev/null || need_apt+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
dpkg -s fonts-dejavu-core >/dev/null 2>&1 || need_apt+=(fonts-dejavu-core)
if [ "${#need_apt[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    echo "e2e-setup: need root (or sudo) to apt-get install ${need_apt[*]}" >&2
    exit 1
  fi
  SUDO=$([ "$(id -u)" = 0 ] && echo "" || echo sudo)
  echo "e2e-setup: apt-get install ${need_apt[*]}" >&2
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

if [ ! -x "$BIN" ]; then
  echo "e2e-setup: npm install code-server@$CODE_SERVER_VERSION into $PREFIX" >&2
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  # @vscode/ripgrep downloads rg from GitHub on install; seed its download cache with Debian's rg instead.
  rgcache="$scratch/vscode-ripgrep-cache-1.15.11"
  mkdir -p "$rgcache"
  tar czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg
  rm -rf "$PREFIX"
  mkdir -p "$PREFIX"
  (cd "$PREFIX" && echo '{"private":true}' > package.json &&
    TMPDIR="$scratch" npm_config_yes=true npm install --no-audit --no-fund --unsafe-perm --loglevel=error \
      "code-server@$CODE_SERVER_VERSION" >&2)
fi
xdg="$(mktemp -d)"
XDG_CONFIG_HOME="$xdg" "$BIN" --version >&2
rm -rf "$xdg"
echo "$BIN"
