import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ApiKey } from '../../access/ApiKey.js';
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
    const at = (iso: string) => new Date(iso);

    it('finds a created key by the hash of its secret (as the current one) and by its id', async () => {
      const key = anApiKey({ name: 'Shelter "North"', plan: 'pro', createdAt: at('2026-03-04T05:06:07.089Z') });
      await store.create(key, hashApiKeySecret('secret-1'));
      expect(await store.findByHash(hashApiKeySecret('secret-1'))).toEqual({ key, matched: 'current' });
      expect(await store.findById(key.id)).toEqual(key);
    });

    it('keeps every field: limit overrides, scopes, expiry, disabled, rotation end, revocation', async () => {
      const keys = [
        anApiKey({ plan: 'enterprise', limitOverrides: { perMinute: 5_000, perDay: 2_000_000 } }),
        anApiKey({ plan: 'pro', limitOverrides: { perMinute: null, perDay: 20_000 }, scopes: ['pets:read'] }),
        anApiKey({ plan: 'free', limitOverrides: { perMinute: 10, perDay: null }, scopes: ['pets:write'], disabled: true }),
        anApiKey({
          expiresAt: at('2027-01-02T03:04:05.006Z'),
          previousSecretExpiresAt: at('2026-06-02T00:00:00.001Z'),
          revokedAt: at('2026-06-03T00:00:00Z'),
        }),
      ];
      for (const [i, key] of keys.entries()) await store.create(key, hashApiKeySecret(`secret-${i}`));
      for (const key of keys) expect(await store.findById(key.id)).toEqual(key);
    });

    it('answers null for an unknown hash or id', async () => {
      await store.create(anApiKey(), hashApiKeySecret('known'));
      expect(await store.findByHash(hashApiKeySecret('unknown'))).toBeNull();
      expect(await store.findById('key_unknown')).toBeNull();
      expect(await store.update(anApiKey({ id: 'key_unknown' }), { name: 'x' })).toBeNull();
      expect(await store.revoke('key_unknown', new Date())).toBeNull();
      expect(await store.rotate('key_unknown', { secretHash: hashApiKeySecret('x'), previousSecretExpiresAt: new Date() })).toBeNull();
      expect(await store.findByHash(hashApiKeySecret('x'))).toBeNull();
    });

    it('refuses a second key with the same id', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('first'));
      await expect(store.create({ ...key, name: 'twin' }, hashApiKeySecret('second'))).rejects.toBeDefined();
      expect(await store.findById(key.id)).toEqual(key);
    });

    it('lists keys oldest first (then by id), a page at a time after a position', async () => {
      const sameInstant = at('2026-01-15T00:00:00Z');
      const keys = [
        anApiKey({ id: 'key_00000000000000b2', createdAt: sameInstant }),
        anApiKey({ id: 'key_0000000000000003', createdAt: at('2026-02-01T00:00:00Z') }),
        anApiKey({ id: 'key_00000000000000a1', createdAt: sameInstant }),
        anApiKey({ id: 'key_00000000000000ff', createdAt: at('2026-01-01T00:00:00Z') }),
      ];
      for (const [i, key] of keys.entries()) await store.create(key, hashApiKeySecret(`listed-${i}`));
      const [b2, k3, a1, ff] = keys as [ApiKey, ApiKey, ApiKey, ApiKey];
      expect(await store.list({ after: null, limit: 10 })).toEqual([ff, a1, b2, k3]);
      expect(await store.list({ after: null, limit: 2 })).toEqual([ff, a1]);
      expect(await store.list({ after: { createdAt: a1.createdAt, id: a1.id }, limit: 2 })).toEqual([b2, k3]);
      expect(await store.list({ after: { createdAt: k3.createdAt, id: k3.id }, limit: 2 })).toEqual([]);
      // A position need not be a key's: a deleted or never-seen key still has its place in the order.
      expect(await store.list({ after: { createdAt: sameInstant, id: 'key_00000000000000a5' }, limit: 5 })).toEqual([b2, k3]);
    });

    it('lists only the keys whose name contains a text: ASCII letters in either case, every other character exactly', async () => {
      const names = ['Partner ACME', 'acme-staging', 'Ãcme', 'ACMÉ', 'ac%me', 'ac_me', 'a\\cme', 'other'];
      const keys = names.map((name, i) => anApiKey({ id: `key_000000000000000${i}`, name, createdAt: at(`2026-01-0${i + 1}T00:00:00Z`) }));
      for (const [i, key] of keys.entries()) await store.create(key, hashApiKeySecret(`named-${i}`));
      const named = async (nameContains: string, after: ApiKey | null = null) =>
        (await store.list({ after: after && { createdAt: after.createdAt, id: after.id }, limit: 10, nameContains })).map((key) => key.name);

      expect(await named('acme')).toEqual(['Partner ACME', 'acme-staging']);
      expect(await named('ACM')).toEqual(['Partner ACME', 'acme-staging', 'ACMÉ']);
      expect(await named('cmé')).toEqual([]);
      expect(await named('CMÉ')).toEqual(['ACMÉ']);
      expect(await named('%')).toEqual(['ac%me']);
      expect(await named('a%e')).toEqual([]);
      expect(await named('_')).toEqual(['ac_me']);
      expect(await named('acm_')).toEqual([]);
      expect(await named('\\c')).toEqual(['a\\cme']);
      expect(await named('acme', keys[0])).toEqual(['acme-staging']);
      expect(await store.list({ after: null, limit: 1, nameContains: 'ACME' })).toEqual([keys[0]]);
    });

    it('lists nothing from an empty store', async () => {
      expect(await store.list({ after: null, limit: 5 })).toEqual([]);
    });

    it('updates only the given settings and returns the key as it now is', async () => {
      const key = anApiKey({ plan: 'free' });
      await store.create(key, hashApiKeySecret('to-update'));
      const updated = await store.update(key, {
        name: 'renamed',
        plan: 'enterprise',
        limitOverrides: { perMinute: 100, perDay: 1_000 },
        scopes: ['pets:read'],
        expiresAt: at('2027-01-01T00:00:00Z'),
        disabled: true,
      });
      const expected = {
        ...key,
        name: 'renamed',
        plan: 'enterprise' as const,
        limitOverrides: { perMinute: 100, perDay: 1_000 },
        scopes: ['pets:read' as const],
        expiresAt: at('2027-01-01T00:00:00Z'),
        disabled: true,
      };
      expect(updated).toEqual(expected);
      expect(await store.findByHash(hashApiKeySecret('to-update'))).toEqual({ key: expected, matched: 'current' });
      const cleared = { ...expected, expiresAt: null, disabled: false };
      expect(await store.update(expected, { expiresAt: null, disabled: false })).toEqual(cleared);
      expect(await store.update(cleared, {})).toEqual(cleared);
    });

    it('updates only a key still as read: a stale reading changes nothing and answers null (compare-and-set)', async () => {
      const key = anApiKey({ plan: 'pro', limitOverrides: { perMinute: 100, perDay: 5_000 } });
      await store.create(key, hashApiKeySecret('cas'));
      const renamed = await store.update(key, { name: 'first' });
      expect(renamed).toEqual({ ...key, name: 'first' });
      // Every field counts: a write made from the older reading, whatever it changes, is refused.
      expect(await store.update(key, { plan: 'enterprise' })).toBeNull();
      expect(await store.update(key, { name: 'first' })).toBeNull();
      const stale = [
        { ...renamed!, limitOverrides: { perMinute: null, perDay: 5_000 } },
        { ...renamed!, limitOverrides: { perMinute: 100, perDay: null } },
        { ...renamed!, scopes: ['pets:read' as const] },
        { ...renamed!, expiresAt: at('2027-01-01T00:00:00Z') },
        { ...renamed!, disabled: true },
        { ...renamed!, revokedAt: at('2026-01-01T00:00:00Z') },
        { ...renamed!, previousSecretExpiresAt: at('2026-01-01T00:00:00Z') },
      ];
      for (const reading of stale) expect(await store.update(reading, { name: 'stale' })).toBeNull();
      expect(await store.findById(key.id)).toEqual({ ...key, name: 'first' });
    });

    it('applies exactly one of concurrent updates made from the same reading', async () => {
      const key = anApiKey({ plan: 'pro', limitOverrides: { perMinute: 100, perDay: 5_000 } });
      await store.create(key, hashApiKeySecret('race'));
      const results = await Promise.all([
        store.update(key, { plan: 'enterprise' }),
        store.update(key, { limitOverrides: { perMinute: null, perDay: null } }),
        store.update(key, { name: 'third' }),
        store.update(key, { disabled: true }),
      ]);
      const applied = results.filter((result) => result !== null);
      expect(applied).toHaveLength(1);
      expect(await store.findById(key.id)).toEqual(applied[0]);
    });

    it('refuses an update made from a reading taken before a revocation or a rotation', async () => {
      const revoked = anApiKey();
      await store.create(revoked, hashApiKeySecret('cas-revoked'));
      await store.revoke(revoked.id, at('2026-05-01T00:00:00Z'));
      expect(await store.update(revoked, { disabled: true })).toBeNull();
      const rotated = anApiKey();
      await store.create(rotated, hashApiKeySecret('cas-rotated'));
      await store.rotate(rotated.id, { secretHash: hashApiKeySecret('cas-rotated-2'), previousSecretExpiresAt: at('2026-05-01T00:00:00Z') });
      expect(await store.update(rotated, { name: 'x' })).toBeNull();
      expect((await store.findById(rotated.id))!.name).toBe(rotated.name);
    });

    it('revokes a key once: the first revocation time is kept', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('to-revoke'));
      const first = at('2026-05-01T10:00:00Z');
      expect(await store.revoke(key.id, first)).toEqual({ ...key, revokedAt: first });
      expect(await store.revoke(key.id, at('2026-06-01T10:00:00Z'))).toEqual({ ...key, revokedAt: first });
      expect(await store.findByHash(hashApiKeySecret('to-revoke'))).toEqual({ key: { ...key, revokedAt: first }, matched: 'current' });
    });

    it('rotates: the new secret is current, the old one is found as previous with its end', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('old'));
      const end = at('2026-06-02T12:00:00Z');
      const rotated = { ...key, previousSecretExpiresAt: end };
      expect(await store.rotate(key.id, { secretHash: hashApiKeySecret('new'), previousSecretExpiresAt: end })).toEqual(rotated);
      expect(await store.findByHash(hashApiKeySecret('new'))).toEqual({ key: rotated, matched: 'current' });
      expect(await store.findByHash(hashApiKeySecret('old'))).toEqual({ key: rotated, matched: 'previous' });
    });

    it('forgets the secret of an earlier rotation when rotating again', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('first'));
      await store.rotate(key.id, { secretHash: hashApiKeySecret('second'), previousSecretExpiresAt: at('2026-06-02T00:00:00Z') });
      const end = at('2026-06-03T00:00:00Z');
      await store.rotate(key.id, { secretHash: hashApiKeySecret('third'), previousSecretExpiresAt: end });
      expect(await store.findByHash(hashApiKeySecret('first'))).toBeNull();
      expect(await store.findByHash(hashApiKeySecret('second'))).toEqual({ key: { ...key, previousSecretExpiresAt: end }, matched: 'previous' });
      expect(await store.findByHash(hashApiKeySecret('third'))).toEqual({ key: { ...key, previousSecretExpiresAt: end }, matched: 'current' });
    });

    it('keeps the rotation state through updates and revocation', async () => {
      const key = anApiKey();
      await store.create(key, hashApiKeySecret('r-old'));
      const end = at('2026-06-02T00:00:00Z');
      await store.rotate(key.id, { secretHash: hashApiKeySecret('r-new'), previousSecretExpiresAt: end });
      await store.update({ ...key, previousSecretExpiresAt: end }, { name: 'still rotated' });
      const revokedAt = at('2026-06-01T13:00:00Z');
      await store.revoke(key.id, revokedAt);
      const expected = { ...key, name: 'still rotated', previousSecretExpiresAt: end, revokedAt };
      expect(await store.findByHash(hashApiKeySecret('r-old'))).toEqual({ key: expected, matched: 'previous' });
      expect(await store.findByHash(hashApiKeySecret('r-new'))).toEqual({ key: expected, matched: 'current' });
    });
  });
}
