import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('UnbanApiKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports, { ban: { strikes: 1, durationSeconds: 900, strikeIntervalSeconds: 0 } });
  });

  async function bannedKey() {
    const issued = await store.issueApiKey.execute({ plan: 'free', perMinute: 1 }, 'cli');
    const admit = () => store.admitRequest.execute({ secret: issued.secret, clientAddress: 'a', scope: 'pets:read' });
    await admit();
    await admit().catch(() => undefined);
    await expect(admit()).rejects.toMatchObject({ code: 'key_banned' });
    return { ...issued, admit };
  }

  it('lifts a ban at once; the key’s full window still rejects until it resets', async () => {
    const { key, admit } = await bannedKey();
    expect((await store.getApiKey.execute(key.id)).bannedUntil).toBe('2026-06-01T12:15:00.000Z');
    expect(await store.unbanApiKey.execute(key.id, 'admin-api')).toEqual({
      key: expect.objectContaining({ id: key.id, bannedUntil: null }),
      wasBanned: true,
    });
    await expect(admit()).rejects.toMatchObject({ code: 'rate_limited' });
    ports.clock.advance(60_000);
    await admit();
  });

  it('records the lifted ban', async () => {
    const { key } = await bannedKey();
    await store.unbanApiKey.execute(key.id, 'cli');
    expect((await store.listAuditEvents.execute({ keyId: key.id })).events[0]).toMatchObject({
      actor: 'cli',
      action: 'key.unbanned',
      changes: { bannedUntil: { before: '2026-06-01T12:15:00.000Z', after: null } },
    });
  });

  it('lifts a ban on the key’s usage queries too', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const small = createPetStore(ports, { ban: { strikes: 1, durationSeconds: 900, strikeIntervalSeconds: 0 }, usageQueriesPerMinute: 1 });
    const query = () => small.admitUsageQuery.execute({ secret, clientAddress: 'a' });
    await query();
    await query().catch(() => undefined);
    await expect(query()).rejects.toMatchObject({ code: 'key_banned' });
    await store.unbanApiKey.execute(key.id, 'cli');
    await expect(query()).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('says when there was no ban to lift, and records the attempt with no change', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    expect((await store.unbanApiKey.execute(key.id, 'cli')).wasBanned).toBe(false);
    expect((await store.listAuditEvents.execute({ keyId: key.id })).events[0]).toMatchObject({ action: 'key.unbanned', changes: {} });
  });

  it('answers not_found for an unknown id', async () => {
    await expect(store.unbanApiKey.execute('key_nope', 'cli')).rejects.toMatchObject({ code: 'not_found' });
  });
});
