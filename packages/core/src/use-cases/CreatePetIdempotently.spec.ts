import { beforeEach, describe, expect, it } from '@jest/globals';
import type { NewPet, Pet } from '../pet/Pet.js';
import type { PetRepository } from '../ports/PetRepository.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryIdempotencyStore } from '../testing/InMemoryIdempotencyStore.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { CreatePetIdempotently } from './CreatePetIdempotently.js';
import { DEFAULT_IDEMPOTENCY } from './IdempotentWrites.js';

describe('CreatePetIdempotently', () => {
  let pets: InMemoryPetRepository;
  let store: InMemoryIdempotencyStore;
  let clock: FakeClock;
  let create: CreatePetIdempotently;
  const newPet = { name: 'Rex', categoryId: 1 };

  beforeEach(() => {
    pets = new InMemoryPetRepository();
    store = new InMemoryIdempotencyStore();
    clock = new FakeClock('2026-06-01T12:00:00Z');
    create = new CreatePetIdempotently(pets, store, clock);
  });

  it('creates once and replays the stored pet for a retry with the same key and body', async () => {
    const first = await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'order-1' });
    expect(first).toEqual({ pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available', version: 1 }, replayed: false });
    const retry = await create.execute({ newPet: { categoryId: 1, name: 'Rex' }, scope: 'key_a', idempotencyKey: 'order-1' });
    expect(retry).toEqual({ pet: first.pet, replayed: true });
    expect(pets.count()).toBe(1);
  });

  it('refuses the same key with a different body', async () => {
    await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'order-1' });
    await expect(create.execute({ newPet: { name: 'Max', categoryId: 1 }, scope: 'key_a', idempotencyKey: 'order-1' })).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(pets.count()).toBe(1);
  });

  it('scopes keys to the API key', async () => {
    await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'order-1' });
    expect((await create.execute({ newPet, scope: 'key_b', idempotencyKey: 'order-1' })).replayed).toBe(false);
    expect(pets.count()).toBe(2);
  });

  it('stores nothing for an invalid body, nor for an invalid key', async () => {
    await expect(create.execute({ newPet: { name: '' } as NewPet, scope: 'key_a', idempotencyKey: 'k' })).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect(store.size()).toBe(0);
    expect((await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'k' })).replayed).toBe(false);
    for (const bad of ['', 'x'.repeat(256), 'naïve', 'tab\there']) {
      await expect(create.execute({ newPet, scope: 'key_a', idempotencyKey: bad })).rejects.toMatchObject({
        code: 'validation_error',
        details: [{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' }],
      });
    }
    expect((await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'x'.repeat(255) })).replayed).toBe(false);
  });

  it('forgets the key when the create fails, so a retry can succeed', async () => {
    let fail = true;
    const flaky: PetRepository = {
      ...pets,
      create: (...args) => (fail ? Promise.reject(new Error('down')) : pets.create(...args)),
      findById: (id) => pets.findById(id),
      list: (r) => pets.list(r),
      update: (...args) => pets.update(...args),
    };
    create = new CreatePetIdempotently(flaky, store, clock);
    await expect(create.execute({ newPet, scope: 'key_a', idempotencyKey: 'k' })).rejects.toThrow('down');
    fail = false;
    expect((await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'k' })).replayed).toBe(false);
  });

  it('answers with the created pet when recording it under the key fails: the pet exists, so an error would lie', async () => {
    store.complete = () => Promise.reject(new Error('store down after the insert'));
    const result = await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'k' });
    expect(result).toEqual({ pet: { id: 1, name: 'Rex', categoryId: 1, status: 'available', version: 1 }, replayed: false });
    expect(pets.count()).toBe(1);
  });

  it('makes concurrent duplicates wait for the first and get its pet', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => create.execute({ newPet, scope: 'key_a', idempotencyKey: 'burst' })));
    expect(pets.count()).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r.pet))).size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
  });

  it('answers idempotency_in_progress when the first is still in flight after the wait, waited on the clock', async () => {
    let finish: (pet: Pet) => void = () => undefined;
    let creating: () => void = () => undefined;
    const firstIsCreating = new Promise<void>((resolve) => (creating = resolve));
    const slow: PetRepository = {
      create: () => (creating(), new Promise<Pet>((resolve) => (finish = resolve))),
      findById: () => Promise.resolve(null),
      list: () => Promise.resolve({ pets: [] }),
      update: () => Promise.resolve(null),
    };
    create = new CreatePetIdempotently(slow, store, clock, { ...DEFAULT_IDEMPOTENCY, waitForInFlightMs: 30 });
    const first = create.execute({ newPet, scope: 'key_a', idempotencyKey: 'slow' });
    await firstIsCreating;
    const waitFrom = clock.now().getTime();
    await expect(create.execute({ newPet, scope: 'key_a', idempotencyKey: 'slow' })).rejects.toMatchObject({ code: 'idempotency_in_progress' });
    expect(clock.now().getTime() - waitFrom).toBe(30);
    finish({ id: 1, name: 'Rex', categoryId: 1, status: 'available', version: 1 });
    expect((await first).replayed).toBe(false);
  });

  it('keeps a key 24 hours, then treats it as new, and purges expired keys', async () => {
    await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'day' });
    clock.advance(24 * 3600_000 - 1);
    expect((await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'day' })).replayed).toBe(true);
    clock.advance(1);
    expect((await create.execute({ newPet: { name: 'Other', categoryId: 2 }, scope: 'key_a', idempotencyKey: 'day' })).replayed).toBe(false);
    clock.advance(25 * 3600_000);
    await create.execute({ newPet, scope: 'key_a', idempotencyKey: 'later' });
    expect(store.size()).toBe(1);
  });
});
