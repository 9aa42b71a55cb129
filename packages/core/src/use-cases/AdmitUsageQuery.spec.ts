import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('AdmitUsageQuery', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports, {
      ban: { strikes: 1, durationSeconds: 600, strikeIntervalSeconds: 0 },
      failedAuthPerMinute: 2,
      usageQueriesPerMinute: 3,
    });
  });

  it("spends none of the key's quota, and answers while the key is banned", async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'enterprise', perMinute: 1, perDay: 10 }, 'cli');
    expect(await store.admitUsageQuery.execute({ secret, clientAddress: 'a' })).toMatchObject({
      key: { id: key.id },
      rateLimit: { limit: 3, remaining: 2 },
    });
    await store.admitRequest.execute({ secret, clientAddress: 'a', scope: 'pets:read' });
    await store.admitRequest.execute({ secret, clientAddress: 'a', scope: 'pets:read' }).catch(() => undefined);
    await expect(store.admitRequest.execute({ secret, clientAddress: 'a', scope: 'pets:read' })).rejects.toMatchObject({ code: 'key_banned' });
    expect(await store.admitUsageQuery.execute({ secret, clientAddress: 'a' })).toMatchObject({ key: { id: key.id }, rateLimit: { remaining: 1 } });
  });

  it('bounds the queries of a key in a bucket of their own', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'pro' }, 'cli');
    for (let i = 0; i < 3; i++) await store.admitUsageQuery.execute({ secret, clientAddress: 'a' });
    await expect(store.admitUsageQuery.execute({ secret, clientAddress: 'a' })).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 60 });
    expect((await store.admitRequest.execute({ secret, clientAddress: 'a', scope: 'pets:read' })).rateLimit).toMatchObject({
      limit: 300,
      remaining: 299,
    });
  });

  it('counts failed authentications against the address, like any request', async () => {
    await expect(store.admitUsageQuery.execute({ secret: 'bad', clientAddress: 'b' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { limit: 2, remaining: 1 },
    });
    await expect(store.admitRequest.execute({ secret: undefined, clientAddress: 'b', scope: 'pets:read' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { remaining: 0 },
    });
    await expect(store.admitUsageQuery.execute({ secret: 'bad', clientAddress: 'b' })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('answers any valid key, whatever its scopes', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free', scopes: ['pets:write'] }, 'cli');
    expect(await store.admitUsageQuery.execute({ secret, clientAddress: 'a' })).toMatchObject({ rateLimit: { limit: 3 } });
  });

  it("moves the key's last use without counting a request in its usage per day", async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    ports.clock.advance(5_000);
    await store.admitUsageQuery.execute({ secret, clientAddress: 'a' });
    await store.keyUsageRecorder.flush();
    expect(await store.getApiKeyUsage.execute(key.id, { from: '2026-06-01', to: '2026-06-01' })).toEqual({
      keyId: key.id,
      from: '2026-06-01',
      to: '2026-06-01',
      days: [{ day: '2026-06-01', requests: 0, limited: 0 }],
      lastUsedAt: '2026-06-01T12:00:05.000Z',
    });
  });
});
