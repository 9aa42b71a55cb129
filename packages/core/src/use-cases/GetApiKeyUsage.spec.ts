import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('GetApiKeyUsage', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  let keyId: string;

  beforeEach(async () => {
    ports = inMemoryPorts('2026-06-03T12:00:00Z');
    store = createPetStore(ports);
    keyId = (await store.issueApiKey.execute({ plan: 'free' }, 'cli')).key.id;
    await ports.keyUsage.add([
      { keyId, day: '2026-05-05', requests: 4, limited: 0, lastUsedAt: new Date('2026-05-05T10:00:00Z') },
      { keyId, day: '2026-06-01', requests: 7, limited: 3, lastUsedAt: new Date('2026-06-01T10:00:00Z') },
      { keyId, day: '2026-06-03', requests: 2, limited: 0, lastUsedAt: new Date('2026-06-03T11:59:00Z') },
    ]);
  });

  it('reports every day of the last 30 by default, admitted and limited, 0 where nothing was counted, and the last use', async () => {
    const report = await store.getApiKeyUsage.execute(keyId);
    expect(report).toMatchObject({ keyId, from: '2026-05-05', to: '2026-06-03', lastUsedAt: '2026-06-03T11:59:00.000Z' });
    expect(report.days).toHaveLength(30);
    expect(report.days.filter((d) => d.requests > 0)).toEqual([
      { day: '2026-05-05', requests: 4, limited: 0 },
      { day: '2026-06-01', requests: 7, limited: 3 },
      { day: '2026-06-03', requests: 2, limited: 0 },
    ]);
    expect(report.days[1]).toEqual({ day: '2026-05-06', requests: 0, limited: 0 });
  });

  it('reports the range it is asked for, both days included', async () => {
    expect((await store.getApiKeyUsage.execute(keyId, { from: '2026-05-31', to: '2026-06-01' })).days).toEqual([
      { day: '2026-05-31', requests: 0, limited: 0 },
      { day: '2026-06-01', requests: 7, limited: 3 },
    ]);
    expect((await store.getApiKeyUsage.execute(keyId, { to: '2026-06-01' })).from).toBe('2026-05-03');
  });

  it('reports a key never used', async () => {
    const other = (await store.issueApiKey.execute({ plan: 'free' }, 'cli')).key.id;
    const report = await store.getApiKeyUsage.execute(other, { from: '2026-06-03' });
    expect(report).toEqual({
      keyId: other,
      from: '2026-06-03',
      to: '2026-06-03',
      days: [{ day: '2026-06-03', requests: 0, limited: 0 }],
      lastUsedAt: null,
    });
  });

  it('spans up to 91 days (the retention and today), no more', async () => {
    expect((await store.getApiKeyUsage.execute(keyId, { from: '2026-03-05', to: '2026-06-03' })).days).toHaveLength(91);
    await expect(store.getApiKeyUsage.execute(keyId, { from: '2026-03-04', to: '2026-06-03' })).rejects.toMatchObject({
      details: [{ field: 'from', message: 'a range spans at most 91 days' }],
    });
  });

  it.each<[Record<string, unknown>, string[]]>([
    [{ from: '2026-06-02', to: '2026-06-01' }, ['from']],
    [{ from: '2026-02-30' }, ['from']],
    [{ to: '2026-6-1' }, ['to']],
    [{ to: ['2026-06-01', '2026-06-02'] }, ['to']],
    [{ from: 20260601 }, ['from']],
    [{ day: '2026-06-01' }, ['day']],
  ])('refuses the range %p', async (range, fields) => {
    await expect(store.getApiKeyUsage.execute(keyId, range)).rejects.toMatchObject({
      code: 'validation_error',
      details: fields.map((field) => ({ field })),
    });
  });

  it('answers not_found for an unknown id', async () => {
    await expect(store.getApiKeyUsage.execute('key_nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
