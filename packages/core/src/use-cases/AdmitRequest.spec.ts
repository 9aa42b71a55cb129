import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('AdmitRequest', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  const read = { clientAddress: '10.0.0.1', scope: 'pets:read' } as const;
  const write = { clientAddress: '10.0.0.1', scope: 'pets:write' } as const;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports, { failedAuthPerMinute: 3 });
  });

  it('admits a valid key and counts it against its plan', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'pro' }, 'cli');
    expect(await store.admitRequest.execute({ ...read, secret })).toMatchObject({ key: { id: key.id }, rateLimit: { limit: 300, remaining: 299 } });
  });

  it('uses the limits of an enterprise key, and per-key overrides on any plan', async () => {
    const enterprise = await store.issueApiKey.execute({ plan: 'enterprise', perMinute: 2, perDay: 5 }, 'cli');
    await store.admitRequest.execute({ ...read, secret: enterprise.secret });
    expect(await store.admitRequest.execute({ ...read, secret: enterprise.secret })).toMatchObject({ rateLimit: { limit: 2, remaining: 0 } });
    await expect(store.admitRequest.execute({ ...read, secret: enterprise.secret })).rejects.toMatchObject({ code: 'rate_limited' });

    const free = await store.issueApiKey.execute({ plan: 'free', perMinute: 1 }, 'cli');
    expect(await store.admitRequest.execute({ ...read, secret: free.secret })).toMatchObject({
      rateLimit: {
        limit: 1,
        remaining: 0,
        windows: [
          { name: 'minute', limit: 1 },
          { name: 'day', limit: 1_000 },
        ],
      },
    });
  });

  it('admits a new key to reading and writing (both scopes by default)', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.admitRequest.execute({ ...read, secret });
    await store.admitRequest.execute({ ...write, secret });
  });

  it('refuses an operation outside the key’s scopes with insufficient_scope, counted against its quota', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free', scopes: ['pets:read'] }, 'cli');
    await expect(store.admitRequest.execute({ ...write, secret })).rejects.toMatchObject({
      code: 'insufficient_scope',
      scope: 'pets:write',
      message: 'This API key lacks the scope pets:write, which this operation needs.',
      rateLimit: { limit: 60, remaining: 59 },
    });
    expect(await store.admitRequest.execute({ ...read, secret })).toMatchObject({ rateLimit: { remaining: 58 } });

    const writer = await store.issueApiKey.execute({ plan: 'free', scopes: ['pets:write'] }, 'cli');
    await expect(store.admitRequest.execute({ ...read, secret: writer.secret })).rejects.toMatchObject({
      code: 'insufficient_scope',
      scope: 'pets:read',
    });
  });

  it('answers a rate-limited key 429 before looking at scopes', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free', perMinute: 1, scopes: ['pets:read'] }, 'cli');
    await store.admitRequest.execute({ ...read, secret });
    await expect(store.admitRequest.execute({ ...write, secret })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('names the key in every refusal that concerns it (scope, limit, ban), never an address’s', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free', perMinute: 1, scopes: ['pets:read'] }, 'cli');
    await expect(store.admitRequest.execute({ ...write, secret })).rejects.toMatchObject({ code: 'insufficient_scope', keyId: key.id });
    const refusals: unknown[] = [];
    while (!refusals.some((error) => (error as { code: string }).code === 'key_banned')) {
      if (refusals.length === 20) throw new Error('no ban after 20 refusals');
      ports.clock.advance(1_000);
      refusals.push(
        await store.admitRequest.execute({ ...read, secret }).then(
          () => ({ code: 'admitted' }),
          (error: unknown) => error,
        ),
      );
    }
    expect(refusals[0]).toMatchObject({ code: 'rate_limited', keyId: key.id });
    expect(refusals.at(-1)).toMatchObject({ code: 'key_banned', keyId: key.id });

    const usage = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const queries = Array.from({ length: 61 }, () => store.admitUsageQuery.execute({ ...read, secret: usage.secret }));
    await expect(Promise.all(queries)).rejects.toMatchObject({ code: 'rate_limited', keyId: usage.key.id });

    for (let attempt = 0; attempt < 3; attempt++) await store.admitRequest.execute({ ...read, secret: 'pst_wrong' }).catch(() => undefined);
    await expect(store.admitRequest.execute({ ...read, secret: 'pst_wrong' })).rejects.toMatchObject({ code: 'rate_limited', keyId: null });
  });

  it('counts both secrets of a rotated key against one quota while they overlap', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free', perMinute: 3 }, 'cli');
    const rotated = await store.rotateApiKey.execute(key.id, {}, 'cli');
    await store.admitRequest.execute({ ...read, secret });
    await store.admitRequest.execute({ ...read, secret: rotated.secret });
    expect(await store.admitRequest.execute({ ...read, secret })).toMatchObject({ key: { id: key.id }, rateLimit: { remaining: 0 } });
    await expect(store.admitRequest.execute({ ...read, secret: rotated.secret })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('counts failed authentications per address (expired and disabled keys too) and attaches that bucket', async () => {
    await expect(store.admitRequest.execute({ ...read, secret: undefined, clientAddress: '10.0.0.2' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { limit: 3, remaining: 2 },
    });
    const expiring = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:01Z' }, 'cli');
    const disabled = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.updateApiKey.execute(disabled.key.id, { disabled: true }, 'cli');
    ports.clock.advance(1_000);
    await expect(store.admitRequest.execute({ ...read, secret: expiring.secret, clientAddress: '10.0.0.2' })).rejects.toMatchObject({
      code: 'key_expired',
      rateLimit: { remaining: 1 },
    });
    await expect(store.admitRequest.execute({ ...read, secret: disabled.secret, clientAddress: '10.0.0.2' })).rejects.toMatchObject({
      code: 'key_disabled',
      rateLimit: { remaining: 0 },
    });
    await expect(store.admitRequest.execute({ ...read, secret: 'bad', clientAddress: '10.0.0.2' })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(store.admitRequest.execute({ ...read, secret: 'bad', clientAddress: '10.0.0.3' })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('does not count a successful authentication against the address', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    for (let i = 0; i < 5; i++) await store.admitRequest.execute({ ...read, secret, clientAddress: '10.0.0.4' });
    await expect(store.admitRequest.execute({ ...read, secret: undefined, clientAddress: '10.0.0.4' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { remaining: 2 },
    });
  });

  it('records the use of the key without writing anything until the recorder is flushed', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free', perMinute: 2, scopes: ['pets:read'] }, 'cli');
    await store.admitRequest.execute({ ...read, secret });
    ports.clock.advance(1_000);
    await store.admitRequest.execute({ ...write, secret }).catch(() => undefined); // 403: counted
    ports.clock.advance(1_000);
    await store.admitRequest.execute({ ...read, secret }).catch(() => undefined); // 429: a use, refused by the limit
    expect(await ports.keyUsage.lastUsedAt([key.id])).toEqual(new Map());

    await store.keyUsageRecorder.flush();
    expect(await ports.keyUsage.lastUsedAt([key.id])).toEqual(new Map([[key.id, new Date('2026-06-01T12:00:02Z')]]));
    expect(await ports.keyUsage.dailyUsage(key.id, '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 2, limited: 1 }]);
  });

  it('gives back what an admission counted when it is released (the request failed because a dependency was down)', async () => {
    const { secret } = await store.issueApiKey.execute({ plan: 'enterprise', perMinute: 2, perDay: 5 }, 'cli');
    await store.admitRequest.execute({ ...read, secret });
    const second = await store.admitRequest.execute({ ...read, secret });
    await expect(store.admitRequest.execute({ ...read, secret })).rejects.toMatchObject({ code: 'rate_limited' });
    await second.release();
    expect(await store.admitRequest.execute({ ...read, secret })).toMatchObject({
      rateLimit: { remaining: 0, windows: [{ remaining: 0 }, { remaining: 3 }] },
    });
  });

  it('releases into the windows it counted in, never into the next minute', async () => {
    ports.clock.set('2026-06-01T12:00:59.900Z');
    const { secret } = await store.issueApiKey.execute({ plan: 'enterprise', perMinute: 5, perDay: 100 }, 'cli');
    const before = await store.admitRequest.execute({ ...read, secret });
    ports.clock.set('2026-06-01T12:01:00.100Z');
    await store.admitRequest.execute({ ...read, secret });
    await before.release();
    expect(await store.admitRequest.execute({ ...read, secret })).toMatchObject({ rateLimit: { windows: [{ remaining: 3 }, { remaining: 98 }] } });
  });
});
