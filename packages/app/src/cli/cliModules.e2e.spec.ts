import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from '@jest/globals';
import { CLI_ENTRY, runCli } from '@petstore/test-support';

const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where the bundler writes the modules it bundled, one comment per module: Koa's application, in whichever file holds it. */
const KOA = '/koa/lib/application.js';

it('runs a command without loading the HTTP adapter (Koa and its middleware): a command answers no request', async () => {
  // Records the files of every ES module the CLI's process resolves (the bundle's chunks among them).
  const loaded = join(dir, 'loaded.txt');
  const probe = join(dir, 'probe.mjs');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(loaded)}, resolved.url + '\\n');
  return resolved;
}`;
  writeFileSync(
    probe,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));\n`,
  );

  const created = await runCli(['keys', 'create', '--plan', 'free'], {
    DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`,
    NODE_OPTIONS: `--import=${probe}`,
  });
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('Created key_') });

  const bundle = dirname(CLI_ENTRY);
  const chunks = [...new Set(readFileSync(loaded, 'utf8').split('\n'))]
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((path) => dirname(path) === bundle);
  expect(chunks).toContain(CLI_ENTRY);
  expect(chunks.filter((path) => readFileSync(path, 'utf8').includes(KOA))).toEqual([]);
  // The server's bundle holds Koa, so the marker is there to be found.
  const files = readdirSync(bundle).filter((name) => name.endsWith('.js'));
  expect(files.some((name) => readFileSync(join(bundle, name), 'utf8').includes(KOA))).toBe(true);
}, 60_000);
