import { describe, expect, it, jest } from '@jest/globals';
import type { Redis } from 'ioredis';
import { describeRateLimitStoreContract } from '@petstore/core/contracts';
import { eventually } from '@petstore/test-support';
import { clientForSuite, describeWithEachRedisTopology, describeWithRedis, describeWithRedisSentinel } from '@petstore/test-support/jest';
import { closeRedisClient, createRedisClient, whenReady } from './createRedisClient.js';
import { RedisRateLimitStore } from './RedisRateLimitStore.js';

// Every script and command names one subject's keys (one hash slot): the contract holds on each topology.
describeWithEachRedisTopology('the RateLimitStore contract', (redis) => {
  const client = clientForSuite({ open: () => createRedisClient(redis().topology), ready: (c) => whenReady(c, 10_000), close: closeRedisClient });

  describeRateLimitStoreContract('RedisRateLimitStore', async () => ({ store: new RedisRateLimitStore(client()) }));
});

describeWithRedisSentinel('a Sentinel client', (redis) => {
  // The client asks the first Sentinel first: hung, it holds the client's question while the others promote the
  // replica and announce +switch-master, which ioredis' failover detector answers by closing the client under it.
  it('reaches the promoted replica by itself when the Sentinel it asks first hangs through the failover', async () => {
    const client = createRedisClient(redis().topology);
    try {
      expect(await whenReady(client, 10_000)).toBe(true);
      const resume = redis().hangFirstSentinel();
      try {
        const dead = await redis().killMasterOf('any');
        await redis().failedOver(dead);
        await eventually(async () => (await client.set('petstore:test:after-failover', '1').catch(() => null)) === 'OK', { timeoutMs: 15_000 });
      } finally {
        resume();
      }
    } finally {
      await closeRedisClient(client);
    }
  }, 60_000);
});

describeWithRedis('on Redis', (redis) => {
  const client = clientForSuite({ open: () => createRedisClient(redis().url), ready: whenReady, close: closeRedisClient });

  describe('RedisRateLimitStore', () => {
    it('lets its keys expire with their window: nothing is kept forever', async () => {
      const store = new RedisRateLimitStore(client(), 'ttl-check');
      const now = Date.now();
      await store.consume({
        subject: 'key:ttl',
        now,
        windows: [{ name: 'minute', start: now - 1000, resetAt: now + 59_000, limit: 1 }],
        ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 },
      });
      await store.consume({
        subject: 'key:ttl',
        now,
        windows: [{ name: 'minute', start: now - 1000, resetAt: now + 59_000, limit: 1 }],
        ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 },
      });
      const keys = await client().keys('ttl-check:*');
      expect(keys.sort()).toEqual([`ttl-check:{key:ttl}:ban`, `ttl-check:{key:ttl}:minute:${now - 1000}`]);
      for (const key of keys) {
        const ttl = await client().pttl(key);
        expect(ttl).toBeGreaterThan(55_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
    });

    it('sends the scripts of the requests of one turn of the event loop in one write, each with its own answer', async () => {
      const store = new RedisRateLimitStore(client(), 'turn-check');
      const now = Date.now();
      const consume = (subject: string, limit: number) =>
        store.consume({
          subject,
          now,
          windows: [{ name: 'minute', start: now - 1000, resetAt: now + 59_000, limit }],
          ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 },
        });
      await consume('key:warm', 1);
      const socket = (client() as Redis).stream;
      const write = jest.spyOn(socket, 'write');
      try {
        const answers = await Promise.all([...Array.from({ length: 8 }, () => consume('key:a', 5)), consume('key:b', 1), consume('key:b', 1)]);
        expect(answers.map(({ outcome, counts }) => `${outcome} ${counts.join()}`)).toEqual([
          'admitted 1',
          'admitted 2',
          'admitted 3',
          'admitted 4',
          'admitted 5',
          'rejected 5',
          'rejected 5',
          'rejected 5',
          'admitted 1',
          'rejected 1',
        ]);
        expect(write).toHaveBeenCalledTimes(1);
      } finally {
        write.mockRestore();
      }
    });

    it('fails closed with service_unavailable while Redis is down, and recovers by itself', async () => {
      const store = new RedisRateLimitStore(client());
      const consume = () =>
        store.consume({
          subject: `key:outage-${Date.now()}`,
          now: Date.now(),
          windows: [{ name: 'minute', start: 0, resetAt: Date.now() + 60_000, limit: 5 }],
          ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 },
        });
      expect((await consume()).outcome).toBe('admitted');
      await redis().pause();
      const started = Date.now();
      await expect(consume()).rejects.toMatchObject({ code: 'service_unavailable', retryAfter: 5 });
      await expect(store.ping()).rejects.toMatchObject({ code: 'service_unavailable' });
      await expect(store.unban('key:outage')).rejects.toMatchObject({ code: 'service_unavailable' });
      // Fails fast (the command deadline) instead of queueing until Redis returns.
      expect(Date.now() - started).toBeLessThan(10_000);
      await redis().start();
      expect(await eventually(async () => (await consume()).outcome)).toBe('admitted');
      await store.ping();
    }, 30_000);

    it('refuses, on its own clock, a script that reaches it after its deadline: a stall spends no quota and bans nobody', async () => {
      const unavailable: unknown[] = [];
      const store = new RedisRateLimitStore(client(), 'stall-check', (cause) => unavailable.push(cause));
      const subject = `key:stall-${Date.now()}`;
      const request = () => {
        const now = Date.now();
        return store.consume({
          subject,
          now,
          windows: [{ name: 'day', start: 0, resetAt: now + 3_600_000, limit: 3 }],
          ban: { strikes: 2, durationSeconds: 900, strikeIntervalSeconds: 0 },
        });
      };
      expect((await request()).counts).toEqual([1]);
      redis().freeze();
      let stalled: PromiseSettledResult<unknown>[];
      try {
        // Enough to use up the quota and earn a ban, if they were executed late.
        stalled = await Promise.allSettled(Array.from({ length: 6 }, request));
      } finally {
        redis().thaw();
      }
      expect(stalled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'settled'))).toEqual(
        Array(6).fill('service_unavailable'),
      );
      // Each failure is reported with its cause (the server logs it: a stall raises no connection error).
      expect(unavailable).toHaveLength(6);
      expect(unavailable.every((cause) => cause instanceof Error)).toBe(true);
      // As if the stalled requests had never been made: two left of three, no strike, no ban.
      expect(await request()).toEqual({ outcome: 'admitted', counts: [2] });
      expect(await client().hgetall(`stall-check:{${subject}}:ban`)).toEqual({});
    }, 30_000);
  });
});
