import { describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from './adapters/InMemoryRateLimitStore.js';
import { createPetStore } from './createPetStore.js';
import { FakeClock } from './testing/FakeClock.js';
import { InMemoryIdempotencyStore } from './testing/InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './testing/InMemoryKeyStore.js';
import { InMemoryPetRepository } from './testing/InMemoryPetRepository.js';

function inMemoryPorts() {
  return {
    pets: new InMemoryPetRepository(),
    keys: new InMemoryKeyStore(),
    rateLimits: new InMemoryRateLimitStore(),
    idempotency: new InMemoryIdempotencyStore(),
    clock: new FakeClock('2026-06-01T12:00:30Z'),
  };
}

describe('createPetStore', () => {
  it('wires every use case to the same ports', async () => {
    const store = createPetStore(inMemoryPorts());
    const { key, secret } = await store.issueApiKey.execute({ plan: 'free' });
    const admitted = await store.admitRequest.execute({ secret, clientAddress: '127.0.0.1' });
    expect(admitted.key.id).toBe(key.id);

    const created = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    const replayed = await store.createPetIdempotently.execute({ newPet: { name: 'Ivy', categoryId: 2 }, scope: key.id, idempotencyKey: 'k1' });
    expect((await store.listPets.execute()).pets).toEqual([created, replayed.pet]);
    expect(await store.getPet.execute(String(created.id))).toEqual(created);

    expect((await store.listApiKeys.execute()).map((k) => k.id)).toEqual([key.id]);
    const rotated = await store.rotateApiKey.execute(key.id);
    await expect(store.admitRequest.execute({ secret, clientAddress: '127.0.0.1' })).rejects.toMatchObject({ code: 'unauthorized' });
    await store.revokeApiKey.execute(key.id);
    await expect(store.admitRequest.execute({ secret: rotated.secret, clientAddress: '127.0.0.1' })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('applies the ban rule and the failed-authentication limit it is given', async () => {
    const ports = inMemoryPorts();
    const store = createPetStore(ports, { ban: { strikes: 1, durationSeconds: 60 }, failedAuthPerMinute: 1 });
    await expect(store.admitRequest.execute({ secret: undefined, clientAddress: '10.0.0.1' })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(store.admitRequest.execute({ secret: undefined, clientAddress: '10.0.0.1' })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(store.admitRequest.execute({ secret: undefined, clientAddress: '10.0.0.1' })).rejects.toMatchObject({ code: 'key_banned' });
  });

  it('hands out the clock the use cases read', () => {
    const ports = inMemoryPorts();
    expect(createPetStore(ports).clock).toBe(ports.clock);
  });
});
