import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import type { ApiKeyUpdate } from './UpdateApiKey.js';

describe('UpdateApiKey', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  let id: string;

  beforeEach(async () => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
    id = (await store.issueApiKey.execute({ plan: 'free', name: 'shop' }, 'cli')).key.id;
    ports.clock.advance(60_000);
  });

  const auditOf = async () => (await store.listAuditEvents.execute({ keyId: id })).events;

  it('changes every setting it is given, leaves the others, and answers the key as it now is', async () => {
    const view = await store.updateApiKey.execute(
      id,
      { name: 'shop (EU)', plan: 'pro', perDay: 20_000, scopes: ['pets:read'], expiresAt: '2027-01-01T00:00:00Z', disabled: true },
      'admin-api',
    );
    expect(view).toMatchObject({
      id,
      name: 'shop (EU)',
      plan: 'pro',
      limits: { perMinute: 300, perDay: 20_000 },
      limitOverrides: { perMinute: null, perDay: 20_000 },
      scopes: ['pets:read'],
      expiresAt: '2027-01-01T00:00:00.000Z',
      disabled: true,
      status: 'disabled',
      createdAt: '2026-06-01T12:00:00.000Z',
    });
    expect(await store.getApiKey.execute(id)).toEqual(view);
    expect((await store.updateApiKey.execute(id, { disabled: false }, 'cli')).name).toBe('shop (EU)');
  });

  it('records each changed field before and after, with the actor', async () => {
    await store.updateApiKey.execute(
      id,
      { name: 'shop', plan: 'business', scopes: ['pets:write'], expiresAt: '2027-01-01T00:00:00+01:00' },
      'admin-api',
    );
    const [event] = await auditOf();
    expect(event).toEqual({
      id: expect.any(String),
      at: '2026-06-01T12:01:00.000Z',
      actor: 'admin-api',
      action: 'key.updated',
      keyId: id,
      changes: {
        plan: { before: 'free', after: 'business' },
        scopes: { before: ['pets:read', 'pets:write'], after: ['pets:write'] },
        expiresAt: { before: null, after: '2026-12-31T23:00:00.000Z' },
      },
    });
  });

  it('clears a limit override with null, back to the plan’s limit', async () => {
    await store.updateApiKey.execute(id, { perMinute: 10, perDay: 100 }, 'cli');
    expect(await store.updateApiKey.execute(id, { perMinute: null }, 'cli')).toMatchObject({
      limits: { perMinute: 60, perDay: 100 },
      limitOverrides: { perMinute: null, perDay: 100 },
    });
    expect((await auditOf())[0]!.changes).toEqual({ perMinute: { before: 10, after: null } });
  });

  it('applies the limit rules to the key as it would be', async () => {
    await expect(store.updateApiKey.execute(id, { plan: 'enterprise' }, 'cli')).rejects.toMatchObject({
      details: [
        { field: 'perMinute', message: 'perMinute is required for enterprise keys and must be a positive integer' },
        { field: 'perDay', message: 'perDay is required for enterprise keys and must be a positive integer' },
      ],
    });
    await store.updateApiKey.execute(id, { plan: 'enterprise', perMinute: 100, perDay: 1_000 }, 'cli');
    await expect(store.updateApiKey.execute(id, { perDay: null }, 'cli')).rejects.toMatchObject({ details: [{ field: 'perDay' }] });
    await expect(store.updateApiKey.execute(id, { perDay: 99 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perMinute', message: 'perMinute (100) must not exceed perDay (99): a day holds every minute' }],
    });
    // Leaving Enterprise keeps the overrides, now over the new plan's limits.
    expect((await store.updateApiKey.execute(id, { plan: 'pro' }, 'cli')).limits).toEqual({ perMinute: 100, perDay: 1_000 });
  });

  it('extends an expired key’s expiry, or removes it', async () => {
    await store.updateApiKey.execute(id, { expiresAt: '2026-06-01T12:01:01Z' }, 'cli');
    ports.clock.advance(1_000);
    expect((await store.getApiKey.execute(id)).status).toBe('expired');
    expect((await store.updateApiKey.execute(id, { expiresAt: '2026-07-01T00:00:00Z' }, 'cli')).status).toBe('active');
    expect((await store.updateApiKey.execute(id, { expiresAt: null }, 'cli')).expiresAt).toBeNull();
  });

  it.each<[string, unknown, { field: string; message?: unknown }[]]>([
    ['no setting at all', {}, [{ field: 'body', message: expect.stringContaining('give at least one setting to change') }]],
    ['only undefined settings', { name: undefined }, [{ field: 'body' }]],
    ['a body that is not an object', 'disable', [{ field: 'body', message: 'the settings must be an object' }]],
    ['an unknown field', { enabled: true }, [{ field: 'enabled' }]],
    ['a disabled flag that is not a boolean', { disabled: 'yes' }, [{ field: 'disabled', message: 'disabled must be true or false' }]],
    ['an expiry in the past', { expiresAt: '2026-06-01T12:00:59Z' }, [{ field: 'expiresAt' }]],
    ['an unknown plan', { plan: 'gold', perMinute: 0 }, [{ field: 'plan' }, { field: 'perMinute' }]],
    ['empty scopes', { scopes: [] }, [{ field: 'scopes' }]],
    ['a name with a right-to-left override', { name: 'shop\u202E' }, [{ field: 'name', message: expect.stringContaining('bidirectional') }]],
  ])('refuses %s and changes nothing', async (_, update, details) => {
    const before = await store.getApiKey.execute(id);
    await expect(store.updateApiKey.execute(id, update as ApiKeyUpdate, 'cli')).rejects.toMatchObject({ code: 'validation_error', details });
    expect(await store.getApiKey.execute(id)).toEqual(before);
    expect(await auditOf()).toHaveLength(1); // the creation alone
  });

  it('decides again against the key as it now is when another change lands between its read and its write', async () => {
    await store.updateApiKey.execute(id, { plan: 'pro', perMinute: 100, perDay: 1_000 }, 'cli');
    const update = ports.keys.update.bind(ports.keys);
    let raced = false;
    ports.keys.update = async (expected, changes) => {
      if (!raced) {
        raced = true;
        await update(expected, { plan: 'enterprise' }); // another operator's change, from the same reading, lands first
      }
      return update(expected, changes);
    };
    // Valid on the pro key it read, forbidden on the enterprise key it would write to: refused, nothing written.
    await expect(store.updateApiKey.execute(id, { perDay: null }, 'admin-api')).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'perDay', message: 'perDay is required for enterprise keys and must be a positive integer' }],
    });
    expect(await store.getApiKey.execute(id)).toMatchObject({ plan: 'enterprise', limitOverrides: { perMinute: 100, perDay: 1_000 } });
    // A change the rules allow on the fresh key is applied to it, and audited against it.
    raced = false;
    expect(await store.updateApiKey.execute(id, { name: 'fresh' }, 'admin-api')).toMatchObject({ name: 'fresh', plan: 'enterprise' });
    expect((await auditOf())[0]!.changes).toEqual({ name: { before: 'shop', after: 'fresh' } });
  });

  it('answers service_unavailable and changes nothing when the key keeps changing under it', async () => {
    const before = await store.getApiKey.execute(id);
    ports.keys.update = () => Promise.resolve(null);
    await expect(store.updateApiKey.execute(id, { name: 'never' }, 'cli')).rejects.toMatchObject({ code: 'service_unavailable', retryAfter: 1 });
    expect(await store.getApiKey.execute(id)).toEqual(before);
    expect(await auditOf()).toHaveLength(1);
  });

  it('refuses a limit whose JSON text has a fraction or an exponent, and changes nothing', async () => {
    for (const text of ['1.0', '1e1']) {
      await expect(store.updateApiKey.execute(id, { perMinute: Number(text) }, 'cli', new Map([['perMinute', text]]))).rejects.toMatchObject({
        details: [{ field: 'perMinute', message: `perMinute must be an integer written without a fraction or exponent (got ${text})` }],
      });
    }
    expect(await auditOf()).toHaveLength(1);
    expect((await store.updateApiKey.execute(id, { perMinute: 10 }, 'cli', new Map([['perMinute', '10']]))).limits.perMinute).toBe(10);
  });

  it('refuses to change a revoked key, and answers not_found for an unknown id', async () => {
    await store.revokeApiKey.execute(id, 'cli');
    await expect(store.updateApiKey.execute(id, { disabled: false }, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'id', message: `API key ${id} is revoked and cannot be changed.` }],
    });
    await expect(store.updateApiKey.execute('key_nope', { name: 'x' }, 'cli')).rejects.toMatchObject({ code: 'not_found' });
  });
});
