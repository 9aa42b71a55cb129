#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on every public package (the ones without "private": true).
# attw's esm-only profile: the packages are ESM only (require() of them works from Node 20.19, which they require).
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in packages/*/; do
  node -e "process.exit(require('./${dir}package.json').private ? 1 : 0)" || continue
  pnpm exec publint --strict "$dir"
  pnpm exec attw --pack "$dir" --profile esm-only --quiet
done
