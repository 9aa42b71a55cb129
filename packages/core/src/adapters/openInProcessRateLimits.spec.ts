import { describe, expect, it } from '@jest/globals';
import { countedWindows } from '../access/countedWindows.js';
import type { BanStore } from '../ports/BanStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryBanStore } from '../testing/InMemoryBanStore.js';
import { InMemoryKeyUsageStore } from '../testing/InMemoryKeyUsageStore.js';
import { openInProcessRateLimits } from './openInProcessRateLimits.js';

const ban = { strikes: 1, durationSeconds: 900, strikeIntervalSeconds: 0 };

describe('openInProcessRateLimits', () => {
  const open = async (bans: BanStore = new InMemoryBanStore(), onWriteError: (error: unknown) => void = () => undefined) => {
    const usage = new InMemoryKeyUsageStore();
    await usage.add([
      { keyId: 'key_a', day: '2026-06-01', requests: 4, limited: 0, lastUsedAt: new Date('2026-06-01T11:00:00Z') },
      { keyId: 'key_b', day: '2026-05-31', requests: 4, limited: 0, lastUsedAt: new Date('2026-05-31T11:00:00Z') },
    ]);
    const clock = new FakeClock('2026-06-01T12:00:00Z');
    return { store: await openInProcessRateLimits({ usage, bans, clock, onWriteError }), now: clock.now().getTime() };
  };
  const consume = (store: Awaited<ReturnType<typeof open>>['store'], subject: string, now: number) =>
    store.consume({ subject, now, windows: countedWindows(now, { minute: 100, day: 5 }), ban });

  it("starts each key's day from the requests stored for today, not from those of other days", async () => {
    const { store, now } = await open();
    expect(await consume(store, 'key:key_a', now)).toEqual({ outcome: 'admitted', counts: [1, 5] });
    expect((await consume(store, 'key:key_a', now)).outcome).toBe('rejected');
    expect(await consume(store, 'key:key_b', now)).toEqual({ outcome: 'admitted', counts: [1, 1] });
  });

  it('keeps bans in the ban store as they start and end, and restores those in force', async () => {
    const bans = new InMemoryBanStore();
    const first = await open(bans);
    for (let i = 0; i < 3; i++) await consume(first.store, 'address:203.0.113.9', first.now);
    for (let i = 0; i < 7; i++) await consume(first.store, 'key:key_c', first.now); // 5 admitted, a rejection, a strike
    expect(await bans.inForce(first.now)).toEqual([{ subject: 'key:key_c', bannedUntil: first.now + 900_000 }]);
    const restarted = await open(bans);
    expect(await consume(restarted.store, 'key:key_c', restarted.now)).toEqual({
      outcome: 'banned',
      counts: [0, 0],
      bannedUntil: first.now + 900_000,
    });
    await restarted.store.unban('key:key_c');
    expect(await bans.inForce(first.now)).toEqual([]);
  });

  it('reports a ban it could not write, and bans all the same', async () => {
    const failing: BanStore = {
      ...new InMemoryBanStore(),
      inForce: () => Promise.resolve([]),
      save: () => Promise.reject(new Error('disk full')),
      remove: () => Promise.resolve(),
    };
    const errors: unknown[] = [];
    const { store, now } = await open(failing, (error) => errors.push(error));
    for (let i = 0; i < 6; i++) await consume(store, 'key:key_c', now);
    expect((await consume(store, 'key:key_c', now)).outcome).toBe('banned');
    await Promise.resolve();
    expect(errors).toEqual([new Error('disk full')]);
  });
});
