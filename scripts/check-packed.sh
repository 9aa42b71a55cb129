#!/usr/bin/env bash
# The published packages as an npm user gets them: packs every public package with `pnpm pack`, checks what each
# tarball ships, installs them all with npm and with pnpm into empty projects with no compiler on PATH and runs the
# server and the CLI from each, type-checks every entry point of every package in the npm one, made a strict project,
# with TypeScript 6 and 7, installs core and http-koa from the tarballs with npm into a project outside the workspace, type-checks
# the embedding and mounting examples there against the installed types, and runs them as ESM and as CommonJS; then
# compiles a TypeScript CommonJS project with each module setting the docs name.
# Usage: check-packed.sh [workspace]: the packages packed are those of `workspace` (default: this one), such as the
# versioned copy scripts/check-release.sh makes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
packed="$(cd "${1:-$root}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs" "$work/consumer"

echo "Tarballs:"
bash "$root/scripts/pack-public.sh" "$work/tarballs" "$packed"
for tarball in "$work"/tarballs/*.tgz; do
  files=$(tar tzf "$tarball")
  if grep -E '\.spec\.|tsbuildinfo|/src/|/testing/(startTestApi|openApiResponses|api|builtServer|FakeService|fakeTime|recordingFetch)' <<<"$files"; then
    echo "FAIL: $(basename "$tarball") ships tests, test helpers, sources or build info (above)"; exit 1
  fi
  for required in package/README.md package/LICENSE package/package.json; do
    grep -qx "$required" <<<"$files" || { echo "FAIL: $(basename "$tarball") has no ${required#package/}"; exit 1; }
  done
  # pnpm replaces `workspace:*` with the version of the package it names; npm users could not install the protocol.
  if tar xzf "$tarball" -O package/package.json | grep -n 'workspace:'; then
    echo "FAIL: $(basename "$tarball") still names a workspace: range (above)"; exit 1
  fi
  printf '  %-40s %6s KB packed, %4s files\n' "$(basename "$tarball")" "$(( $(stat -c %s "$tarball") / 1024 ))" "$(wc -l <<<"$files")"
done


# Every published package installed as a user installs it, with npm and with pnpm, into an empty project, with no
# compiler on PATH and nothing but the tarballs named: no peer conflict (no --legacy-peer-deps), nothing built
# (better-sqlite3 13's binaries come in its package), and the server on SQLite and the admin CLI run from it; the
# server finds the files of the packages it depends on where the manager installed them (swagger-ui's, the console's).
for manager in npm pnpm; do
  mkdir "$work/$manager-user"
  cd "$work/$manager-user"
  if [ "$manager" = npm ]; then
    printf '{ "name": "npm-user", "private": true, "type": "module" }\n' > package.json
    "$root/scripts/without-compilers.sh" npm install --no-audit --no-fund "$work"/tarballs/*.tgz >install.log 2>&1 || { cat install.log; echo "FAIL: npm install of the tarballs"; exit 1; }
  else
    # pnpm resolves a dependency between the tarballs (`"@petstore/core": "1.0.0"`) from the registry: pointed at the
    # tarballs instead, as a user's overrides would before a release.
    node -e '
      const fs = require("node:fs");
      const overrides = {};
      for (const file of fs.readdirSync(process.argv[1])) {
        const tarball = `${process.argv[1]}/${file}`;
        const name = file.replace(/^petstore-/, "@petstore/").replace(/-\d+\.\d+\.\d+\.tgz$/, "");
        overrides[name] = `file:${tarball}`;
      }
      fs.writeFileSync("package.json", JSON.stringify({ name: "pnpm-user", private: true, type: "module", pnpm: { overrides } }, null, 2));
    ' "$work/tarballs"
    "$root/scripts/without-compilers.sh" pnpm add "$work"/tarballs/*.tgz >install.log 2>&1 || { cat install.log; echo "FAIL: pnpm add of the tarballs"; exit 1; }
  fi
  if grep -nE 'ERESOLVE|gyp|prebuild|python|node-pre-gyp' install.log; then
    echo "FAIL: $manager install of the tarballs met a peer conflict or a native build (above)"; exit 1
  fi
  # pnpm's two notes that docs/embedding.md explains (TypeORM's optional peer range, better-sqlite3's binding.gyp).
  grep -E 'unmet peer|Ignored build scripts' install.log | sed "s/^[│ ]*/  $manager notes: /" || true
  node - "$manager" <<'JS'
// The installed server on SQLite: it starts, answers /livez, serves the API reference's and the console's files, and
// stops with 0 on SIGTERM; then the CLI lists the key it made.
const { spawn, execFileSync } = require('node:child_process');
const env = { PATH: process.env.PATH, PORT: '0', DATABASE_URL: 'sqlite:./data/petstore.db', ADMIN_TOKEN: require('node:crypto').randomBytes(32).toString('hex'), ADMIN_PORT: '0' };
const server = spawn(process.execPath, ['node_modules/@petstore/app/bin/petstore-server.js'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
let listened = false;
const fail = (why) => { console.error(`FAIL: ${process.argv[2]}'s install: ${why}\n${output}`); server.kill('SIGKILL'); process.exit(1); };
const timer = setTimeout(() => fail('the server did not listen within 60 s'), 60_000);
server.on('exit', (code) => (code === 0 ? undefined : fail(`the server exited with ${code}`)));
const collect = async (chunk) => {
  output += chunk;
  const listening = /Pet store listening on (\S+)\/v1/.exec(output);
  const admin = /Admin API listening on (\S+)\/admin\/v1/.exec(output);
  if (!listening || !admin || listened) return;
  listened = true;
  clearTimeout(timer);
  for (const url of [`${listening[1]}/livez`, `${listening[1]}/docs/swagger-ui.css`, `${admin[1]}/console`]) {
    const response = await fetch(url);
    if (response.status !== 200) fail(`${url} answered ${response.status}`);
  }
  server.removeAllListeners('exit');
  server.once('exit', (code) => {
    if (code !== 0) fail(`the server exited with ${code} on SIGTERM`);
    const keys = execFileSync(process.execPath, ['node_modules/@petstore/app/bin/petstore.js', 'keys', 'list'], { env, encoding: 'utf8' });
    if (!/key_[0-9a-f]{16}/.test(keys)) fail(`petstore keys list printed no key:\n${keys}`);
    console.log(`  ${process.argv[2]}: the tarballs install with no peer conflict and no build; the server and the CLI run on ${process.version}`);
  });
  server.kill('SIGTERM');
};
server.stdout.on('data', collect);
server.stderr.on('data', collect);
JS
done

# Every published package from its tarball in a strict project (`strict`, `skipLibCheck: false`) that imports each of
# their entry points: a published .d.ts that needs a type its package does not install (TS7016) fails here, with the
# project's TypeScript and with npm's current major (7): the npm user's project above, which installed every tarball,
# with @types/node 22 (the oldest supported Node's) added.
cd "$work/npm-user"
npm install --no-audit --no-fund --loglevel=error @types/node@22 >/dev/null
types_node=$(node -p "require('./node_modules/@types/node/package.json').version")
[ "${types_node%%.*}" = 22 ] || { echo "FAIL: the strict project's @types/node is $types_node, not 22"; exit 1; }
# The other TypeScripts this script compiles with, by one install: 7 here, 5.9 for the CommonJS settings below.
npm install --prefix "$work/typescripts" --no-audit --no-fund --loglevel=error typescript7@npm:typescript@7 \
  typescript5@npm:typescript@5.9 >/dev/null
node - <<'JS' > all-entry-points.ts
// One namespace import per entry point of every installed @petstore package (its package.json `exports`).
const fs = require('node:fs');
const lines = [];
for (const name of fs.readdirSync('node_modules/@petstore')) {
  const { exports } = JSON.parse(fs.readFileSync(`node_modules/@petstore/${name}/package.json`, 'utf8'));
  for (const entry of Object.keys(exports)) {
    const specifier = `@petstore/${name}${entry.slice(1)}`;
    lines.push(`import * as m${lines.length} from '${specifier}';\nconsole.log('${specifier}', Object.keys(m${lines.length}).length);`);
  }
}
console.log(lines.join('\n'));
JS
cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true, "skipLibCheck": false, "noEmit": true, "types": ["node"] }, "files": ["all-entry-points.ts"] }
JSON
for tsc in "$root/node_modules/.bin/tsc" "$work/typescripts/node_modules/typescript7/bin/tsc"; do
  "$tsc" -p tsconfig.json || { echo "FAIL: the published types do not compile in a strict project with TypeScript $("$tsc" --version)"; exit 1; }
  echo "  $(grep -c '^import' all-entry-points.ts) entry points of every published package type-check in a strict project ($("$tsc" --version), skipLibCheck false)"
done

cd "$work/consumer"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' > package.json
npm install --no-audit --no-fund --loglevel=error "$work"/tarballs/petstore-core-*.tgz "$work"/tarballs/petstore-http-koa-*.tgz koa@3 >/dev/null
# The development dependencies of the Jest setup, with the very command docs/embedding.md gives (the TypeScript it names).
recipe=$(grep -m1 -E '^npm install --save-dev jest@' "$root/docs/embedding.md") || { echo "FAIL: docs/embedding.md gives no Jest install command"; exit 1; }
echo "  $recipe"
read -ra recipe_words <<<"$recipe"
"${recipe_words[@]}" --no-audit --no-fund --loglevel=error >/dev/null
cp "$root/examples/src/embed-core.ts" "$root/examples/src/mount-in-koa.ts" .
cp "$root/examples/src/ArrayPetRepository.ts" "$root/examples/src/ArrayPetRepository.spec.ts" "$root/examples/jest-esm/jest.config.js" .
cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "nodenext", "moduleResolution": "nodenext", "isolatedModules": true, "strict": true, "noEmit": true, "types": ["node"] }, "include": ["*.ts"] }
JSON
npx tsc -p tsconfig.json
echo "Examples type-check against the installed packages."

node - <<'JS'
// Each example as an ES module (.mjs) and as CommonJS (.cjs: require() of the ESM-only packages, Node 22.12+).
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

# The contract suite from the installed package, held against your own adapter with the Jest setup docs/embedding.md
# gives: it runs with NODE_OPTIONS=--experimental-vm-modules, and does not without (as the docs say).
if node_modules/.bin/jest --ci >"$work/jest-without-flag.log" 2>&1; then
  echo "FAIL: Jest ran the contract suite without --experimental-vm-modules: update docs/embedding.md"; exit 1
fi
grep -q 'Must use import to load ES Module' "$work/jest-without-flag.log" || { cat "$work/jest-without-flag.log"; exit 1; }
echo "--- NODE_OPTIONS=--experimental-vm-modules jest (the PetRepository contract against examples/src/ArrayPetRepository.ts)"
NODE_OPTIONS=--experimental-vm-modules node_modules/.bin/jest --ci 2>&1 | grep -E '^(Tests|Test Suites):'

# A TypeScript CommonJS project compiled with each module setting docs/decisions/0006-esm-only-packages.md names, with
# TypeScript 6 (the project's) and 5.9: those it says work must compile and run; `node16` must fail with TS1479.
# The settings of one TypeScript are compiled by one `tsc -b` (one process reads the libraries' types once for all of
# them: half the CPU of a run each); only when that fails is each compiled alone, to name the one that fails.
mkdir "$work/commonjs"
cd "$work/commonjs"
printf '{ "name": "commonjs-consumer", "private": true }\n' > package.json
ln -s ../consumer/node_modules node_modules
cat > consumer.ts <<'TS'
import { createPetStore, DomainError } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';

const store = createPetStore(inMemoryPorts());
store.createPet.execute({ name: '', categoryId: 1 }).catch((error: unknown) => {
  console.log(DomainError.is(error) ? error.code : 'not a domain error');
});
TS
tsc_of() { [ "$1" = 5 ] && echo "$work/typescripts/node_modules/typescript5/bin/tsc" || echo node_modules/.bin/tsc; }
config() { # typescript-major module [moduleResolution]: writes the config that compiles consumer.ts into out-<major>-<module>-<resolution>/, prints its name
  local out="out-$1-$2-${3:-default}" extra=''
  [ "${3:-}" = node10 ] && extra='"ignoreDeprecations": "6.0",'
  # node16 is expected to fail on consumer.ts itself: the libraries' types need no check there.
  [ "$2" = node16 ] && extra='"skipLibCheck": true,'
  printf '{ "compilerOptions": { "target": "ES2022", "module": "%s", %s %s "strict": true, "outDir": "%s", "types": ["node"] }, "files": ["consumer.ts"] }\n' \
    "$2" "${3:+\"moduleResolution\": \"$3\",}" "$extra" "$out" > "tsconfig.$out.json"
  echo "tsconfig.$out.json"
}
for major in 6 5; do
  settings=("nodenext" "node20" "commonjs")
  [ "$major" = 6 ] && settings+=("commonjs node10" "commonjs bundler")
  configs=()
  for setting in "${settings[@]}"; do
    read -r module resolution <<<"$setting"
    configs+=("$(config "$major" "$module" "$resolution")")
  done
  if ! "$(tsc_of "$major")" -b "${configs[@]}" >/dev/null; then
    for file in "${configs[@]}"; do
      "$(tsc_of "$major")" -p "$file" || { echo "FAIL: TypeScript $major: $file does not compile (above)"; exit 1; }
    done
  fi
  for setting in "${settings[@]}"; do
    read -r module resolution <<<"$setting"
    answer=$(node "out-$major-$module-${resolution:-default}/consumer.js")
    [ "$answer" = validation_error ] || { echo "FAIL: TypeScript $major, module $module${resolution:+ $resolution}: the consumer printed '$answer'"; exit 1; }
    echo "  TypeScript $major, module $module${resolution:+ $resolution}: compiles, and runs as CommonJS"
  done
done
for major in 6 5; do
  if errors=$("$(tsc_of "$major")" -p "$(config "$major" node16)" 2>&1); then
    echo "FAIL: TypeScript $major, module node16 compiled: update docs/decisions/0006-esm-only-packages.md"; exit 1
  fi
  grep -q 'error TS1479' <<<"$errors" || { echo "FAIL: TypeScript $major, module node16: expected TS1479, got:"; echo "$errors"; exit 1; }
  echo "  TypeScript $major, module node16: TS1479, as documented"
done
