import { describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { EnforceRateLimit } from './EnforceRateLimit.js';
import { RefundRequest } from './RefundRequest.js';

describe('RefundRequest', () => {
  const clock = new FakeClock('2026-06-01T12:00:30Z');

  it('gives one count back in each window the request was counted in', async () => {
    const store = new InMemoryRateLimitStore();
    const enforce = new EnforceRateLimit(store, clock);
    await enforce.execute('key:a', { minute: 10, day: 100 });
    const counted = await enforce.execute('key:a', { minute: 10, day: 100 });
    await new RefundRequest(store, clock).execute('key:a', counted);
    expect(await enforce.execute('key:a', { minute: 10, day: 100 })).toMatchObject({ windows: [{ remaining: 8 }, { remaining: 98 }] });
  });

  it('answers the state the headers should show: the count given back in every window, never above the limit', async () => {
    const store = new InMemoryRateLimitStore();
    const enforce = new EnforceRateLimit(store, clock);
    await enforce.execute('key:b', { minute: 10, day: 100 });
    const counted = await enforce.execute('key:b', { minute: 10, day: 100 });
    expect(counted).toMatchObject({ limit: 10, remaining: 8 });
    expect(await new RefundRequest(store, clock).execute('key:b', counted)).toEqual({
      limit: 10,
      remaining: 9,
      reset: counted.reset,
      windows: [
        { name: 'minute', limit: 10, remaining: 9, reset: counted.windows[0]!.reset },
        { name: 'day', limit: 100, remaining: 99, reset: counted.windows[1]!.reset },
      ],
    });
    const full = { limit: 10, remaining: 10, reset: 1780315260, windows: [{ name: 'minute' as const, limit: 10, remaining: 10, reset: 1780315260 }] };
    expect(await new RefundRequest(store, clock).execute('key:c', full)).toMatchObject({ remaining: 10, windows: [{ remaining: 10 }] });
  });

  it('keeps the count, without throwing, when the rate-limit store is down too (and answers null)', async () => {
    const down: RateLimitStore = {
      consume: () => Promise.reject(new ServiceUnavailableError('rate-limit store')),
      read: () => Promise.reject(new ServiceUnavailableError('rate-limit store')),
      release: () => Promise.reject(new ServiceUnavailableError('rate-limit store')),
      unban: () => Promise.reject(new ServiceUnavailableError('rate-limit store')),
    };
    const counted = {
      limit: 10,
      remaining: 9,
      reset: 1780315260,
      windows: [{ name: 'minute' as const, limit: 10, remaining: 9, reset: 1780315260 }],
    };
    await expect(new RefundRequest(down, clock).execute('key:a', counted)).resolves.toBeNull();
  });

  it('lets an unexpected error through', async () => {
    const broken: RateLimitStore = {
      consume: () => Promise.reject(new Error('bug')),
      read: () => Promise.reject(new Error('bug')),
      release: () => Promise.reject(new Error('bug')),
      unban: () => Promise.reject(new Error('bug')),
    };
    const counted = {
      limit: 10,
      remaining: 9,
      reset: 1780315260,
      windows: [{ name: 'minute' as const, limit: 10, remaining: 9, reset: 1780315260 }],
    };
    await expect(new RefundRequest(broken, clock).execute('key:a', counted)).rejects.toThrow('bug');
  });
});
