import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issueUnlimitedKey, runNodeProcess, spawnServer, type ServerProcess } from '@petstore/test-support';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const REPO = join(here, '..', '..', '..');
const binOf = (pkg: string, bin: string) => join(dirname(require.resolve(`${pkg}/package.json`)), bin);

/** Spectral (`spectral:oas`, failing on hints) finds nothing in the document. */
async function expectSpectralClean(documentFile: string): Promise<void> {
  const result = await runNodeProcess(
    binOf('@stoplight/spectral-cli', 'dist/index.js'),
    ['lint', documentFile, '--ruleset', join(REPO, '.spectral.yaml'), '--fail-severity', 'hint'],
    {},
    60_000,
  );
  expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('No results') });
}

/** Redocly (`recommended`) finds the document valid, with no warning. */
async function expectRedoclyClean(documentFile: string): Promise<void> {
  const result = await runNodeProcess(
    binOf('@redocly/cli', 'bin/cli.js'),
    ['lint', documentFile, '--config', join(REPO, 'redocly.yaml')],
    {},
    60_000,
  );
  expect(result.stdout + result.stderr).toContain('Your API description is valid');
  expect(result.stdout + result.stderr).not.toMatch(/You have \d+ warnings?/);
  expect(result.code).toBe(0);
}

// Issue 24: the served document through tools nobody here wrote, as a third party would run them.
describe('the served OpenAPI document through third-party tools', () => {
  let work: string;
  let server: ServerProcess;
  let key: string;
  let documentFile: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'petstore-openapi-tools-'));
    const databaseUrl = `sqlite:${join(work, 'pets.db')}`;
    key = await issueUnlimitedKey(databaseUrl);
    server = await spawnServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    // Data the document's examples name: more available animals than a page (so the first page links to the next),
    // and the documented create once already (so Dredd's create, with the same Idempotency-Key, is its replay).
    for (let i = 0; i < 25; i++)
      await fetch(`${server.url}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${i}`, categoryId: 2 }) });
    await fetch(`${server.url}/pets`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': 'order-7f3a2c' },
      body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
    });
    documentFile = join(work, 'openapi.json');
    writeFileSync(documentFile, await (await fetch(`${server.url}/openapi.json`, { headers })).text());
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('passes spectral lint (spectral:oas) with no error and no warning', () => expectSpectralClean(documentFile), 90_000);

  it('passes redocly lint (recommended) with no error and no warning', () => expectRedoclyClean(documentFile), 90_000);

  it('passes Dredd on every success answer, driven by the document examples alone', async () => {
    const result = await runNodeProcess(
      binOf('dredd', 'bin/dredd'),
      [
        documentFile,
        server.url,
        '--header',
        `Authorization: Bearer ${key}`,
        '--hookfiles',
        join(here, '..', 'test', 'dredd-hooks.cjs'),
        '--color',
        'false',
      ],
      {},
      90_000,
    );
    const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors/.exec(result.stdout + result.stderr);
    expect({ code: result.code, summary: summary?.slice(1).map(Number) }).toEqual({ code: 0, summary: [expect.any(Number), 0, 0] });
    expect(Number(summary![1])).toBeGreaterThanOrEqual(8);
  }, 120_000);
});

// Issue 25: the admin document through the same linters.
describe('the admin OpenAPI document through third-party tools', () => {
  const adminToken = 'openapi-tools-admin-token-0123456789abcdef';
  let work: string;
  let server: ServerProcess;
  let documentFile: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'petstore-admin-openapi-'));
    server = await spawnServer({ DATABASE_URL: `sqlite:${join(work, 'pets.db')}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: adminToken, ADMIN_PORT: '0' });
    const adminUrl = server.adminUrl!;
    documentFile = join(work, 'admin-openapi.json');
    writeFileSync(documentFile, await (await fetch(`${adminUrl}/openapi.json`, { headers: { Authorization: `Bearer ${adminToken}` } })).text());
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('passes spectral lint (spectral:oas) with no error and no warning', () => expectSpectralClean(documentFile), 90_000);

  it('passes redocly lint (recommended) with no error and no warning', () => expectRedoclyClean(documentFile), 90_000);
});
