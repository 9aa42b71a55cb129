#!/usr/bin/env bash
# The published packages as an npm user gets them: packs every public package with `pnpm pack`, checks what each
# tarball ships, installs core and http-koa from the tarballs with npm into a project outside the workspace, type-checks
# the embedding and mounting examples there against the installed types, and runs them as ESM and as CommonJS.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/consumer"

echo "Tarballs:"
for dir in "$root"/packages/*/; do
  node -e "process.exit(require('${dir}package.json').private ? 1 : 0)" || continue
  (cd "$dir" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
for tarball in "$work"/tarballs/*.tgz; do
  files=$(tar tzf "$tarball")
  if grep -E '\.spec\.|tsbuildinfo|/src/|/testing/(startTestApi|openApiResponses|api|builtServer|FakeService|fakeTime|recordingFetch)' <<<"$files"; then
    echo "FAIL: $(basename "$tarball") ships tests, test helpers, sources or build info (above)"; exit 1
  fi
  for required in package/README.md package/LICENSE package/package.json; do
    grep -qx "$required" <<<"$files" || { echo "FAIL: $(basename "$tarball") has no ${required#package/}"; exit 1; }
  done
  printf '  %-40s %6s KB packed, %4s files\n' "$(basename "$tarball")" "$(( $(stat -c %s "$tarball") / 1024 ))" "$(wc -l <<<"$files")"
done

cd "$work/consumer"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' > package.json
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/petstore-core-*.tgz "$work"/tarballs/petstore-http-koa-*.tgz \
  koa@3 "typescript@$(node -p "require('$root/node_modules/typescript/package.json').version")" @types/node@20 >/dev/null
cp "$root/examples/src/embed-core.ts" "$root/examples/src/mount-in-koa.ts" .
cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "noEmit": true, "types": ["node"] }, "include": ["*.ts"] }
JSON
npx tsc -p tsconfig.json
echo "Examples type-check against the installed packages."

node - <<'JS'
// Each example as an ES module (.mjs) and as CommonJS (.cjs: require() of the ESM-only packages, Node 20.19+).
const ts = require('typescript');
const fs = require('node:fs');
for (const name of ['embed-core', 'mount-in-koa']) {
  const source = fs.readFileSync(`${name}.ts`, 'utf8');
  const esm = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 } }).outputText;
  fs.writeFileSync(`${name}.mjs`, esm);
  // CommonJS has no top-level await: the module's body (its requires included) runs in an async function.
  const cjsBody = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText;
  const cjs = `(async () => {\n${cjsBody}\n})().catch((error) => { console.error(error); process.exit(1); });\n`;
  fs.writeFileSync(`${name}.cjs`, cjs);
}
JS
for file in embed-core.mjs mount-in-koa.mjs embed-core.cjs mount-in-koa.cjs; do
  echo "--- node $file"
  node "$file"
done
