import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('ListApiKeys', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  async function issueKeys(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await store.issueApiKey.execute({ plan: 'free', name: `key ${i}` }, 'cli')).key.id);
      if (i % 2 === 1) ports.clock.advance(1_000); // pairs created at the same instant: ordered by id
    }
    return ids;
  }

  it('lists keys oldest first, revoked ones included, 20 to a page by default', async () => {
    const ids = await issueKeys(3);
    await store.revokeApiKey.execute(ids[0]!, 'cli');
    const { keys, nextCursor } = await store.listApiKeys.execute();
    // key 0 and key 1 were created at the same instant: between them, the lower id comes first.
    const sameInstant = [
      ['key 0', 'revoked', ids[0]!],
      ['key 1', 'active', ids[1]!],
    ].sort((x, y) => (x[2]! < y[2]! ? -1 : 1));
    expect(keys.map((k) => [k.name, k.status])).toEqual([...sameInstant.map(([name, status]) => [name, status]), ['key 2', 'active']]);
    expect(nextCursor).toBeNull();
  });

  it('pages through every key exactly once with the cursor', async () => {
    const ids = await issueKeys(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof store.listApiKeys.execute>> = await store.listApiKeys.execute({ limit: '3', ...(cursor && { cursor }) });
      seen.push(...page.keys.map((k) => k.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(seen).toHaveLength(7);
    expect((await store.listApiKeys.execute({ limit: 100 })).keys.map((k) => k.id)).toEqual(seen);
  });

  it('ends on a full last page without a cursor', async () => {
    await issueKeys(2);
    expect((await store.listApiKeys.execute({ limit: 2 })).nextCursor).toBeNull();
  });

  it('shows each key’s last use and any ban in force', async () => {
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free', perMinute: 1 }, 'cli');
    const request = { secret, clientAddress: 'a', scope: 'pets:read' } as const;
    for (let i = 0; i < 12; i++) {
      await store.admitRequest.execute(request).catch(() => undefined);
      ports.clock.advance(1_000);
    }
    await store.keyUsageRecorder.flush();
    expect((await store.listApiKeys.execute()).keys).toEqual([
      expect.objectContaining({ id: key.id, lastUsedAt: '2026-06-01T12:00:11.000Z', bannedUntil: '2026-06-01T12:15:11.000Z' }),
    ]);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ limit: ['1', '2'] }, 'limit'],
    [{ cursor: 'nonsense' }, 'cursor'],
    [{ cursor: 42 }, 'cursor'],
    [{ sort: 'name' }, 'sort'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 7 }, 'name'],
    [{ name: 'a\u0000b' }, 'name'],
    [{ name: '\ud800' }, 'name'],
    [{ name: ['a', 'b'] }, 'name'],
  ])('refuses the query %p', async (query, field) => {
    await expect(store.listApiKeys.execute(query)).rejects.toMatchObject({ code: 'validation_error', details: [{ field }] });
  });

  it('refuses a cursor taken from another listing or edited', async () => {
    const { key } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    await store.updateApiKey.execute(key.id, { name: 'x' }, 'cli');
    await store.updateApiKey.execute(key.id, { name: 'y' }, 'cli');
    const auditCursor = (await store.listAuditEvents.execute({ limit: 1 })).nextCursor!;
    await expect(store.listApiKeys.execute({ cursor: auditCursor })).rejects.toMatchObject({ details: [{ field: 'cursor' }] });
    await issueKeys(2);
    const cursor = (await store.listApiKeys.execute({ limit: 1 })).nextCursor!;
    const edited = Buffer.from(
      Buffer.from(cursor, 'base64url')
        .toString('latin1')
        .replace(/\.(\d)/, '.9$1'),
    ).toString('base64url');
    await expect(store.listApiKeys.execute({ cursor: edited })).rejects.toMatchObject({ details: [{ field: 'cursor' }] });
  });

  it('searches the names (ASCII letters in either case), a page at a time, each cursor bound to its search', async () => {
    await issueKeys(5); // key 0 ... key 4
    await store.issueApiKey.execute({ plan: 'free', name: 'Partner KEY' }, 'cli');
    const everyKey = (await store.listApiKeys.execute()).keys.map((k) => k.name);
    const first = await store.listApiKeys.execute({ name: 'Key', limit: '4' });
    const second = await store.listApiKeys.execute({ name: 'Key', limit: '4', cursor: first.nextCursor! });
    expect([first.keys.length, second.nextCursor]).toEqual([4, null]);
    expect([...first.keys, ...second.keys].map((k) => k.name)).toEqual(everyKey);
    expect((await store.listApiKeys.execute({ name: 'partner' })).keys.map((k) => k.name)).toEqual(['Partner KEY']);
    expect((await store.listApiKeys.execute({ name: 'nobody' })).keys).toEqual([]);

    await expect(store.listApiKeys.execute({ limit: '4', cursor: first.nextCursor! })).rejects.toMatchObject({ details: [{ field: 'cursor' }] });
    await expect(store.listApiKeys.execute({ name: 'key', limit: '4', cursor: first.nextCursor! })).rejects.toMatchObject({
      details: [{ field: 'cursor' }],
    });
  });
});
