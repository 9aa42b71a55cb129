#!/usr/bin/env bash
# publint and arethetypeswrong on every public package (the ones without "private": true), both on the tarball
# `pnpm pack` makes (what `pnpm release` publishes: `workspace:` ranges replaced), packed once for the two; attw's
# check of all the tarballs runs in one process (scripts/attw-tarballs.mjs).
# attw checks every resolution TypeScript offers (node10, node16 from CommonJS and from ESM, bundler) but for one
# rule, cjs-resolves-to-esm: attw does not model Node's require() of ES modules (from 22.12, which the packages
# require). Which TypeScript settings a CommonJS project can use: docs/decisions/0006-esm-only-packages.md, checked by
# scripts/check-packed.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
tarballs="$(mktemp -d)"
trap 'rm -rf "$tarballs"' EXIT
bash scripts/pack-public.sh "$tarballs"
for tarball in "$tarballs"/*.tgz; do
  "$root/node_modules/.bin/publint" run --strict "$tarball"
done
node scripts/attw-tarballs.mjs "$tarballs"/*.tgz
