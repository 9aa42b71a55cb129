// Builds the console page into dist/web: the scripts and styles bundled by esbuild under names that carry their
// content's hash, index.html naming them, and a Brotli and a gzip copy of each file for the server to send.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = import.meta.dirname;
const out = join(root, 'dist', 'web');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: [join(root, 'web', 'main.tsx')],
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  // What current Chromium, Firefox and Safari run as it is.
  target: ['chrome120', 'firefox120', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const built = Object.keys(result.metafile.outputs).map((path) => basename(path));
const script = built.find((name) => name.endsWith('.js'));
const style = built.find((name) => name.endsWith('.css'));
writeFileSync(
  join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Pet store console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The console needs JavaScript.</noscript>
</body>
</html>
`,
);

for (const name of ['index.html', ...built.map((file) => `assets/${file}`)]) {
  const path = join(out, name);
  const body = readFileSync(path);
  writeFileSync(`${path}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
}
