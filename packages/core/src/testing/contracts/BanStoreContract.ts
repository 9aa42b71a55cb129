import { beforeEach, describe, expect, it } from '@jest/globals';
import type { BanStore, SavedBan } from '../../ports/BanStore.js';
import { openHarness, type Closable } from './harness.js';

export type BanStoreHarness = { store: BanStore } & Closable;

const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const bySubject = (bans: SavedBan[]) => [...bans].sort((a, b) => (a.subject < b.subject ? -1 : 1));

/** Runs the behaviour every BanStore must have against `open()`, which returns an empty store. */
export function describeBanStoreContract(name: string, open: () => Promise<BanStoreHarness>): void {
  describe(`${name} satisfies the BanStore contract`, () => {
    const harness = openHarness(open, 'each');
    let store: BanStore;
    beforeEach(() => {
      store = harness().store;
    });

    it('keeps the bans that end after now, and only those', async () => {
      expect(await store.inForce(T0)).toEqual([]);
      await store.save({ subject: 'key:key_00000000000000aa', bannedUntil: T0 + 900_000 });
      await store.save({ subject: 'address:203.0.113.9', bannedUntil: T0 + 60_000 });
      await store.save({ subject: 'key:key_00000000000000bb', bannedUntil: T0 });
      expect(bySubject(await store.inForce(T0))).toEqual([
        { subject: 'address:203.0.113.9', bannedUntil: T0 + 60_000 },
        { subject: 'key:key_00000000000000aa', bannedUntil: T0 + 900_000 },
      ]);
      expect(await store.inForce(T0 + 60_000)).toEqual([{ subject: 'key:key_00000000000000aa', bannedUntil: T0 + 900_000 }]);
    });

    it('replaces a subject’s earlier ban, and forgets it on remove', async () => {
      await store.save({ subject: 'key:key_00000000000000aa', bannedUntil: T0 + 1_000 });
      await store.save({ subject: 'key:key_00000000000000aa', bannedUntil: T0 + 900_000 });
      expect(await store.inForce(T0)).toEqual([{ subject: 'key:key_00000000000000aa', bannedUntil: T0 + 900_000 }]);
      await store.remove('key:key_00000000000000aa');
      await store.remove('key:never-banned');
      expect(await store.inForce(T0)).toEqual([]);
    });
  });
}
