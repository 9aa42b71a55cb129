import { describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from './InMemoryRateLimitStore.js';

const ban = { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 0 };
const minute = (now: number) => [{ name: 'minute' as const, start: now - (now % 60_000), resetAt: now - (now % 60_000) + 60_000, limit: 5 }];

describe('InMemoryRateLimitStore', () => {
  it('tracks at most maxSubjects subjects whatever clients send: a new subject beyond the bound waits for the window, fail closed', async () => {
    const store = new InMemoryRateLimitStore({ maxSubjects: 100 });
    const now = Date.parse('2026-06-01T12:00:10Z');
    for (let i = 0; i < 100; i++)
      expect((await store.consume({ subject: `address:10.0.0.${i}`, now, windows: minute(now), ban })).outcome).toBe('admitted');
    const overflow = await store.consume({ subject: 'address:203.0.113.1', now, windows: minute(now), ban });
    expect(overflow).toEqual({ outcome: 'rejected', counts: [5], retryAt: Date.parse('2026-06-01T12:01:00Z') });
    // Known subjects are still counted exactly.
    expect(await store.consume({ subject: 'address:10.0.0.1', now, windows: minute(now), ban })).toEqual({ outcome: 'admitted', counts: [2] });
    expect(store.size()).toBe(100);
    // Once the window is over, expired subjects make room again.
    const later = Date.parse('2026-06-01T12:01:05Z');
    expect((await store.consume({ subject: 'address:203.0.113.1', now: later, windows: minute(later), ban })).outcome).toBe('admitted');
    expect(store.size()).toBe(1);
  });

  it('bounds memory under a flood of 200,000 distinct subjects', async () => {
    const store = new InMemoryRateLimitStore();
    const now = Date.parse('2026-06-01T12:00:10Z');
    for (let i = 0; i < 200_000; i++) await store.consume({ subject: `address:${i}`, now, windows: minute(now), ban });
    expect(store.size()).toBeLessThanOrEqual(100_000);
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
