import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { auth, runNodeProcess, spawnServer, type ServerProcess } from './testing/builtServer.js';

const GENERATED = join(dirname(fileURLToPath(import.meta.url)), 'openapi.generated.ts');
const OPENAPI_TYPESCRIPT_CLI = join(dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')), 'bin', 'cli.js');

/**
 * The client's types come from the document the built server serves (`GET /v1/openapi.json`), generated with
 * openapi-typescript into the committed `openapi.generated.ts`. This regenerates them and fails on any drift;
 * `pnpm --filter @petstore/client generate:types` (UPDATE_OPENAPI_TYPES=1) rewrites the file instead.
 */
describe('the client types and the served OpenAPI document', () => {
  let server: ServerProcess;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-openapi-'));
    server = await spawnServer({ DATABASE_URL: 'sqlite::memory:', PUBLIC_BASE_URL: 'https://api.example.com/v1' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('are exactly what openapi-typescript generates from the served document', async () => {
    const response = await fetch(`${server.url}/openapi.json`, { headers: auth(server.firstRunKey!) });
    expect(response.status).toBe(200);
    const documentFile = join(work, 'openapi.json');
    await writeFile(documentFile, await response.text());
    const outputFile = join(work, 'openapi.generated.ts');
    const generated = await runNodeProcess(OPENAPI_TYPESCRIPT_CLI, [documentFile, '--output', outputFile], {});
    expect(generated).toMatchObject({ code: 0 });
    const fresh = await readFile(outputFile, 'utf8');

    if (process.env['UPDATE_OPENAPI_TYPES'] === '1') await writeFile(GENERATED, fresh);
    // On failure: the server's OpenAPI document changed; run `pnpm --filter @petstore/client generate:types`,
    // then adapt the client to the new types (the build shows where).
    expect(await readFile(GENERATED, 'utf8')).toBe(fresh);
  }, 60_000);
});
