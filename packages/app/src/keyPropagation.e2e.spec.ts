import { connect } from 'node:net';
import { expect, it } from '@jest/globals';
import { eventually, issueKey, runCli, WITH_ADMIN_API, type KeySettings, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { auth, listAllPets } from './testing/api.js';
import { twoInstances } from './testing/twoInstances.js';

const KEY_CACHE_TTL_MS = 2_000;
/** Beyond the TTL: a request in flight when the cache entry ends, and the polling interval. */
const MARGIN_MS = 3_000;

interface Answer {
  status: number;
  code: string | null;
  limit: string | null;
  /** GET /v1/rate_limit's ban end. */
  bannedUntil?: unknown;
}

// What an operator changes on the shared database reaches every instance within the key cache's TTL.
describeWithPostgresAndRedis(
  'a change made through the CLI reaches two instances sharing PostgreSQL and Redis within the key cache TTL',
  (servers) => {
    const databaseUrl = () => servers().postgres.url;
    const instances = twoInstances(() => ({
      ...WITH_ADMIN_API,
      DATABASE_URL: databaseUrl(),
      REDIS_URL: servers().redis.url,
      KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
      BAN_STRIKES: '1',
      BAN_STRIKE_INTERVAL_SECONDS: '0',
      // Every test polls with a key that no longer works, all from 127.0.0.1: the address's failed authentications
      // must not reach its per-minute limit (a 429 instead of the 401 awaited), however the tests fall in a minute.
      FAILED_AUTH_PER_MINUTE: '1000000',
    }));

    async function cli(...args: string[]): Promise<string> {
      const result = await runCli(args, { DATABASE_URL: databaseUrl(), REDIS_URL: servers().redis.url });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
      return result.stdout;
    }

    /** A key to change: issued through an instance's admin API (what changes it is the CLI). */
    async function newKey(settings: KeySettings): Promise<{ id: string; secret: string }> {
      const { id, key } = await issueKey(instances.a, settings);
      return { id, secret: key };
    }

    async function get(server: ServerProcess, secret: string, path = '/pets?limit=1'): Promise<Answer> {
      const response = await fetch(`${server.url}${path}`, { headers: auth(secret) });
      const body = (await response.json()) as { code?: string; bannedUntil?: unknown };
      return { status: response.status, code: body.code ?? null, limit: response.headers.get('x-ratelimit-limit'), bannedUntil: body.bannedUntil };
    }

    /** Waits until `condition` holds for an answer of each instance, at most the cache TTL and a margin. */
    async function onBoth(secret: string, condition: (answer: Answer) => boolean, path?: string): Promise<void> {
      await Promise.all(
        [instances.a, instances.b].map((server) =>
          eventually(async () => condition(await get(server, secret, path)), { timeoutMs: KEY_CACHE_TTL_MS + MARGIN_MS }),
        ),
      );
    }

    /** Both instances served the key, so each holds it in its cache before the change. */
    async function cachedOnBoth(secret: string): Promise<void> {
      for (const server of [instances.a, instances.b]) expect(await get(server, secret)).toMatchObject({ status: 200 });
    }

    it('a revoke', async () => {
      const { id, secret } = await newKey({ plan: 'pro' });
      await cachedOnBoth(secret);
      await cli('keys', 'revoke', id);
      await onBoth(secret, ({ status, code }) => status === 401 && code === 'unauthorized');
    }, 30_000);

    it('a scope change', async () => {
      const { id, secret } = await newKey({ plan: 'pro' });
      await cachedOnBoth(secret);
      await cli('keys', 'update', id, '--scopes', 'pets:write');
      await onBoth(secret, ({ status, code }) => status === 403 && code === 'insufficient_scope');
    }, 30_000);

    it('a plan change, then a limit change', async () => {
      const { id, secret } = await newKey({ plan: 'pro' });
      await cachedOnBoth(secret);
      await cli('keys', 'update', id, '--plan', 'business');
      await onBoth(secret, ({ limit }) => limit === '1000');
      await cli('keys', 'update', id, '--per-minute', '900', '--per-day', '5000');
      await onBoth(secret, ({ limit }) => limit === '900');
    }, 30_000);

    it('disabling, then enabling again', async () => {
      const { id, secret } = await newKey({ plan: 'pro' });
      await cachedOnBoth(secret);
      await cli('keys', 'update', id, '--disable');
      await onBoth(secret, ({ code }) => code === 'key_disabled');
      await cli('keys', 'update', id, '--enable');
      await onBoth(secret, ({ status }) => status === 200);
    }, 30_000);

    it('an expiry passing', async () => {
      const expiresAt = new Date(Date.now() + 8_000);
      const { secret } = await newKey({ plan: 'pro', expiresAt: expiresAt.toISOString() });
      await cachedOnBoth(secret);
      await Promise.all(
        [instances.a, instances.b].map((server) =>
          eventually(async () => (await get(server, secret)).code === 'key_expired', {
            timeoutMs: expiresAt.getTime() - Date.now() + KEY_CACHE_TTL_MS + MARGIN_MS,
          }),
        ),
      );
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    }, 30_000);

    it('an unban', async () => {
      const { id, secret } = await newKey({ plan: 'free', perMinute: 1 });
      expect((await get(instances.a, secret)).status).toBe(200);
      // One strike bans (BAN_STRIKES=1, no interval): the 429 that ends the window, then every request is key_banned.
      await eventually(async () => (await get(instances.b, secret)).code === 'key_banned');
      await onBoth(secret, ({ code }) => code === 'key_banned');
      await onBoth(secret, ({ bannedUntil }) => typeof bannedUntil === 'number', '/rate_limit');
      await cli('keys', 'unban', id);
      // GET /v1/rate_limit answers during a ban and counts apart: reading it never strikes again.
      await onBoth(secret, ({ status, bannedUntil }) => status === 200 && bannedUntil === null, '/rate_limit');
      expect((await get(instances.a, secret)).code).not.toBe('key_banned');
    }, 30_000);

    it('a revoke while a POST body is still arriving: 401 once it has arrived, nothing stored', async () => {
      const { id, secret } = await newKey({ plan: 'pro' });
      const other = await newKey({ plan: 'pro' });
      await cachedOnBoth(secret);
      const name = `slow ${id}`;
      const body = JSON.stringify({ name, categoryId: 1 });
      const socket = connect(Number(new URL(instances.b.url).port), '127.0.0.1');
      let received = '';
      let closed = false;
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => (closed = true));
      socket.write(
        `POST /v1/pets HTTP/1.1\r\nHost: petstore.test\r\nAuthorization: Bearer ${secret}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, body.length >> 1)}`,
      );
      // Admitted when its headers came (counted: one more request in the minute than the two above), body on its way.
      await eventually(async () => {
        const usage = (await (await fetch(`${instances.b.url}/rate_limit`, { headers: auth(secret) })).json()) as { windows: { used: number }[] };
        return usage.windows[0]!.used === 3;
      });
      await cli('keys', 'revoke', id);
      // Past the TTL: instance b itself refuses the key now.
      await onBoth(secret, ({ status }) => status === 401);
      socket.end(body.slice(body.length >> 1));
      await eventually(() => closed || /\r\n\r\n\{.*\}$/s.test(received), { timeoutMs: 10_000 });
      expect(received).toMatch(/^HTTP\/1\.1 401 /);
      expect((await listAllPets(instances.a, other.secret)).filter((pet) => pet.name === name)).toEqual([]);
    }, 30_000);
  },
);
