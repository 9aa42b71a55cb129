import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issueUnlimitedKey, runNodeProcess, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';

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

/** A pet created with a key the admin interface issues: the server then has an event. */
async function createPetThroughAdminKey(server: ServerProcess, adminToken: string): Promise<void> {
  const issued = await fetch(`${server.adminUrl!}/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ plan: 'free' }),
  });
  const { key } = (await issued.json()) as { key: string };
  const created = await fetch(`${server.url}/pets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
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

/** A server started for the tools, and where its document and the operations it describes answer. */
interface Served {
  server: ServerProcess;
  documentUrl: string;
  operationsUrl: string;
  credential: string;
}

/** Spectral, Redocly and Dredd on the document of the server `serve` starts on a fresh database in `work`. */
function describeThroughTools(
  title: string,
  serve: (work: string) => Promise<Served>,
  dredd: { hooks: string; atLeastPassing: number; skipped: string[] },
): void {
  describe(title, () => {
    let work: string;
    let served: Served;
    let documentFile: string;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'petstore-openapi-tools-'));
      served = await serve(work);
      documentFile = join(work, 'openapi.json');
      writeFileSync(documentFile, await (await fetch(served.documentUrl, { headers: { Authorization: `Bearer ${served.credential}` } })).text());
    }, 90_000);

    afterAll(async () => {
      await served?.server.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it('passes spectral lint (spectral:oas) with no error and no warning', () => expectSpectralClean(documentFile), 90_000);

    it('passes redocly lint (recommended) with no error and no warning', () => expectRedoclyClean(documentFile), 90_000);

    it('passes Dredd run as documented, from a fresh database: every answer a request can provoke, none failing', async () => {
      const run = await runDredd(documentFile, served.operationsUrl, served.credential, dredd.hooks);
      expect({ code: run.code, failing: run.failing, errors: run.errors }).toEqual({ code: 0, failing: 0, errors: 0 });
      expect(run.passing).toBeGreaterThanOrEqual(dredd.atLeastPassing);
      expect(run.skipped).toEqual(dredd.skipped);
    }, 150_000);
  });
}

// The served documents through tools nobody here wrote, as a third party would run them, on a fresh database.
describeThroughTools(
  'the served OpenAPI document through third-party tools',
  async (work) => {
    const databaseUrl = `sqlite:${join(work, 'pets.db')}`;
    const server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    return { server, documentUrl: `${server.url}/openapi.json`, operationsUrl: server.url, credential: await issueUnlimitedKey(server) };
  },
  { hooks: 'pets-hooks.cjs', atLeastPassing: 48, skipped: ['403', '408', '409', '410', '429', '500', '503', 'HEAD'] },
);

describeThroughTools(
  'the admin OpenAPI document through third-party tools',
  async (work) => {
    const adminToken = 'openapi-tools-admin-token-8c1f4e7a2d9b0c3e5f6a8d1b4e7c0a2f';
    const server = await spawnServer({
      ...STOPPED_AT_ONCE,
      DATABASE_URL: `sqlite:${join(work, 'pets.db')}`,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: adminToken,
      ADMIN_PORT: '0',
      // The examples' receiver (crm.example.org) does not resolve here.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    // An event to resend: the admin interface records none itself.
    await createPetThroughAdminKey(server, adminToken);
    return { server, documentUrl: `${server.adminUrl!}/openapi.json`, operationsUrl: server.adminUrl!, credential: adminToken };
  },
  { hooks: 'admin-hooks.cjs', atLeastPassing: 120, skipped: ['408', '409', '500', '503', 'HEAD'] },
);
