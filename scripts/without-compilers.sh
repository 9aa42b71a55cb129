#!/usr/bin/env bash
# Runs a command as on a machine with no compiler toolchain: `scripts/without-compilers.sh pnpm install`. Python,
# make and the C/C++ compilers are shadowed, first on PATH, by programs that fail with a message, so that anything
# that tries to build a native module (node-gyp finds python3, make and the compilers through PATH) fails.
set -euo pipefail
[ $# -ge 1 ] || {
  echo "usage: $0 <command> [args...]" >&2
  exit 2
}
shadow="$(mktemp -d)"
trap 'rm -rf "$shadow"' EXIT
for program in python python3 python2 make gmake cc c++ cpp gcc g++ clang clang++; do
  printf '#!/bin/sh\necho "%s: hidden by scripts/without-compilers.sh (no compiler on this machine)" >&2\nexit 127\n' "$program" >"$shadow/$program"
  chmod +x "$shadow/$program"
done
PATH="$shadow:$PATH" "$@"
