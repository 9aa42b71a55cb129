import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { runCli, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { describeWithRedisCluster, describeWithRedisSentinel, type RedisPasswords, type RunningReplicatedRedis } from '@petstore/test-support/jest';
import { auth } from './testing/api.js';

const ADMIN_TOKEN = 'redis-sign-in-admin-token-8f3b1d6a2e9c4f7b0d5a1e8c3f6b9d2a';
const PASSWORDS = { password: 'data-nodes-secret-7Qx', sentinelPassword: 'sentinels-secret-4Lm' };
const WRONG = 'wrong-secret-9Zk';
const WRONG_PASSWORD: [string, Record<string, string>] = ['a wrong REDIS_PASSWORD', { REDIS_PASSWORD: WRONG }];
const NO_PASSWORD: [string, Record<string, string>] = ['no REDIS_PASSWORD', { REDIS_PASSWORD: '' }];
const WRONG_SENTINEL_PASSWORD: [string, Record<string, string>] = ['a wrong REDIS_SENTINEL_PASSWORD', { REDIS_SENTINEL_PASSWORD: WRONG }];
const NO_TLS: [string, Record<string, string>] = ['REDIS_TLS=false', { REDIS_TLS: 'false' }];
const UNTRUSTED_CA: [string, Record<string, string>] = ['a CA it does not trust', { NODE_EXTRA_CA_CERTS: '' }];

interface Served {
  server: ServerProcess;
  env: Record<string, string>;
  id: string;
  secret: string;
}

const setups: [typeof describeWithRedisCluster, string, RedisPasswords, [string, Record<string, string>][]][] = [
  [describeWithRedisCluster, 'a Redis Cluster whose nodes require a password', PASSWORDS, [WRONG_PASSWORD, NO_PASSWORD]],
  [
    describeWithRedisSentinel,
    'Redis Sentinel whose master, replica and Sentinels require passwords',
    PASSWORDS,
    [WRONG_PASSWORD, NO_PASSWORD, WRONG_SENTINEL_PASSWORD],
  ],
  [describeWithRedisCluster, 'a Redis Cluster over TLS only, with a password', { ...PASSWORDS, tls: true }, [NO_TLS, UNTRUSTED_CA]],
  [describeWithRedisSentinel, 'Redis Sentinel over TLS only, with passwords', { ...PASSWORDS, tls: true }, [NO_TLS, UNTRUSTED_CA]],
];

for (const [describeOn, setup, passwords, wrongSettings] of setups) {
  describeOn(
    `the server on ${setup}`,
    (redis: () => RunningReplicatedRedis) => {
      let dir: string;
      /** One server per test, all started together: each start waits up to 2 s for Redis, which these overlap. */
      const servers = new Map<string, Promise<Served>>();

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), 'petstore-redis-sign-in-'));
        for (const [name, overrides] of [['the right settings', {}] as const, ...wrongSettings]) servers.set(name, serve(name, overrides));
        // Settled before the tests (a failed start fails its own test, when it awaits it).
        await Promise.allSettled(servers.values());
      }, 90_000);
      afterAll(async () => {
        const started = (await Promise.allSettled(servers.values())).flatMap((result) =>
          result.status === 'fulfilled' ? [result.value.server] : [],
        );
        await Promise.all(started.map((server) => server.stop()));
        rmSync(dir, { recursive: true, force: true });
      }, 30_000);

      async function serve(name: string, overrides: Record<string, string>): Promise<Served> {
        const file = `${name.replace(/\W+/g, '-')}.db`;
        const env = { DATABASE_URL: `sqlite:${join(dir, file)}`, ...redis().env, ...overrides };
        // Up to 4 starts at once on a loaded 2-core machine: twice the usual time to start.
        const server = await spawnServer({ ...env, ...STOPPED_AT_ONCE, NODE_ENV: 'production', ADMIN_TOKEN, ADMIN_PORT: '0' }, 60_000);
        try {
          const created = await fetch(`${server.adminUrl!}/keys`, {
            method: 'POST',
            headers: { ...auth(ADMIN_TOKEN), 'Content-Type': 'application/json' },
            body: JSON.stringify({ plan: 'pro' }),
          });
          if (created.status !== 201) throw new Error(`POST /keys answered ${created.status} on the server with ${name}`);
          const { id, key } = (await created.json()) as { id: string; key: string };
          return { server, env, id, secret: key };
        } catch (error) {
          await server.stop();
          throw error;
        }
      }

      /** Every password of the setup, and the wrong one: none may appear in what the server writes. */
      function expectNoPasswordIn(output: string): void {
        for (const secret of [...Object.values(PASSWORDS), WRONG]) expect(output).not.toContain(secret);
      }

      it('counts requests with the right settings, and the CLI reads the same counters', async () => {
        const { server, env, id, secret } = await servers.get('the right settings')!;
        for (let i = 0; i < 2; i++) expect((await fetch(`${server.url}/pets`, { headers: auth(secret) })).status).toBe(200);
        expect((await fetch(server.url.replace('/v1', '/readyz'))).status).toBe(200);
        const usage = await runCli(['keys', 'usage', id, '--json'], env);
        expect({ code: usage.code, stderr: usage.stderr }).toEqual({ code: 0, stderr: '' });
        expect((JSON.parse(usage.stdout) as { windows: { name: string; used: number }[] }).windows[1]).toMatchObject({ name: 'day', used: 2 });
        expectNoPasswordIn(server.output());
      }, 60_000);

      it.each(wrongSettings)(
        'fails closed with %s: 503 with Retry-After, /readyz 503, and no password in its log',
        async (name) => {
          const { server, secret } = await servers.get(name)!;
          const refused = await fetch(`${server.url}/pets`, { headers: auth(secret) });
          expect(refused.status).toBe(503);
          expect(await refused.json()).toEqual({ code: 'service_unavailable', status: 503, message: expect.stringContaining('rate-limit store') });
          expect(refused.headers.get('retry-after')).toBe('5');
          expect((await fetch(server.url.replace('/v1', '/readyz'))).status).toBe(503);
          expectNoPasswordIn(server.output());
        },
        60_000,
      );
    },
    passwords,
  );
}
