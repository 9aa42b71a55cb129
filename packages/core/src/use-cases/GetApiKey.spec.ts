import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('GetApiKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  it('shows a key as issued, never its secret', async () => {
    const issued = await store.issueApiKey.execute({ plan: 'business', name: 'billing' }, 'cli');
    const view = await store.getApiKey.execute(issued.key.id);
    expect(view).toEqual(issued.key);
    expect(JSON.stringify(view)).not.toContain(issued.secret);
  });

  it('shows the status in force now: expired once past its expiry, disabled, revoked', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:05Z' }, 'cli');
    ports.clock.advance(5_000);
    expect(await store.getApiKey.execute(key.id)).toMatchObject({ status: 'expired', expiresAt: '2026-06-01T12:00:05.000Z' });
    await store.updateApiKey.execute(key.id, { expiresAt: null, disabled: true }, 'cli');
    expect(await store.getApiKey.execute(key.id)).toMatchObject({ status: 'disabled', disabled: true, expiresAt: null });
    await store.revokeApiKey.execute(key.id, 'cli');
    expect(await store.getApiKey.execute(key.id)).toMatchObject({ status: 'revoked', revokedAt: '2026-06-01T12:00:05.000Z' });
  });

  it('answers not_found for an unknown id', async () => {
    await expect(store.getApiKey.execute('key_nope')).rejects.toMatchObject({ code: 'not_found', message: 'No API key with id key_nope.' });
  });
});
