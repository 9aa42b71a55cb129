import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { eventually, issueKey, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';
import { betterSqlite3 } from '@petstore/persistence-typeorm';

const Database = betterSqlite3();

const dir = mkdtempSync(join(tmpdir(), 'petstore-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// The default setup: SQLite, no Redis, the in-process rate-limit store, restarted as an operator or a crash would.
describe('a restart of the built server without Redis', () => {
  const databaseUrl = () => `sqlite:${join(dir, `restart-${++files}.db`)}`;
  // A clean stop (SIGTERM) that does not wait for the test's idle keep-alive connections: what it keeps is the point.
  const env = (url: string) => ({
    ...STOPPED_AT_ONCE,
    DATABASE_URL: url,
    NODE_ENV: 'production',
    BAN_STRIKES: '1',
    BAN_STRIKE_INTERVAL_SECONDS: '0',
  });
  const createKey = async (server: ServerProcess, perMinute: number, perDay: number) =>
    (await issueKey(server, { plan: 'free', perMinute, perDay })).key;
  const get = async (baseUrl: string, key: string) => {
    const response = await fetch(`${baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await response.json()) as { code?: string };
    return { status: response.status, code: body.code ?? null, headers: response.headers };
  };

  it("keeps the day's usage: a key with perDay=5 gets 5 answers before a restart and none after", async () => {
    const url = databaseUrl();
    const before = await spawnServer({ ...env(url), ...WITH_ADMIN_API });
    const key = await createKey(before, 5, 5);
    try {
      for (let i = 0; i < 5; i++) expect((await get(before.url, key)).status).toBe(200);
    } finally {
      expect(await before.stop()).toBe(0);
    }
    const after = await spawnServer(env(url));
    try {
      const refused = await get(after.url, key);
      expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(refused.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await after.stop();
    }
  }, 90_000);

  it('keeps a ban in force, through a clean stop and through a crash (SIGKILL)', async () => {
    const url = databaseUrl();
    let server = await spawnServer({ ...env(url), ...WITH_ADMIN_API });
    const key = await createKey(server, 1, 1_000);
    let banned: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 10 && banned === undefined; i++) {
      const answer = await get(server.url, key);
      if (answer.code === 'key_banned') banned = answer;
    }
    expect(banned).toMatchObject({ status: 429 });
    const banEnd = Date.now() + Number(banned!.headers.get('retry-after')) * 1000;
    await server.stop();

    server = await spawnServer(env(url));
    expect(await get(server.url, key)).toMatchObject({ status: 429, code: 'key_banned' });
    // The ban is written as it starts, not at shutdown: a crash keeps it too.
    const database = new Database(join(dir, `restart-${files}.db`), { readonly: true });
    try {
      await eventually(() => (database.prepare('SELECT COUNT(*) AS n FROM rate_limit_bans').get() as { n: number }).n === 1);
    } finally {
      database.close();
    }
    await server.stop('SIGKILL');
    server = await spawnServer(env(url));
    try {
      const still = await get(server.url, key);
      expect(still).toMatchObject({ status: 429, code: 'key_banned' });
      const retryAfter = Number(still.headers.get('retry-after'));
      expect(Math.abs(Date.now() + retryAfter * 1000 - banEnd)).toBeLessThan(5_000);
    } finally {
      await server.stop();
    }
  }, 90_000);
});
