import { beforeEach, describe, expect, it } from '@jest/globals';
import { anApiKey } from '../testing/builders.js';
import { describeKeyStoreContract } from '../testing/contracts/KeyStoreContract.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryKeyStore } from '../testing/InMemoryKeyStore.js';
import { hashApiKeySecret } from '../access/ApiKeySecret.js';
import { CachingKeyStore } from './CachingKeyStore.js';

describeKeyStoreContract('CachingKeyStore over InMemoryKeyStore', async () => ({
  store: new CachingKeyStore(new InMemoryKeyStore(), new FakeClock()),
}));

describe('CachingKeyStore', () => {
  let inner: InMemoryKeyStore;
  let clock: FakeClock;
  let cache: CachingKeyStore;
  const hash = hashApiKeySecret('s');

  beforeEach(() => {
    inner = new InMemoryKeyStore();
    clock = new FakeClock();
    cache = new CachingKeyStore(inner, clock, 2_000, 2);
  });

  it('sees a revocation made behind its back only once its entry expires', async () => {
    const key = anApiKey();
    await inner.create(key, hash);
    expect(await cache.findByHash(hash)).toEqual(key);
    await inner.revoke(key.id, clock.now());
    clock.advance(1_999);
    expect((await cache.findByHash(hash))?.revokedAt).toBeNull();
    clock.advance(1);
    expect((await cache.findByHash(hash))?.revokedAt).toEqual(expect.any(Date));
  });

  it('forgets everything at once when a key is revoked or rotated through it', async () => {
    const key = anApiKey();
    await cache.create(key, hash);
    await cache.findByHash(hash);
    await cache.replaceSecretHash(key.id, hashApiKeySecret('t'));
    expect(await cache.findByHash(hash)).toBeNull();
  });

  it('keeps at most maxEntries answers', async () => {
    const key = anApiKey();
    await inner.create(key, hash);
    await cache.findByHash(hash);
    await cache.findByHash(hashApiKeySecret('x'));
    await cache.findByHash(hashApiKeySecret('y')); // evicts the oldest: `hash`
    await inner.revoke(key.id, clock.now());
    expect((await cache.findByHash(hash))?.revokedAt).toEqual(clock.now());
  });
});
