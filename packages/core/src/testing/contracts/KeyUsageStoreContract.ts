import { beforeEach, describe, expect, it } from '@jest/globals';
import type { KeyUsageStore } from '../../ports/KeyUsageStore.js';
import { openHarness, type Closable } from './harness.js';

export type KeyUsageStoreHarness = { store: KeyUsageStore } & Closable;

const KEY = 'key_00000000000000aa';
const OTHER = 'key_00000000000000bb';
const at = (iso: string) => new Date(iso);

/** Runs the behaviour every KeyUsageStore must have against `open()`, which returns an empty store. */
export function describeKeyUsageStoreContract(name: string, open: () => Promise<KeyUsageStoreHarness>): void {
  describe(`${name} satisfies the KeyUsageStore contract`, () => {
    const harness = openHarness(open, 'each');
    let store: KeyUsageStore;
    beforeEach(() => {
      store = harness().store;
    });

    it('reads nothing for a key never used', async () => {
      expect(await store.dailyUsage(KEY, '2026-01-01', '2026-12-31')).toEqual([]);
      expect(await store.lastUsedAt([KEY])).toEqual(new Map());
    });

    it('adds up the increments of several flushes (several instances) per key and day, admitted and limited apart', async () => {
      await store.add([
        { keyId: KEY, day: '2026-06-01', requests: 3, limited: 4, lastUsedAt: at('2026-06-01T10:00:00Z') },
        { keyId: OTHER, day: '2026-06-01', requests: 7, limited: 9_007_199_254, lastUsedAt: at('2026-06-01T11:00:00Z') },
      ]);
      await store.add([
        { keyId: KEY, day: '2026-06-01', requests: 2, limited: 2, lastUsedAt: at('2026-06-01T10:00:30Z') },
        { keyId: KEY, day: '2026-06-02', requests: 0, limited: 1, lastUsedAt: at('2026-06-02T00:00:01Z') },
      ]);
      expect(await store.dailyUsage(KEY, '2026-05-01', '2026-06-30')).toEqual([
        { day: '2026-06-01', requests: 5, limited: 6 },
        { day: '2026-06-02', requests: 0, limited: 1 },
      ]);
      expect(await store.dailyUsage(OTHER, '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 7, limited: 9_007_199_254 }]);
      // What a restarted in-process rate limit starts the day from: the requests admitted.
      expect(await store.requestsOn('2026-06-02')).toEqual(new Map([[KEY, 0]]));
    });

    it("reads every key's count for one day", async () => {
      expect(await store.requestsOn('2026-06-01')).toEqual(new Map());
      await store.add([
        { keyId: KEY, day: '2026-06-01', requests: 3, limited: 0, lastUsedAt: at('2026-06-01T10:00:00Z') },
        { keyId: OTHER, day: '2026-06-01', requests: 9_007_199_254, limited: 0, lastUsedAt: at('2026-06-01T11:00:00Z') },
        { keyId: OTHER, day: '2026-06-02', requests: 4, limited: 0, lastUsedAt: at('2026-06-02T11:00:00Z') },
      ]);
      await store.add([{ keyId: KEY, day: '2026-06-01', requests: 2, limited: 0, lastUsedAt: at('2026-06-01T10:00:30Z') }]);
      expect(await store.requestsOn('2026-06-01')).toEqual(
        new Map([
          [KEY, 5],
          [OTHER, 9_007_199_254],
        ]),
      );
      expect(await store.requestsOn('2026-06-03')).toEqual(new Map());
    });

    it('reads only the days in the range, both ends included', async () => {
      const days = ['2026-05-31', '2026-06-01', '2026-06-02', '2026-06-03'];
      await store.add(days.map((day, i) => ({ keyId: KEY, day, requests: i + 1, limited: 0, lastUsedAt: at(`${day}T12:00:00Z`) })));
      expect(await store.dailyUsage(KEY, '2026-06-01', '2026-06-02')).toEqual([
        { day: '2026-06-01', requests: 2, limited: 0 },
        { day: '2026-06-02', requests: 3, limited: 0 },
      ]);
    });

    it('moves a last use only forward, whatever order the increments arrive in', async () => {
      await store.add([{ keyId: KEY, day: '2026-06-01', requests: 1, limited: 0, lastUsedAt: at('2026-06-01T10:00:00.250Z') }]);
      await store.add([{ keyId: KEY, day: '2026-06-01', requests: 1, limited: 0, lastUsedAt: at('2026-06-01T09:00:00Z') }]);
      await store.add([{ keyId: OTHER, day: '2026-06-01', requests: 0, limited: 0, lastUsedAt: at('2026-06-01T08:00:00Z') }]);
      expect(await store.lastUsedAt([KEY, OTHER, 'key_unknown'])).toEqual(
        new Map([
          [KEY, at('2026-06-01T10:00:00.250Z')],
          [OTHER, at('2026-06-01T08:00:00Z')],
        ]),
      );
      expect(await store.lastUsedAt([])).toEqual(new Map());
    });

    it('accepts an empty batch', async () => {
      await store.add([]);
      expect(await store.lastUsedAt([KEY])).toEqual(new Map());
    });

    it('purges the days before a day, keeping that day, later ones and every last use', async () => {
      await store.add([
        { keyId: KEY, day: '2026-03-01', requests: 1, limited: 0, lastUsedAt: at('2026-03-01T00:00:00Z') },
        { keyId: KEY, day: '2026-03-02', requests: 2, limited: 0, lastUsedAt: at('2026-03-02T00:00:00Z') },
        { keyId: OTHER, day: '2026-02-01', requests: 3, limited: 0, lastUsedAt: at('2026-02-01T00:00:00Z') },
      ]);
      expect(await store.purgeBefore('2026-03-02')).toBe(2);
      expect(await store.dailyUsage(KEY, '2026-01-01', '2026-12-31')).toEqual([{ day: '2026-03-02', requests: 2, limited: 0 }]);
      expect(await store.dailyUsage(OTHER, '2026-01-01', '2026-12-31')).toEqual([]);
      expect((await store.lastUsedAt([OTHER])).get(OTHER)).toEqual(at('2026-02-01T00:00:00Z'));
      expect(await store.purgeBefore('2026-03-02')).toBe(0);
    });
  });
}
