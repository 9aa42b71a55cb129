import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { EnforceRateLimit } from './EnforceRateLimit.js';

const FREE = { minute: 60, day: 1000 };
const unix = (iso: string) => Date.parse(iso) / 1000;

describe('EnforceRateLimit', () => {
  let clock: FakeClock;
  let enforce: EnforceRateLimit;

  beforeEach(() => {
    clock = new FakeClock('2026-06-01T12:00:30Z');
    enforce = new EnforceRateLimit(new InMemoryRateLimitStore(), clock);
  });

  it('reports the binding window: the minute while it has fewer requests left', async () => {
    expect(await enforce.execute('key:a', FREE)).toEqual({
      limit: 60,
      remaining: 59,
      reset: unix('2026-06-01T12:01:00Z'),
      windows: [
        { name: 'minute', limit: 60, remaining: 59, reset: unix('2026-06-01T12:01:00Z') },
        { name: 'day', limit: 1000, remaining: 999, reset: unix('2026-06-02T00:00:00Z') },
      ],
    });
  });

  it('admits 60 requests in a minute and rejects the 61st with Retry-After to the next whole minute', async () => {
    for (let i = 0; i < 60; i++) await enforce.execute('key:a', FREE);
    clock.set('2026-06-01T12:00:40.200Z');
    await expect(enforce.execute('key:a', FREE)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfter: 20, // 19.8 s rounded up to whole seconds
      state: { limit: 60, remaining: 0, reset: unix('2026-06-01T12:01:00Z') },
    });
  });

  it('resets the minute window exactly at the next whole minute, not 60 s after the first request', async () => {
    for (let i = 0; i < 60; i++) await enforce.execute('key:a', FREE);
    clock.set('2026-06-01T12:00:59.999Z');
    await expect(enforce.execute('key:a', FREE)).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 1 });
    clock.set('2026-06-01T12:01:00Z');
    await expect(enforce.execute('key:a', FREE)).resolves.toMatchObject({ remaining: 59 });
  });

  it('counts every request in the day window and rolls it over at 00:00 UTC', async () => {
    const small = { minute: 5, day: 7 };
    clock.set('2026-06-01T23:58:10Z');
    for (let i = 0; i < 5; i++) await enforce.execute('key:d', small);
    clock.set('2026-06-01T23:59:10Z');
    await enforce.execute('key:d', small);
    const last = await enforce.execute('key:d', small);
    expect(last).toMatchObject({ limit: 7, remaining: 0, reset: unix('2026-06-02T00:00:00Z') });
    await expect(enforce.execute('key:d', small)).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 50 });
    clock.set('2026-06-02T00:00:00Z');
    expect(await enforce.execute('key:d', small)).toMatchObject({ limit: 5, remaining: 4 });
  });

  it('on a tie of remaining requests, reports the window that resets later', async () => {
    const tie = { minute: 10, day: 10 };
    expect(await enforce.execute('key:t', tie)).toMatchObject({ limit: 10, remaining: 9, reset: unix('2026-06-02T00:00:00Z') });
  });

  it('does not consume quota with a rejected request', async () => {
    const small = { minute: 1, day: 3 };
    await enforce.execute('key:r', small);
    for (let i = 0; i < 5; i++) await expect(enforce.execute('key:r', small)).rejects.toMatchObject({ code: 'rate_limited' });
    clock.set('2026-06-01T12:01:00Z');
    expect(await enforce.execute('key:r', small)).toMatchObject({ windows: [expect.anything(), expect.objectContaining({ remaining: 1 })] });
  });

  it('limits an address on the minute window alone', async () => {
    expect(await enforce.execute('address:127.0.0.1', { minute: 60 })).toEqual({
      limit: 60,
      remaining: 59,
      reset: unix('2026-06-01T12:01:00Z'),
      windows: [{ name: 'minute', limit: 60, remaining: 59, reset: unix('2026-06-01T12:01:00Z') }],
    });
  });

  describe('bans', () => {
    async function exhaust(): Promise<void> {
      for (let i = 0; i < 60; i++) await enforce.execute('key:b', FREE);
      await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({ code: 'rate_limited' });
    }

    it('bans for 15 minutes at the 10th further request a second apart before Retry-After has passed', async () => {
      await exhaust();
      for (let i = 0; i < 20; i++) await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({ code: 'rate_limited' });
      for (let i = 0; i < 9; i++) {
        clock.advance(1_000);
        await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({ code: 'rate_limited' });
      }
      clock.advance(1_000);
      await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({
        code: 'key_banned',
        retryAfter: 900,
        state: { remaining: 0, reset: unix('2026-06-01T12:15:40Z') },
      });
      clock.set('2026-06-01T12:10:00Z');
      await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({ code: 'key_banned', retryAfter: 340 });
      clock.set('2026-06-01T12:15:40Z');
      await expect(enforce.execute('key:b', FREE)).resolves.toMatchObject({ remaining: 59 });
    });

    it('does not ban a client that waits for Retry-After', async () => {
      await exhaust();
      for (let i = 0; i < 9; i++) await expect(enforce.execute('key:b', FREE)).rejects.toMatchObject({ code: 'rate_limited' });
      clock.set('2026-06-01T12:01:00Z');
      await expect(enforce.execute('key:b', FREE)).resolves.toMatchObject({ remaining: 59 });
    });

    it('takes the strike count and duration from its rule', async () => {
      enforce = new EnforceRateLimit(new InMemoryRateLimitStore(), clock, { strikes: 2, durationSeconds: 60, strikeIntervalSeconds: 0 });
      await enforce.execute('key:q', { minute: 1 });
      await expect(enforce.execute('key:q', { minute: 1 })).rejects.toMatchObject({ code: 'rate_limited' });
      await expect(enforce.execute('key:q', { minute: 1 })).rejects.toMatchObject({ code: 'rate_limited' });
      await expect(enforce.execute('key:q', { minute: 1 })).rejects.toMatchObject({ code: 'key_banned', retryAfter: 60 });
    });
  });
});
