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

/** The documented Dredd command (docs/http-api.md) against `base`, with `credential` and the repository's hooks. */
async function runDredd(documentFile: string, base: string, credential: string, hooks: string) {
  const result = await runNodeProcess(
    binOf('dredd', 'bin/dredd'),
    [documentFile, base, '--header', `Authorization: Bearer ${credential}`, '--hookfiles', join(here, '..', 'test', 'dredd', hooks)],
    {},
    120_000,
  );
  const output = (result.stdout + result.stderr).replace(/\u001b\[[0-9;]*m/g, '');
  const summary = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped/.exec(output);
  const [passing, failing, errors] = summary?.slice(1).map(Number) ?? [];
  // What the hooks skip: HEAD (Dredd 14 cannot send it) and the answers that need a state no request sets up.
  const skipped = new Set([...output.matchAll(/^skip: (\w+) \((\d+)\)/gm)].map(([, method, status]) => (method === 'HEAD' ? 'HEAD' : status)));
  return { code: result.code, passing, failing, errors, skipped: [...skipped].sort(), output };
}

// The served documents through tools nobody here wrote, as a third party would run them, on a fresh database.
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
    documentFile = join(work, 'openapi.json');
    writeFileSync(documentFile, await (await fetch(`${server.url}/openapi.json`, { headers: { Authorization: `Bearer ${key}` } })).text());
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('passes spectral lint (spectral:oas) with no error and no warning', () => expectSpectralClean(documentFile), 90_000);

  it('passes redocly lint (recommended) with no error and no warning', () => expectRedoclyClean(documentFile), 90_000);

  it('passes Dredd run as documented, from a fresh database: every answer a request can provoke, none failing', async () => {
    const run = await runDredd(documentFile, server.url, key, 'pets-hooks.cjs');
    expect({ code: run.code, failing: run.failing, errors: run.errors }).toEqual({ code: 0, failing: 0, errors: 0 });
    expect(run.passing).toBeGreaterThanOrEqual(48);
    expect(run.skipped).toEqual(['403', '408', '409', '410', '429', '500', '503', 'HEAD']);
  }, 150_000);
});

describe('the admin OpenAPI document through third-party tools', () => {
  const adminToken = 'openapi-tools-admin-token-8c1f4e7a2d9b0c3e5f6a8d1b4e7c0a2f';
  let work: string;
  let server: ServerProcess;
  let documentFile: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'petstore-admin-openapi-'));
    server = await spawnServer({ DATABASE_URL: `sqlite:${join(work, 'pets.db')}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: adminToken, ADMIN_PORT: '0' });
    documentFile = join(work, 'admin-openapi.json');
    writeFileSync(
      documentFile,
      await (await fetch(`${server.adminUrl!}/openapi.json`, { headers: { Authorization: `Bearer ${adminToken}` } })).text(),
    );
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('passes spectral lint (spectral:oas) with no error and no warning', () => expectSpectralClean(documentFile), 90_000);

  it('passes redocly lint (recommended) with no error and no warning', () => expectRedoclyClean(documentFile), 90_000);

  it('passes Dredd run as documented, from a fresh database: every answer a request can provoke, none failing', async () => {
    const run = await runDredd(documentFile, server.adminUrl!, adminToken, 'admin-hooks.cjs');
    expect({ code: run.code, failing: run.failing, errors: run.errors }).toEqual({ code: 0, failing: 0, errors: 0 });
    expect(run.passing).toBeGreaterThanOrEqual(92);
    expect(run.skipped).toEqual(['408', '500', '503', 'HEAD']);
  }, 150_000);
});
