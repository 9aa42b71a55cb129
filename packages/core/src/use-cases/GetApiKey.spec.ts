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

  it.each([
    ['an Enterprise key without limits', { plan: 'enterprise', limitOverrides: { perMinute: null, perDay: null } }, { perMinute: 60, perDay: 1_000 }],
    ['an Enterprise key with one limit', { plan: 'enterprise', limitOverrides: { perMinute: 10, perDay: null } }, { perMinute: 10, perDay: 1_000 }],
    ['a plan this version does not know', { plan: 'gold', limitOverrides: { perMinute: null, perDay: 500 } }, { perMinute: 60, perDay: 500 }],
  ] as const)('shows, lists and serves %s (stored by hand), with the Free plan’s limit where it has none', async (_, stored, limits) => {
    const issued = await store.issueApiKey.execute({ plan: 'pro' }, 'cli');
    await ports.keys.update({ ...(await ports.keys.findById(issued.key.id))! }, stored as never);
    expect(await store.getApiKey.execute(issued.key.id)).toMatchObject({ limits });
    expect((await store.listApiKeys.execute()).keys[0]).toMatchObject({ limits });
    const admitted = await store.admitRequest.execute({ secret: issued.secret, clientAddress: '198.51.100.1', scope: 'pets:read' });
    expect(admitted.rateLimit.limit).toBe(limits.perMinute);
    // An operator puts it right.
    expect(await store.updateApiKey.execute(issued.key.id, { plan: 'pro', perMinute: 100, perDay: 1_000 }, 'cli')).toMatchObject({
      limits: { perMinute: 100, perDay: 1_000 },
    });
  });

  it('answers not_found for an unknown id', async () => {
    await expect(store.getApiKey.execute('key_nope')).rejects.toMatchObject({ code: 'not_found', message: 'No API key with id key_nope.' });
  });

  it.each(['a\u0000', 'key_\u0000', 'key_a\u202e', 'key_', `key_${'a'.repeat(61)}`])(
    'answers not_found for %j, an id no key can have, without asking the store',
    async (id) => {
      ports.keys.findById = () => Promise.reject(new Error('asked the store'));
      await expect(store.getApiKey.execute(id)).rejects.toMatchObject({ code: 'not_found', message: `No API key with id ${JSON.stringify(id)}.` });
    },
  );
});
