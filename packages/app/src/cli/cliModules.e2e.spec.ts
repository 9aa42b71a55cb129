import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from '@jest/globals';
import { CLI_ENTRY, loadedModulesProbe, runCli } from '@petstore/test-support';

const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where the bundler writes the modules it bundled, one comment per module: Koa's application, in whichever file holds it. */
const KOA = '/koa/lib/application.js';

it('runs a command without loading the HTTP adapter (Koa and its middleware): a command answers no request', async () => {
  const probe = loadedModulesProbe(dir);
  const created = await runCli(['keys', 'create', '--plan', 'free'], {
    DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`,
    NODE_OPTIONS: probe.nodeOptions,
  });
  expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: expect.stringContaining('Created key_') });

  const bundle = dirname(CLI_ENTRY);
  const chunks = probe
    .loaded()
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url))
    .filter((path) => dirname(path) === bundle);
  expect(chunks).toContain(CLI_ENTRY);
  expect(chunks.filter((path) => readFileSync(path, 'utf8').includes(KOA))).toEqual([]);
  // The server's bundle holds Koa, so the marker is there to be found.
  const files = readdirSync(bundle).filter((name) => name.endsWith('.js'));
  expect(files.some((name) => readFileSync(join(bundle, name), 'utf8').includes(KOA))).toBe(true);
}, 60_000);
