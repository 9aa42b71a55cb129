import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { Pet } from '../../pet/Pet.js';
import type { IdempotencyStore } from '../../ports/IdempotencyStore.js';
import { openHarness, type Closable } from './harness.js';

export type IdempotencyStoreHarness = { store: IdempotencyStore } & Closable;

const T0 = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
const rex: Pet = { id: 7, name: 'Rex "🐶"', categoryId: 9007199254740991, status: 'pending', version: 3 };

/** Runs the behaviour every IdempotencyStore must have; each test uses keys of its own. */
export function describeIdempotencyStoreContract(name: string, open: () => Promise<IdempotencyStoreHarness>): void {
  describe(`${name} satisfies the IdempotencyStore contract`, () => {
    const harness = openHarness(open, 'all');

    const claim = (key: string, fingerprint = 'f1', now = T0, scope = 'key_a') =>
      harness().store.claim({ scope, key, fingerprint, now, expiresAt: now + DAY, staleAfter: now - 60_000 });

    it('claims a new key once; a duplicate is in progress until completed, then gets the stored pet', async () => {
      const key = randomUUID();
      expect(await claim(key)).toEqual({ state: 'claimed' });
      expect(await claim(key, 'f1', T0 + 5)).toEqual({ state: 'in_progress' });
      await harness().store.complete('key_a', key, rex);
      expect(await claim(key, 'f1', T0 + 10)).toEqual({ state: 'completed', pet: rex });
    });

    it('refuses the same key with another fingerprint, in progress or completed', async () => {
      const key = randomUUID();
      await claim(key);
      expect(await claim(key, 'f2')).toEqual({ state: 'mismatch' });
      await harness().store.complete('key_a', key, rex);
      expect(await claim(key, 'f2')).toEqual({ state: 'mismatch' });
    });

    it('forgets a released claim', async () => {
      const key = randomUUID();
      await claim(key);
      await harness().store.release('key_a', key);
      expect(await claim(key, 'f2')).toEqual({ state: 'claimed' });
    });

    it('keeps the keys of different scopes apart', async () => {
      const key = randomUUID();
      await claim(key, 'f1', T0, 'key_a');
      expect(await claim(key, 'f2', T0, 'key_b')).toEqual({ state: 'claimed' });
    });

    it('treats an expired key as new, and lets a stale in-flight claim be taken over', async () => {
      const done = randomUUID();
      await claim(done);
      await harness().store.complete('key_a', done, rex);
      expect(await claim(done, 'f2', T0 + DAY)).toEqual({ state: 'claimed' });
      const crashed = randomUUID();
      await claim(crashed);
      expect(await claim(crashed, 'f1', T0 + 59_000)).toEqual({ state: 'in_progress' });
      expect(await claim(crashed, 'f1', T0 + 61_000)).toEqual({ state: 'claimed' });
    });

    it('purges expired keys', async () => {
      const key = randomUUID();
      await harness().store.claim({ scope: 'purge', key, fingerprint: 'f', now: T0 - 2 * DAY, expiresAt: T0 - DAY, staleAfter: 0 });
      expect(await harness().store.purgeExpired(T0)).toBeGreaterThanOrEqual(1);
      expect(await harness().store.purgeExpired(T0)).toBe(0);
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const key = randomUUID();
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => claim(key)));
      expect(outcomes.filter((o) => o.state === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(49);
    });

    it('lets exactly one of many concurrent claims take over an expired key', async () => {
      const key = randomUUID();
      await claim(key);
      await harness().store.complete('key_a', key, rex);
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => claim(key, 'f2', T0 + DAY)));
      expect(outcomes.filter((o) => o.state === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(49);
    });
  });
}
