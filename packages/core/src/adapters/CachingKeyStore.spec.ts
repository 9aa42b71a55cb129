import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ApiKey } from '../access/ApiKey.js';
import { hashApiKeySecret } from '../access/ApiKeySecret.js';
import type { KeyLookup } from '../ports/KeyStore.js';
import { anApiKey } from '../testing/builders.js';
import { describeKeyStoreContract } from '../testing/contracts/KeyStoreContract.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryKeyStore } from '../testing/InMemoryKeyStore.js';
import { CachingKeyStore } from './CachingKeyStore.js';

describeKeyStoreContract('CachingKeyStore over InMemoryKeyStore', async () => ({
  store: new CachingKeyStore(new InMemoryKeyStore(), new FakeClock()),
}));

describe('CachingKeyStore', () => {
  let inner: InMemoryKeyStore;
  let clock: FakeClock;
  let cache: CachingKeyStore;
  const hash = hashApiKeySecret('s');
  let key: ApiKey;

  beforeEach(async () => {
    inner = new InMemoryKeyStore();
    clock = new FakeClock();
    cache = new CachingKeyStore(inner, clock, 2_000, 2);
    key = anApiKey();
    await inner.create(key, hash);
  });

  it.each([
    ['a revocation', (store: InMemoryKeyStore) => store.revoke(key.id, new Date(0)), { revokedAt: new Date(0) }],
    ['a scope change', (store: InMemoryKeyStore) => store.update(key, { scopes: ['pets:read'] }), { scopes: ['pets:read'] }],
    ['a plan change', (store: InMemoryKeyStore) => store.update(key, { plan: 'pro' }), { plan: 'pro' }],
    ['disabling', (store: InMemoryKeyStore) => store.update(key, { disabled: true }), { disabled: true }],
    ['an expiry', (store: InMemoryKeyStore) => store.update(key, { expiresAt: new Date(0) }), { expiresAt: new Date(0) }],
  ] as const)('sees %s made behind its back (another instance) once its entry expires', async (_, change, changed) => {
    expect(await cache.findByHash(hash)).toEqual({ key, matched: 'current' });
    await change(inner);
    clock.advance(1_999);
    expect(await cache.findByHash(hash)).toEqual({ key, matched: 'current' });
    clock.advance(1);
    expect(await cache.findByHash(hash)).toEqual({ key: { ...key, ...changed }, matched: 'current' });
  });

  it('forgets everything at once when a key is changed, revoked or rotated through it', async () => {
    await cache.findByHash(hash);
    await cache.update(key, { disabled: true });
    expect((await cache.findByHash(hash))?.key.disabled).toBe(true);
    await cache.rotate(key.id, { secretHash: hashApiKeySecret('t'), previousSecretExpiresAt: new Date(0) });
    expect((await cache.findByHash(hash))?.matched).toBe('previous');
    await cache.revoke(key.id, new Date(0));
    expect((await cache.findByHash(hash))?.key.revokedAt).toEqual(new Date(0));
  });

  it('does not remember a lookup that raced a change made through it', async () => {
    let gate: Promise<void> | null = null;
    class SlowKeyStore extends InMemoryKeyStore {
      override async findByHash(secretHash: string): Promise<KeyLookup | null> {
        const found = await super.findByHash(secretHash); // read before the change...
        await gate; // ...answered after it
        return found;
      }
    }
    const slow = new SlowKeyStore();
    await slow.create(key, hash);
    const racing = new CachingKeyStore(slow, clock);
    let open: () => void = () => undefined;
    gate = new Promise((resolve) => (open = resolve));
    const lookup = racing.findByHash(hash);
    await racing.update(key, { disabled: true });
    open();
    expect((await lookup)?.key.disabled).toBe(false);
    gate = null;
    expect((await racing.findByHash(hash))?.key.disabled).toBe(true);
  });

  it('keeps at most maxEntries answers', async () => {
    await cache.findByHash(hash);
    await cache.findByHash(hashApiKeySecret('x'));
    await cache.findByHash(hashApiKeySecret('y')); // evicts the oldest: `hash`
    await inner.revoke(key.id, clock.now());
    expect((await cache.findByHash(hash))?.key.revokedAt).toEqual(clock.now());
  });
});
