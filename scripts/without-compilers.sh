#!/usr/bin/env bash
# Runs a command with no compiler toolchain on PATH (no python, make, cc/gcc/g++, clang, node-gyp), as on a machine
# that never installed one: `scripts/without-compilers.sh pnpm install`. PATH becomes a directory of links to every
# other program on the current PATH. Anything that tries to build a native module then fails.
set -euo pipefail
[ $# -ge 1 ] || {
  echo "usage: $0 <command> [args...]" >&2
  exit 2
}
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
IFS=: read -ra directories <<<"$PATH"
for directory in "${directories[@]}"; do
  [ -d "$directory" ] || continue
  for program in "$directory"/*; do
    name="${program##*/}"
    case "$name" in
      python* | make | gmake | cc | c++ | cpp | gcc* | g++* | clang* | *-linux-gnu-* | node-gyp*) continue ;;
    esac
    # The first one on PATH wins, as it would have.
    [ -x "$program" ] && [ ! -e "$bin/$name" ] && ln -s "$program" "$bin/$name"
  done
done
PATH="$bin" "$@"
