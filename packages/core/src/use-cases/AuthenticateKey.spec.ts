import { beforeEach, describe, expect, it } from '@jest/globals';
import { apiKeyChecksum, generateApiKeySecret, hashApiKeySecret } from '../access/ApiKeySecret.js';
import { createPetStore, type PetStore } from '../createPetStore.js';
import type { KeyStore } from '../ports/KeyStore.js';
import { anApiKey } from '../testing/builders.js';
import { FakeClock } from '../testing/FakeClock.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { AuthenticateKey } from './AuthenticateKey.js';

/** A KeyStore that fails the test if anything reaches it. */
const untouchableKeyStore = new Proxy({} as KeyStore, {
  get: (_, method) => () => {
    throw new Error(`the key store was called (${String(method)})`);
  },
});

describe('AuthenticateKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  let authenticate: AuthenticateKey;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
    authenticate = new AuthenticateKey(ports.keys, ports.clock);
  });

  it('returns the record of a known key', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'pro', name: 'shelter' }, 'cli');
    expect(await authenticate.execute(secret)).toEqual(await ports.keys.findById(key.id));
  });

  it.each([undefined, ''])('rejects a missing key (%p) as missing', async (secret) => {
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'missing' });
  });

  it.each(['abc', 'pst_short', `pst_${'a'.repeat(42)}!`, `sk_${'a'.repeat(43)}`, null])('rejects the malformed key %p', async (secret) => {
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('refuses a new-format secret with a bad checksum without looking it up', async () => {
    const secret = generateApiKeySecret();
    const tampered = secret.slice(0, 10) + (secret[10] === 'A' ? 'B' : 'A') + secret.slice(11);
    await expect(new AuthenticateKey(untouchableKeyStore, new FakeClock()).execute(tampered)).rejects.toMatchObject({
      code: 'unauthorized',
      reason: 'invalid',
    });
  });

  it('rejects an unknown, well-formed key of either format', async () => {
    const body = `pst_${'7'.repeat(30)}`;
    await expect(authenticate.execute(body + apiKeyChecksum(body))).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
    await expect(authenticate.execute(`pst_${'a'.repeat(43)}`)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('accepts a key issued in the legacy format', async () => {
    const legacy = `pst_${'Qx-_'.repeat(10)}abc`;
    const key = anApiKey();
    await ports.keys.create(key, hashApiKeySecret(legacy));
    expect(await authenticate.execute(legacy)).toEqual(key);
  });

  it('rejects a revoked key, with either of its secrets', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const rotated = await store.rotateApiKey.execute(key.id, {}, 'cli');
    await store.revokeApiKey.execute(key.id, 'cli');
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
    await expect(authenticate.execute(rotated.secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('accepts both secrets of a rotated key during the grace period, then only the new one', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const rotated = await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 60 }, 'cli');
    ports.clock.advance(59_999);
    expect((await authenticate.execute(secret)).id).toBe(key.id);
    expect((await authenticate.execute(rotated.secret)).id).toBe(key.id);
    ports.clock.advance(1);
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
    expect((await authenticate.execute(rotated.secret)).id).toBe(key.id);
  });

  it('rejects the old secret at once after a rotation without grace', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const rotated = await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 0 }, 'cli');
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
    expect((await authenticate.execute(rotated.secret)).id).toBe(key.id);
  });

  it('rejects a key from its expiry on, with key_expired', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:10Z' }, 'cli');
    ports.clock.advance(9_999);
    expect(await authenticate.execute(secret)).toMatchObject({ expiresAt: new Date('2026-06-01T12:00:10Z') });
    ports.clock.advance(1);
    await expect(authenticate.execute(secret)).rejects.toMatchObject({
      code: 'key_expired',
      message: 'The API key expired at 2026-06-01T12:00:10.000Z: ask whoever issued it for a new expiry or a new key.',
    });
  });

  it('judges expiry on the instant it is given, when given one', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:10Z' }, 'cli');
    await expect(authenticate.execute(secret, Date.parse('2026-06-01T12:00:10Z'))).rejects.toMatchObject({ code: 'key_expired' });
  });

  it('rejects a disabled key with key_disabled, and accepts it again once enabled', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.updateApiKey.execute(key.id, { disabled: true }, 'cli');
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'key_disabled' });
    await store.updateApiKey.execute(key.id, { disabled: false }, 'cli');
    expect((await authenticate.execute(secret)).id).toBe(key.id);
  });

  it('names expiry before disabling, and a revoked or rotated-out secret as invalid before both', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:10Z' }, 'cli');
    await store.updateApiKey.execute(key.id, { disabled: true }, 'cli');
    ports.clock.advance(10_000);
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'key_expired' });
    await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 0 }, 'cli');
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});
