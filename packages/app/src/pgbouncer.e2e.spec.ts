import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, runCli, runNodeProcess, SERVER_ENTRY, spawnServer, type ServerProcess } from '@petstore/test-support';
import { describeWithPgBouncer } from '@petstore/test-support/jest';
import pg from 'pg';
import { auth, listAllPets, postPet } from './testing/api.js';

/** Sends `count` requests, `concurrency` at a time, and counts the answers by status. */
async function statusesOf(count: number, concurrency: number, send: (n: number) => Promise<Response>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const response = await send(next++);
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

describeWithPgBouncer('the built server and CLI through PgBouncer in transaction pooling mode', (servers) => {
  const TIMEOUT_MS = 1_000;
  /** The environment of a process behind the pooler, on one of its databases. */
  const pooled = (database = 'petstore') => ({
    DATABASE_URL: servers().pgbouncer.url.replace(/\/petstore$/, `/${database}`),
    DATABASE_POOL_MODE: 'transaction',
  });
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    server = await spawnServer({ ...pooled(), DATABASE_TIMEOUT_MS: String(TIMEOUT_MS), KEY_CACHE_TTL_MS: '5000', NODE_ENV: 'production' });
    const created = await runCli(['keys', 'create', '--plan', 'enterprise', '--per-minute', '1000000', '--per-day', '100000000'], pooled());
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pst_\w+\n$/) });
    key = created.stdout.trim();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('does not start without DATABASE_POOL_MODE=transaction, and says to set it', async () => {
    const { DATABASE_URL } = pooled();
    expect(await runNodeProcess(SERVER_ENTRY, [], { DATABASE_URL, PORT: '0' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'failed to start: unsupported startup parameter: statement_timeout (behind PgBouncer or another pooler, set DATABASE_POOL_MODE=transaction)\n',
    });
  }, 30_000);

  it('migrates a new database and creates a key with the CLI', async () => {
    const admin = new pg.Client({ connectionString: servers().postgres.url });
    await admin.connect();
    try {
      await admin.query('CREATE DATABASE petstore_cli');
    } finally {
      await admin.end();
    }
    expect(await runCli(['migrate'], pooled('petstore_cli'))).toEqual({
      code: 0,
      stdout: 'Database schema is up to date (4 migrations).\n',
      stderr: '',
    });
    const created = await runCli(['keys', 'create', '--plan', 'free', '--name', 'kiosk', '--json'], pooled('petstore_cli'));
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(await runCli(['keys', 'get', id, '--json'], pooled('petstore_cli'))).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('"name": "kiosk"'),
    });
  }, 60_000);

  it('answers every one of 400 concurrent creates and 400 list pages with 2xx, and stores every pet', async () => {
    const statuses = await statusesOf(800, 50, (n) =>
      n % 2 === 0 ? postPet(server, key, `pooled ${n}`) : fetch(`${server.url}/pets?limit=20&status=available`, { headers: auth(key) }),
    );
    expect(statuses).toEqual({ 200: 400, 201: 400 });
    expect((await listAllPets(server, key)).filter((pet) => pet.name.startsWith('pooled '))).toHaveLength(400);
  }, 90_000);

  it('answers 503 within 2 x DATABASE_TIMEOUT_MS + 1 s while PostgreSQL stalls, stores nothing for it, and recovers', async () => {
    // The key is in the server's cache (5 s) from here on, so each request below reaches the pets' statements.
    expect((await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) })).status).toBe(200);
    servers().postgres.freeze();
    let answers: { status: number; retryAfter: string | null; ms: number }[];
    try {
      answers = await Promise.all(
        [() => fetch(`${server.url}/pets?limit=5`, { headers: auth(key) }), () => postPet(server, key, 'during the stall')].map(async (send) => {
          const started = Date.now();
          const response = await send();
          await response.arrayBuffer();
          return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
        }),
      );
    } finally {
      servers().postgres.thaw();
    }
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 503, retryAfter: '5' });
      // The documented bound, and a margin for this loaded machine.
      expect(answer.ms).toBeLessThan(2 * TIMEOUT_MS + 1_000 + 1_500);
    }
    await eventually(async () => (await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) })).status === 200, { timeoutMs: 30_000 });
    expect((await listAllPets(server, key)).filter((pet) => pet.name === 'during the stall')).toEqual([]);
  }, 60_000);
});
