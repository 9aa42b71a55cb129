import { describe, expect, it } from '@jest/globals';
import { createPetStore } from './createPetStore.js';
import { inMemoryPorts } from './testing/inMemoryPorts.js';

describe('createPetStore', () => {
  it('wires every use case to the same ports', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:30Z');
    const store = createPetStore(ports);
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const request = { secret, clientAddress: '127.0.0.1', scope: 'pets:write' } as const;
    const admitted = await store.admitRequest.execute(request);
    expect(admitted.key.id).toBe(key.id);
    await store.confirmAdmission.execute(request, admitted);

    const created = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    const replayed = await store.createPetIdempotently.execute({ newPet: { name: 'Ivy', categoryId: 2 }, scope: key.id, idempotencyKey: 'k1' });
    expect((await store.listPets.execute()).pets).toEqual([created, replayed.pet]);
    expect(await store.getPet.execute(String(created.id))).toEqual(created);

    expect((await store.listApiKeys.execute()).keys.map((k) => k.id)).toEqual([key.id]);
    expect((await store.getApiKey.execute(key.id)).id).toBe(key.id);
    await store.updateApiKey.execute(key.id, { name: 'renamed' }, 'admin-api');
    await store.unbanApiKey.execute(key.id, 'admin-api');
    const rotated = await store.rotateApiKey.execute(key.id, { gracePeriodSeconds: 0 }, 'cli');
    await expect(store.admitRequest.execute(request)).rejects.toMatchObject({ code: 'unauthorized' });
    await store.revokeApiKey.execute(key.id, 'cli');
    await expect(store.admitRequest.execute({ ...request, secret: rotated.secret })).rejects.toMatchObject({ code: 'unauthorized' });

    await store.keyUsageRecorder.flush();
    expect((await store.getApiKeyUsage.execute(key.id)).lastUsedAt).toBe('2026-06-01T12:00:30.000Z');
    expect((await store.listAuditEvents.execute({ keyId: key.id })).events.map((e) => e.action)).toEqual([
      'key.revoked',
      'key.rotated',
      'key.unbanned',
      'key.updated',
      'key.created',
    ]);
  });

  it('applies the ban rule and the failed-authentication limit it is given', async () => {
    const store = createPetStore(inMemoryPorts(), { ban: { strikes: 1, durationSeconds: 60, strikeIntervalSeconds: 0 }, failedAuthPerMinute: 1 });
    const request = { secret: undefined, clientAddress: '10.0.0.1', scope: 'pets:read' } as const;
    await expect(store.admitRequest.execute(request)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(store.admitRequest.execute(request)).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(store.admitRequest.execute(request)).rejects.toMatchObject({ code: 'key_banned' });
  });

  it('keeps usage per day for the retention it is given, refusing less than 90 days', async () => {
    expect(createPetStore(inMemoryPorts(), { keyUsageRetentionDays: 400 }).keyUsageRecorder.retentionDays).toBe(400);
    expect(createPetStore(inMemoryPorts()).keyUsageRecorder.retentionDays).toBe(90);
    expect(() => createPetStore(inMemoryPorts(), { keyUsageRetentionDays: 89 })).toThrow('from 90');
  });

  it('hands out the clock the use cases read', () => {
    const ports = inMemoryPorts();
    expect(createPetStore(ports).clock).toBe(ports.clock);
  });
});
