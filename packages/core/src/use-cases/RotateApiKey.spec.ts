import { beforeEach, describe, expect, it } from '@jest/globals';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../access/ApiKeySecret.js';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('RotateApiKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  it('issues a new secret for the same key, keeping its settings; the old one works for 24 hours by default', async () => {
    const issued = await store.issueApiKey.execute({ plan: 'pro', scopes: ['pets:read'], perDay: 20_000, expiresAt: '2027-01-01T00:00:00Z' }, 'cli');
    const rotated = await store.rotateApiKey.execute(issued.key.id, {}, 'cli');
    expect(isWellFormedApiKeySecret(rotated.secret)).toBe(true);
    expect(rotated.secret).not.toBe(issued.secret);
    expect(rotated.key).toEqual({ ...issued.key, previousSecretExpiresAt: '2026-06-02T12:00:00.000Z' });
    expect(await ports.keys.findByHash(hashApiKeySecret(issued.secret))).toMatchObject({ matched: 'previous' });
  });

  it('takes a grace period from 0 to 30 days', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    expect((await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 0 }, 'cli')).key.previousSecretExpiresAt).toBe('2026-06-01T12:00:00.000Z');
    expect((await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 2_592_000 }, 'cli')).key.previousSecretExpiresAt).toBe(
      '2026-07-01T12:00:00.000Z',
    );
  });

  it('ends the grace of an earlier rotation at once when rotating again', async () => {
    const { key, secret: first } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const { secret: second } = await store.rotateApiKey.execute(key.id, {}, 'cli');
    const { secret: third } = await store.rotateApiKey.execute(key.id, {}, 'cli');
    const admit = (secret: string) => store.admitRequest.execute({ secret, clientAddress: 'a', scope: 'pets:read' });
    await expect(admit(first)).rejects.toMatchObject({ code: 'unauthorized' });
    await admit(second);
    await admit(third);
  });

  it('records the rotation, and the old secret’s end, never a secret', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    ports.clock.advance(1_000);
    const rotated = await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 3_600 }, 'admin-api');
    const [event] = (await store.listAuditEvents.execute({ keyId: key.id })).events;
    expect(event).toMatchObject({
      actor: 'admin-api',
      action: 'key.rotated',
      at: '2026-06-01T12:00:01.000Z',
      changes: { previousSecretExpiresAt: { before: null, after: '2026-06-01T13:00:01.000Z' } },
    });
    for (const text of [secret, rotated.secret, hashApiKeySecret(secret), hashApiKeySecret(rotated.secret)]) {
      expect(JSON.stringify(event)).not.toContain(text);
    }
  });

  it.each<[unknown, string]>([
    [{ gracePeriodSeconds: -1 }, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: 2_592_001 }, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: 1.5 }, 'gracePeriodSeconds'],
    [{ gracePeriodSeconds: '60' }, 'gracePeriodSeconds'],
    [{ grace: 60 }, 'grace'],
    [null, 'body'],
  ])('refuses the options %p and changes nothing', async (options, field) => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await expect(store.rotateApiKey.execute(key.id, options as object, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field }],
    });
    expect(await ports.keys.findByHash(hashApiKeySecret(secret))).toMatchObject({ matched: 'current', key: { previousSecretExpiresAt: null } });
  });

  it('refuses to rotate a revoked key, and answers not_found for an unknown id', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.revokeApiKey.execute(key.id, 'cli');
    await expect(store.rotateApiKey.execute(key.id, {}, 'cli')).rejects.toMatchObject({ code: 'validation_error', details: [{ field: 'id' }] });
    await expect(store.rotateApiKey.execute('key_nope', {}, 'cli')).rejects.toMatchObject({ code: 'not_found' });
  });
});
