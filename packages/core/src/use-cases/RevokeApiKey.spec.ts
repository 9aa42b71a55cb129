import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('RevokeApiKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  it('revokes once: a second revocation changes nothing and says the key was already revoked', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const first = await store.revokeApiKey.execute(key.id, 'cli');
    expect(first).toEqual({ key: { ...key, status: 'revoked', revokedAt: '2026-06-01T12:00:00.000Z' }, alreadyRevoked: false });
    ports.clock.advance(60_000);
    expect(await store.revokeApiKey.execute(key.id, 'admin-api')).toEqual({ key: first.key, alreadyRevoked: true });
  });

  it('records both attempts, the second with no change', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.revokeApiKey.execute(key.id, 'cli');
    await store.revokeApiKey.execute(key.id, 'admin-api');
    const [again, first] = (await store.listAuditEvents.execute({ keyId: key.id })).events;
    expect(first).toMatchObject({ action: 'key.revoked', actor: 'cli', changes: { revokedAt: { before: null, after: '2026-06-01T12:00:00.000Z' } } });
    expect(again).toMatchObject({ action: 'key.revoked', actor: 'admin-api', changes: {} });
  });

  it('answers not_found for an unknown id, recording nothing', async () => {
    await expect(store.revokeApiKey.execute('key_nope', 'cli')).rejects.toMatchObject({ code: 'not_found' });
    expect((await store.listAuditEvents.execute()).events).toEqual([]);
  });
});
