import { describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from './InMemoryRateLimitStore.js';

const ban = { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 };
const minute = (now: number) => [{ name: 'minute' as const, start: now - (now % 60_000), resetAt: now - (now % 60_000) + 60_000, limit: 5 }];

describe('InMemoryRateLimitStore', () => {
  it('tracks at most maxAddresses addresses whatever clients send: a new address beyond the bound waits for the window, fail closed', async () => {
    const store = new InMemoryRateLimitStore({ maxAddresses: 100 });
    const now = Date.parse('2026-06-01T12:00:10Z');
    for (let i = 0; i < 100; i++)
      expect((await store.consume({ subject: `address:10.0.0.${i}`, now, windows: minute(now), ban })).outcome).toBe('admitted');
    const overflow = await store.consume({ subject: 'address:203.0.113.1', now, windows: minute(now), ban });
    expect(overflow).toEqual({ outcome: 'rejected', counts: [5], retryAt: Date.parse('2026-06-01T12:01:00Z') });
    // Known addresses are still counted exactly.
    expect(await store.consume({ subject: 'address:10.0.0.1', now, windows: minute(now), ban })).toEqual({ outcome: 'admitted', counts: [2] });
    expect(store.addressCount()).toBe(100);
    // Once the window is over, expired addresses make room again.
    const later = Date.parse('2026-06-01T12:01:05Z');
    expect((await store.consume({ subject: 'address:203.0.113.1', now: later, windows: minute(later), ban })).outcome).toBe('admitted');
    expect(store.addressCount()).toBe(1);
  });

  it('never refuses a key for want of room: 100,000 addresses in a minute leave every key its own quota', async () => {
    const store = new InMemoryRateLimitStore();
    const now = Date.parse('2026-06-01T12:00:10Z');
    for (let i = 0; i < 100_000; i++)
      await store.consume({ subject: `address:127.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, now, windows: minute(now), ban });
    expect((await store.consume({ subject: 'address:203.0.113.1', now, windows: minute(now), ban })).outcome).toBe('rejected');
    for (let i = 0; i < 1_000; i++) {
      expect(await store.consume({ subject: `key:key_${i}`, now, windows: minute(now), ban })).toEqual({ outcome: 'admitted', counts: [1] });
    }
    expect(await store.consume({ subject: 'usage:key:key_0', now, windows: minute(now), ban })).toEqual({ outcome: 'admitted', counts: [1] });
    expect(store.addressCount()).toBe(100_000);
  });

  it('bounds memory under a flood of 200,000 distinct addresses', async () => {
    const store = new InMemoryRateLimitStore();
    const now = Date.parse('2026-06-01T12:00:10Z');
    for (let i = 0; i < 200_000; i++) await store.consume({ subject: `address:${i}`, now, windows: minute(now), ban });
    expect(store.addressCount()).toBeLessThanOrEqual(100_000);
  });

  it('counts each window apart even when the clock steps back into the previous one', async () => {
    const store = new InMemoryRateLimitStore();
    const next = Date.parse('2026-06-01T12:01:00Z');
    const before = next - 100;
    expect(await store.consume({ subject: 'key:a', now: next, windows: minute(next), ban })).toEqual({ outcome: 'admitted', counts: [1] });
    expect(await store.consume({ subject: 'key:a', now: before, windows: minute(before), ban })).toEqual({ outcome: 'admitted', counts: [1] });
    expect(await store.consume({ subject: 'key:a', now: next + 1, windows: minute(next + 1), ban })).toEqual({ outcome: 'admitted', counts: [2] });
    expect(await store.read({ subject: 'key:a', now: before + 1, windows: minute(before + 1) })).toEqual({ counts: [1], bannedUntil: null });
  });
});
