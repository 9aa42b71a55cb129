import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeRateLimitStoreContract } from '@petstore/core/contracts';
import { eventually } from '@petstore/test-support';
import { describeWithRedis } from '@petstore/test-support/jest';
import type { Redis } from 'ioredis';
import { createRedisClient, whenReady } from './createRedisClient.js';
import { RedisRateLimitStore } from './RedisRateLimitStore.js';

describeWithRedis('on Redis', (redis) => {
  let client: Redis;

  beforeAll(async () => {
    client = createRedisClient(redis().url);
    expect(await whenReady(client)).toBe(true);
  }, 30_000);
  afterAll(() => client?.disconnect());

  describeRateLimitStoreContract('RedisRateLimitStore', async () => ({ store: new RedisRateLimitStore(client) }));

  describe('RedisRateLimitStore', () => {
    it('lets its keys expire with their window: nothing is kept forever', async () => {
      const store = new RedisRateLimitStore(client, 'ttl-check');
      const now = Date.now();
      await store.consume({ subject: 'key:ttl', now, windows: [{ name: 'minute', start: now - 1000, resetAt: now + 59_000, limit: 1 }], ban: { strikes: 10, durationSeconds: 900 } });
      await store.consume({ subject: 'key:ttl', now, windows: [{ name: 'minute', start: now - 1000, resetAt: now + 59_000, limit: 1 }], ban: { strikes: 10, durationSeconds: 900 } });
      const keys = await client.keys('ttl-check:*');
      expect(keys.sort()).toEqual([`ttl-check:{key:ttl}:ban`, `ttl-check:{key:ttl}:minute:${now - 1000}`]);
      for (const key of keys) {
        const ttl = await client.pttl(key);
        expect(ttl).toBeGreaterThan(55_000);
        expect(ttl).toBeLessThanOrEqual(60_000);
      }
    });

    it('fails closed with service_unavailable while Redis is down, and recovers by itself', async () => {
      const store = new RedisRateLimitStore(client);
      const consume = () =>
        store.consume({ subject: `key:outage-${Date.now()}`, now: Date.now(), windows: [{ name: 'minute', start: 0, resetAt: Date.now() + 60_000, limit: 5 }], ban: { strikes: 10, durationSeconds: 900 } });
      expect((await consume()).outcome).toBe('admitted');
      await redis().pause();
      const started = Date.now();
      await expect(consume()).rejects.toMatchObject({ code: 'service_unavailable', retryAfter: 5 });
      await expect(store.ping()).rejects.toMatchObject({ code: 'service_unavailable' });
      expect(Date.now() - started).toBeLessThan(3_000);
      await redis().start();
      expect(await eventually(async () => (await consume()).outcome)).toBe('admitted');
      await store.ping();
    }, 30_000);
  });
});
