import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, runCli, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { describeWithRedisCluster, describeWithRedisSentinel, type RunningReplicatedRedis } from '@petstore/test-support/jest';
import { auth, burstUntilLimited } from './testing/api.js';

const ADMIN_TOKEN = 'redis-topologies-admin-token-2c7e9a4f1b6d3e8c0a5f7b2d9e4c1a6f';
/**
 * Every request sent this long after the promotion is answered 200: one sent to the lost master before has its answer
 * within the server's 2 s Redis command timeout, and the client reconnects to the new master within its reconnection
 * backoff (at most 2 s); the rest is a margin for a loaded machine.
 */
const SERVED_AGAIN_WITHIN_MS = 6_000;

interface Window {
  name: string;
  used: number;
  remaining: number;
}
interface Answer {
  status: number;
  code: string | null;
  retryAfter: string | null;
}

const banRecordOf = (id: string) => `petstore:rl:{key:${id}}:ban`;

for (const [describeOn, setup] of [
  [describeWithRedisCluster, 'a Redis Cluster of 3 masters and 3 replicas'],
  [describeWithRedisSentinel, 'Redis Sentinel (a master, its replica, 3 Sentinels)'],
] as const) {
  describeOn(`the server and the CLI on ${setup}`, (redis: () => RunningReplicatedRedis) => {
    let dir: string;
    let server: ServerProcess;
    let storeEnv: Record<string, string>;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-redis-topology-'));
      storeEnv = { DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`, ...redis().env };
      server = await spawnServer({
        ...storeEnv,
        ...STOPPED_AT_ONCE,
        NODE_ENV: 'production',
        BAN_STRIKES: '1',
        BAN_STRIKE_INTERVAL_SECONDS: '0',
        ADMIN_TOKEN,
        ADMIN_PORT: '0',
      });
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }, 30_000);

    async function newKey(perMinute: number, perDay = 1_000_000): Promise<{ id: string; secret: string }> {
      const response = await fetch(`${server.adminUrl!}/keys`, {
        method: 'POST',
        headers: { ...auth(ADMIN_TOKEN), 'Content-Type': 'application/json' },
        body: JSON.stringify({ plan: 'enterprise', perMinute, perDay }),
      });
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string; key: string };
      return { id: body.id, secret: body.key };
    }

    async function get(secret: string): Promise<Answer> {
      const response = await fetch(`${server.url}/pets?limit=1`, { headers: auth(secret) });
      const body = (await response.json()) as { code?: string };
      return { status: response.status, code: body.code ?? null, retryAfter: response.headers.get('retry-after') };
    }

    async function usage(secret: string): Promise<{ windows: Window[]; bannedUntil: number | null }> {
      const response = await fetch(`${server.url}/rate_limit`, { headers: auth(secret) });
      expect(response.status).toBe(200);
      return (await response.json()) as { windows: Window[]; bannedUntil: number | null };
    }

    async function cli(...args: string[]): Promise<string> {
      const result = await runCli(args, storeEnv);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      return result.stdout;
    }

    /** Keys until their counters live on every master (one on Sentinel, three on the cluster). */
    async function keysOnEveryMaster(): Promise<{ id: string; secret: string; master: number }[]> {
      const masters = redis().kind === 'cluster' ? 3 : 1;
      const keys: { id: string; secret: string; master: number }[] = [];
      while (new Set(keys.map((key) => key.master)).size < masters) {
        expect(keys.length).toBeLessThan(40);
        const key = await newKey(1_000);
        keys.push({ ...key, master: await redis().masterOf(banRecordOf(key.id)) });
      }
      return keys;
    }

    it('answers 200 for keys whose counters live on every master, counting each request once', async () => {
      for (const key of await keysOnEveryMaster()) {
        for (let i = 0; i < 3; i++) expect(await get(key.secret)).toEqual({ status: 200, code: null, retryAfter: null });
        expect((await usage(key.secret)).windows[1]).toMatchObject({ name: 'day', used: 3 });
      }
    }, 60_000);

    it('lets the CLI read a key usage and lift its ban', async () => {
      // One a day, so that where the clock is inside a minute does not matter.
      const { id, secret } = await newKey(1, 1);
      expect((await get(secret)).status).toBe(200);
      // One strike bans (BAN_STRIKES=1): the 429 that ends the window, then key_banned.
      expect(await get(secret)).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(await get(secret)).toMatchObject({ status: 429, code: 'key_banned' });
      const shown = JSON.parse(await cli('keys', 'usage', id, '--json')) as { windows: Window[]; bannedUntil: number | null };
      expect(shown.windows[1]).toMatchObject({ name: 'day', used: 1, remaining: 0 });
      expect(shown.bannedUntil).toBeGreaterThan(Date.now() / 1000);
      // The list reads every key's ban (the keys of the test before: on every master), one slot each.
      const listed = JSON.parse(await cli('keys', 'list', '--limit', '100', '--json')) as { keys: { id: string; bannedUntil: string | null }[] };
      expect(listed.keys.length).toBeGreaterThan(1);
      expect(listed.keys.filter((key) => key.bannedUntil !== null).map((key) => key.id)).toEqual([id]);
      expect(await cli('keys', 'unban', id)).toBe(`Lifted the ban on ${id}.\n`);
      expect((await usage(secret)).bannedUntil).toBeNull();
      expect(await get(secret)).toMatchObject({ status: 429, code: 'rate_limited' });
    }, 60_000);

    it('rides out the loss of a master: 503 with Retry-After until a replica takes over, then exact limits again, nobody banned, no 503 charged but the one cut by the kill', async () => {
      const loaded = await newKey(100_000);
      const master = await redis().masterOf(banRecordOf(loaded.id));
      // A key on the same master, to count its limit after the failover, and one whose counters live on another
      // (on Sentinel there is one master: the same one).
      let limited = await newKey(20);
      for (let tries = 1; (await redis().masterOf(banRecordOf(limited.id))) !== master; tries++) {
        expect(tries).toBeLessThan(40);
        limited = await newKey(20);
      }
      const keys = await keysOnEveryMaster();
      const onAnother = keys.find((key) => key.master !== master) ?? keys[0]!;
      const before = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(`${server.url}/pets?limit=1`, { headers: auth(limited.secret) })));
      expect(before.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      const resetsBefore = before.map((r) => r.headers.get('x-ratelimit-reset'));

      // Requests run one after another on two keys, before, during and after the failover.
      const answers: { key: string; at: number; answer: Answer }[] = [];
      let running = true;
      const load = Promise.all(
        [loaded, onAnother].map(async (key) => {
          while (running) {
            answers.push({ key: key.id, at: Date.now(), answer: await get(key.secret) });
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }),
      );
      await eventually(() => answers.length > 20);
      const dead = await redis().killMasterOf(banRecordOf(loaded.id));
      let promotedAt = Infinity;
      try {
        await redis().failedOver(dead);
        promotedAt = Date.now();
        // Without a restart: the server finds the new master by itself.
        await eventually(() => answers.filter(({ at }) => at > promotedAt + SERVED_AGAIN_WITHIN_MS).length >= 20, { timeoutMs: 15_000 });
      } finally {
        running = false;
        await load;
      }

      // Meanwhile 200, or 503 service_unavailable with Retry-After; then only 200.
      for (const { answer } of answers.filter(({ answer }) => answer.status !== 200)) {
        expect(answer).toEqual({ status: 503, code: 'service_unavailable', retryAfter: '5' });
      }
      const after = answers.filter(({ at }) => at > promotedAt + SERVED_AGAIN_WITHIN_MS).map(({ answer }) => answer.status);
      expect(after).toEqual(after.map(() => 200));

      // Nobody banned, nobody charged for a 503 but for the request in flight when the master died (one per key: each
      // key's requests run one after another): its count can reach the replica while its reply dies with the master.
      for (const key of [loaded, onAnother]) {
        const { windows, bannedUntil } = await usage(key.secret);
        expect(bannedUntil).toBeNull();
        const admitted = answers.filter((a) => a.key === key.id && a.answer.status === 200).length;
        expect(windows[1]!.used).toBeLessThanOrEqual(admitted + 1);
      }
      // Exact limits again on the promoted replica: 20 a minute, the ones before the failover included in their minute.
      const window = await burstUntilLimited(() =>
        Array.from({ length: 10 }, () => fetch(`${server.url}/pets?limit=1`, { headers: auth(limited.secret) })),
      );
      const sameMinute = resetsBefore.filter((reset) => reset === window[0]!.reset).length;
      expect(window.filter((answer) => answer.status === 200)).toHaveLength(20 - sameMinute);
    }, 90_000);
  });
}
