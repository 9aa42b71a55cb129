import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { auth, runNodeProcess, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from './testing/builtServer.js';

const here = dirname(fileURLToPath(import.meta.url));
const ADMIN_TOKEN = 'openapi-types-admin-token-4e9b1c7f2a5d8e0b3c6f9a1d4e7b0c2f';
const OPENAPI_TYPESCRIPT_CLI = join(dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')), 'bin', 'cli.js');

/**
 * The client's types come from the documents the built server serves (`GET /v1/openapi.json`, and the admin API's
 * `GET /admin/v1/openapi.json`), generated with openapi-typescript into the committed `openapi.generated.ts` and
 * `admin.generated.ts`. This regenerates them and fails on any drift; `pnpm --filter @petstore/client
 * generate:types` (UPDATE_OPENAPI_TYPES=1) rewrites the files instead.
 */
describe('the client types and the served OpenAPI document', () => {
  let server: ServerProcess;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-openapi-'));
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      DATABASE_URL: 'sqlite::memory:',
      PUBLIC_BASE_URL: 'https://api.example.com/v1',
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  /** What openapi-typescript generates from the document at `url`, compared with (or written to) the committed file. */
  async function expectFresh(url: string, headers: Record<string, string>, committed: string): Promise<void> {
    const response = await fetch(url, { headers });
    expect(response.status).toBe(200);
    const documentFile = join(work, `${committed}.json`);
    await writeFile(documentFile, await response.text());
    const outputFile = join(work, committed);
    const generated = await runNodeProcess(OPENAPI_TYPESCRIPT_CLI, [documentFile, '--output', outputFile], {});
    expect(generated).toMatchObject({ code: 0 });
    const fresh = await readFile(outputFile, 'utf8');

    if (process.env['UPDATE_OPENAPI_TYPES'] === '1') await writeFile(join(here, committed), fresh);
    // On failure: the server's OpenAPI document changed; run `pnpm --filter @petstore/client generate:types`,
    // then adapt the client to the new types (the build shows where).
    expect(await readFile(join(here, committed), 'utf8')).toBe(fresh);
  }

  it('are exactly what openapi-typescript generates from the served document', async () => {
    await expectFresh(`${server.url}/openapi.json`, auth(server.firstRunKey!), 'openapi.generated.ts');
  }, 60_000);

  it("and the admin client's types, from the admin API's document", async () => {
    const adminUrl = server.adminUrl!;
    await expectFresh(`${adminUrl}/openapi.json`, { Authorization: `Bearer ${ADMIN_TOKEN}` }, 'admin.generated.ts');
  }, 60_000);
});
