import { beforeEach, describe, expect, it } from '@jest/globals';
import { hashApiKeySecret } from '../../access/ApiKeySecret.js';
import type { KeyStore } from '../../ports/KeyStore.js';
import { openHarness, type Closable } from './harness.js';
import { anApiKey } from '../builders.js';

export type KeyStoreHarness = { store: KeyStore } & Closable;

/** Runs the behaviour every KeyStore must have against `open()`, which returns an empty store. */
export function describeKeyStoreContract(name: string, open: () => Promise<KeyStoreHarness>): void {
  describe(`${name} satisfies the KeyStore contract`, () => {
    const harness = openHarness(open, 'each');
    let store: KeyStore;
    beforeEach(() => {
      store = harness().store;
    });

    it('finds a created key by the hash of its secret and by its id', async () => {
      const key = anApiKey({ name: 'Shelter "North"', plan: 'pro', createdAt: new Date('2026-03-04T05:06:07.089Z') });
      await store.create(key, hashApiKeySecret('secret-1'));
      expect(await store.findByHash(hashApiKeySecret('secret-1'))).toEqual(key);
      expect(await store.findById(key.id)).toEqual(key);
    });

    it('keeps the custom limits of an enterprise key', async () => {
      const key = anApiKey({ plan: 'enterprise', customLimits: { perMinute: 5_000, perDay: 2_000_000 } });
      await store.create(key, hashApiKeySecret('secret-e'));
      expect(await store.findById(key.id)).toEqual(key);
    });

    it('answers null for an unknown hash or id', async () => {
      await store.create(anApiKey(), hashApiKeySecret('known'));
      expect(await store.findByHash(hashApiKeySecret('unknown'))).toBeNull();
      expect(await store.findById('key_unknown')).toBeNull();
      expect(await store.revoke('key_unknown', new Date())).toBeNull();
      expect(await store.replaceSecretHash('key_unknown', hashApiKeySecret('x'))).toBeNull();
    });

    it('lists keys oldest first', async () => {
      const newer = anApiKey({ createdAt: new Date('2026-02-01T00:00:00Z') });
      const older = anApiKey({ createdAt: new Date('2026-01-01T00:00:00Z') });
      await store.create(newer, hashApiKeySecret('newer'));
      await store.create(older, hashApiKeySecret('older'));
      expect(await store.list()).toEqual([older, newer]);
    });

    it('revokes a key once: the first revocation time is kept', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('to-revoke'));
      const first = new Date('2026-05-01T10:00:00Z');
      expect(await store.revoke(key.id, first)).toEqual({ ...key, revokedAt: first });
      expect(await store.revoke(key.id, new Date('2026-06-01T10:00:00Z'))).toEqual({ ...key, revokedAt: first });
      expect(await store.findByHash(hashApiKeySecret('to-revoke'))).toEqual({ ...key, revokedAt: first });
    });

    it('replaces the secret hash: the old secret no longer finds the key', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('old'));
      expect(await store.replaceSecretHash(key.id, hashApiKeySecret('new'))).toEqual(key);
      expect(await store.findByHash(hashApiKeySecret('old'))).toBeNull();
      expect(await store.findByHash(hashApiKeySecret('new'))).toEqual(key);
    });
  });
}
