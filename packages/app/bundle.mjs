// Bundles what the bins run: the compiled server (dist/main.js) and CLI (dist/cli/main.js), with the workspace packages
// and their dependencies, into dist/bundle/. A process then loads a few files instead of some 1,400 (the start costs
// about 40 % less CPU: docs/decisions/0047-bundled-server-and-cli.md). dist/ itself stays as tsc made it: it is what
// `import '@petstore/app'` loads. Run by `pnpm build`, after tsc.
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = import.meta.dirname;
const out = join(root, 'dist', 'bundle');

// Left out, loaded from node_modules as they are: the database drivers (native, or reached by TypeORM by name), the
// modules that tracing instruments (it hooks their loading) and OpenTelemetry itself (loaded only with tracing on).
const external = ['better-sqlite3-driver', 'pg', 'pg-native', 'ioredis', '@opentelemetry/*', 'import-in-the-middle'];

// A workspace package finds its own files (the console's pages, the Lua scripts) and its dependencies (swagger-ui,
// the drivers) from import.meta.url, which in a bundle is the bundle's. Each of its files gets its own URL back,
// found at run time from wherever the package is installed (app depends on every one of them).
const workspaceFile = /[\\/]packages[\\/]([^\\/]+)[\\/]dist[\\/].*\.js$/;
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(bundler) {
    bundler.onLoad({ filter: workspaceFile }, async ({ path }) => {
      const contents = await readFile(path, 'utf8');
      const name = workspaceFile.exec(path)[1];
      if (name === 'app' || !contents.includes('import.meta.url')) return { contents, loader: 'js' };
      const entry = fileURLToPath(import.meta.resolve(`@petstore/${name}`));
      const fromEntry = `./${relative(dirname(entry), path).split(sep).join('/')}`;
      const url = `new URL(${JSON.stringify(fromEntry)}, import.meta.resolve(${JSON.stringify(`@petstore/${name}`)})).href`;
      return { contents: contents.replaceAll('import.meta.url', url), loader: 'js', resolveDir: dirname(path) };
    });
  },
};

// An ES module's `import ... from 'node:http'` makes Node build the module's ES facade, which reads every export,
// getters included: node:http's lazy `WebSocket` loads Node's copy of undici (nodejs/node#59686), and other modules'
// getters load more. Taken through `require` instead (the banner's), as the bundled CommonJS packages take them,
// Node's modules have their exports read only where they are used (decision 0047 gives what a start saves).
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(bundler) {
    bundler.onResolve({ filter: /^[a-z:_/]+$/ }, ({ path, kind }) =>
      kind === 'import-statement' && isBuiltin(path)
        ? { path: path.startsWith('node:') ? path : `node:${path}`, namespace: 'builtin-through-require' }
        : undefined,
    );
    bundler.onLoad({ filter: /.*/, namespace: 'builtin-through-require' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { server: join(root, 'dist', 'main.js'), cli: join(root, 'dist', 'cli', 'main.js') },
  outdir: out,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // The CommonJS dependencies require Node's modules: an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  external,
  plugins: [ownImportMetaUrl, builtinsThroughRequire],
  // Stack traces name the TypeScript sources with --enable-source-maps; the sources are in the installed packages.
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  absWorkingDir: root,
  logLevel: 'warning',
});
writeFileSync(join(out, 'THIRD-PARTY-LICENSES.txt'), thirdPartyLicenses(Object.keys(result.metafile.inputs)));

/** The licence of every package the bundle holds code of, read from its own files. */
function thirdPartyLicenses(inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const parts = join(root, input).split(sep);
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const dir = parts.slice(0, parts[at + 1].startsWith('@') ? at + 3 : at + 2).join(sep);
    packages.set(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  }
  const sections = [...packages]
    .sort(([, a], [, b]) => a.name.localeCompare(b.name))
    .map(([dir, { name, version, license }]) => {
      const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)(\.|-|$)/i.test(entry));
      const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${license}`;
      return `${name}@${version} (${license})\n\n${text}`;
    });
  return `The bundles in this directory hold code of these packages, under these licences.\n\n${sections.join(`\n\n${'-'.repeat(80)}\n\n`)}\n`;
}
