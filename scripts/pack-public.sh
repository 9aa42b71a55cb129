#!/usr/bin/env bash
# Packs every public package (those without "private": true) of a workspace with one `pnpm pack`, as `pnpm release`
# would publish them (`workspace:` ranges replaced by versions).
# Usage: pack-public.sh destination [workspace]: `workspace` defaults to this one.
set -euo pipefail
destination="$(cd "$1" && pwd)"
cd "${2:-$(dirname "$0")/..}"
filters=()
for dir in packages/*/; do
  node -e "process.exit(require('./${dir}package.json').private ? 1 : 0)" || continue
  filters+=(--filter "./$dir")
done
pnpm --recursive "${filters[@]}" pack --pack-destination "$destination" >/dev/null
