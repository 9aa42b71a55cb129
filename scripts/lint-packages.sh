#!/usr/bin/env bash
# publint and @arethetypeswrong/cli on every public package (the ones without "private": true).
# attw checks every resolution TypeScript offers (node10, node16 from CommonJS and from ESM, bundler) but for one
# rule, cjs-resolves-to-esm: attw does not model Node's require() of ES modules (from 20.19, which the packages
# require). Which TypeScript settings a CommonJS project can use: docs/decisions/esm-only-packages.md, checked by
# scripts/check-packed.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# http-koa gets its node10 "types" field with its rewrite (issue 24, item 14): until then, attw's ESM-only profile.
esm_only=(packages/http-koa/)
for dir in packages/*/; do
  node -e "process.exit(require('./${dir}package.json').private ? 1 : 0)" || continue
  pnpm exec publint --strict "$dir"
  if [[ " ${esm_only[*]} " == *" $dir "* ]]; then
    pnpm exec attw --pack "$dir" --profile esm-only --quiet
  else
    pnpm exec attw --pack "$dir" --ignore-rules cjs-resolves-to-esm --quiet
  fi
done
