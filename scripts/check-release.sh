#!/usr/bin/env bash
# A release, short of publishing, in a throw-away copy of the built workspace: a changeset for @petstore/core goes
# through `pnpm version-packages` (versions, changelogs, the dependents' patch bumps, private packages untouched),
# `pnpm publish -r --dry-run` shows what `pnpm release` would publish, and scripts/check-packed.sh packs the new
# versions and installs them with npm outside the workspace (no `workspace:` range may survive).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT
tar -C "$root" --exclude=./node_modules --exclude='./*/*/node_modules' --exclude=./examples/node_modules \
  --exclude=./.git --exclude=./data -cf - . | tar -C "$copy" -xf -
cd "$copy"
# The copy's own links (from the store, offline): pnpm resolves each `workspace:*` range through them.
pnpm install --offline --frozen-lockfile --ignore-scripts --reporter=silent

# The repository's pending changesets are left out of the copy: the check follows one known change through.
find .changeset -name '*.md' ! -name README.md -delete
cat > .changeset/release-check.md <<'MD'
---
'@petstore/core': minor
---

A change to the domain, made up by scripts/check-release.sh.
MD
pnpm -s version-packages

fail() { echo "FAIL: $*"; exit 1; }
version() { node -p "require('./$1/package.json').version"; }
[ "$(version packages/core)" = 1.1.0 ] || fail "core is $(version packages/core), not 1.1.0"
grep -q '^## 1.1.0$' packages/core/CHANGELOG.md || fail "core's CHANGELOG.md has no 1.1.0 entry"
grep -q 'A change to the domain, made up by scripts/check-release.sh.' packages/core/CHANGELOG.md || fail "core's CHANGELOG.md lacks the change"
for dependent in app http-koa persistence-typeorm rate-limit-redis; do
  [ "$(version "packages/$dependent")" = 1.0.1 ] || fail "$dependent, which depends on core, is $(version "packages/$dependent"), not 1.0.1"
  grep -q '@petstore/core@1.1.0' "packages/$dependent/CHANGELOG.md" || fail "$dependent's CHANGELOG.md does not name core 1.1.0"
done
[ "$(version packages/client)" = 1.0.0 ] || fail "client, which does not depend on core, was bumped"
for private in packages/bench packages/test-support examples; do
  [ "$(version "$private")" = 1.0.0 ] && [ ! -e "$private/CHANGELOG.md" ] || fail "$private is private: it has no version to bump"
done
[ ! -e .changeset/release-check.md ] || fail "the changeset was not consumed"
echo "Versioned: core 1.1.0; app, http-koa, persistence-typeorm, rate-limit-redis 1.0.1; client and private packages unchanged."

echo "pnpm publish -r --dry-run:"
pnpm publish -r --dry-run --no-git-checks --access public 2>&1 | grep -E '^(\+ |npm notice (name|version|package size))' || true
bash "$root/scripts/check-packed.sh" "$copy"
