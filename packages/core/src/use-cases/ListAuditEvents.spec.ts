import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('ListAuditEvents', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  it('lists every key’s events newest first, actions made at the same instant in the order they were made', async () => {
    const a = (await store.issueApiKey.execute({ plan: 'free' }, 'cli')).key.id;
    const b = (await store.issueApiKey.execute({ plan: 'pro' }, 'admin-api')).key.id;
    await store.updateApiKey.execute(a, { name: 'a' }, 'admin-api');
    ports.clock.advance(1);
    await store.revokeApiKey.execute(b, 'cli');
    const { events, nextCursor } = await store.listAuditEvents.execute();
    expect(events.map((e) => [e.action, 'keyId' in e && e.keyId, e.actor, e.at])).toEqual([
      ['key.revoked', b, 'cli', '2026-06-01T12:00:00.001Z'],
      ['key.updated', a, 'admin-api', '2026-06-01T12:00:00.000Z'],
      ['key.created', b, 'admin-api', '2026-06-01T12:00:00.000Z'],
      ['key.created', a, 'cli', '2026-06-01T12:00:00.000Z'],
    ]);
    expect(nextCursor).toBeNull();
  });

  it('pages through the events with the cursor, of one key when asked', async () => {
    const a = (await store.issueApiKey.execute({ plan: 'free' }, 'cli')).key.id;
    const b = (await store.issueApiKey.execute({ plan: 'free' }, 'cli')).key.id;
    for (let i = 0; i < 4; i++) {
      await store.updateApiKey.execute(a, { name: `a${i}` }, 'cli');
      await store.updateApiKey.execute(b, { name: `b${i}` }, 'cli');
    }
    const first = await store.listAuditEvents.execute({ keyId: a, limit: '2' });
    expect(first.events.map((e) => e.changes['name']?.after)).toEqual(['a3', 'a2']);
    const second = await store.listAuditEvents.execute({ keyId: a, limit: '2', cursor: first.nextCursor });
    expect(second.events.map((e) => e.changes['name']?.after)).toEqual(['a1', 'a0']);
    const last = await store.listAuditEvents.execute({ keyId: a, limit: '2', cursor: second.nextCursor });
    expect(last).toEqual({ events: [expect.objectContaining({ action: 'key.created', keyId: a })], nextCursor: null });
    // A cursor belongs to its listing: another key's, or every key's, refuses it.
    await expect(store.listAuditEvents.execute({ keyId: b, cursor: first.nextCursor })).rejects.toMatchObject({ details: [{ field: 'cursor' }] });
    await expect(store.listAuditEvents.execute({ cursor: first.nextCursor })).rejects.toMatchObject({ details: [{ field: 'cursor' }] });
  });

  it.each<[Record<string, unknown>, string[]]>([
    [{ keyId: '' }, ['keyId']],
    [{ keyId: 7 }, ['keyId']],
    [{ keyId: 'key_a\u0000' }, ['keyId']],
    [{ keyId: 'key_a\u202e' }, ['keyId']],
    [{ keyId: ['key_a', 'key_b'] }, ['keyId']],
    [{ limit: '0' }, ['limit']],
    [{ cursor: 'x' }, ['cursor']],
    [{ action: 'key.revoked' }, ['action']],
  ])('refuses the query %p', async (query, fields) => {
    await expect(store.listAuditEvents.execute(query)).rejects.toMatchObject({
      code: 'validation_error',
      details: fields.map((field) => ({ field })),
    });
  });
});
