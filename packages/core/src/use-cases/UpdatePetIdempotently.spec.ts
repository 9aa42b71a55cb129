import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Pet } from '../pet/Pet.js';
import { aPetDraft } from '../testing/builders.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryIdempotencyStore } from '../testing/InMemoryIdempotencyStore.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { UpdatePet } from './UpdatePet.js';
import { UpdatePetIdempotently } from './UpdatePetIdempotently.js';
import { eventsOfCreate } from '../events/PetEvent.js';

describe('UpdatePetIdempotently', () => {
  let pets: InMemoryPetRepository;
  let update: UpdatePetIdempotently;
  let rex: Pet;

  beforeEach(async () => {
    const clock = new FakeClock('2026-06-01T12:00:00Z');
    pets = new InMemoryPetRepository(clock);
    update = new UpdatePetIdempotently(new UpdatePet(pets, clock), new InMemoryIdempotencyStore(), clock);
    rex = await pets.create(aPetDraft({ status: 'available' }), eventsOfCreate());
  });

  it('replays the first answer to a retry with the same key, changing nothing again', async () => {
    const first = await update.execute({ petId: rex.id, patch: { status: 'pending' }, ifMatch: [1], scope: 'key_a', idempotencyKey: 'adopt-1' });
    expect(first).toEqual({ pet: { ...rex, status: 'pending', version: 2 }, replayed: false });
    // Without the key, the same request would now fail its If-Match.
    const retry = await update.execute({ petId: rex.id, patch: { status: 'pending' }, ifMatch: [1], scope: 'key_a', idempotencyKey: 'adopt-1' });
    expect(retry).toEqual({ pet: first.pet, replayed: true });
    expect(await pets.findById(rex.id)).toEqual(first.pet);
  });

  it('refuses the same key with another change, another pet or another If-Match', async () => {
    await update.execute({ petId: rex.id, patch: { status: 'pending' }, scope: 'key_a', idempotencyKey: 'k' });
    for (const other of [{ patch: { status: 'sold' as const } }, { petId: rex.id + 1 }, { ifMatch: '*' as const }]) {
      await expect(
        update.execute({ petId: rex.id, patch: { status: 'pending' }, ...other, scope: 'key_a', idempotencyKey: 'k' }),
      ).rejects.toMatchObject({
        code: 'idempotency_key_reused',
      });
    }
  });

  it('stores nothing under the key for a refused change, so a corrected retry can use it', async () => {
    await expect(
      update.execute({ petId: rex.id, patch: { status: 'pending' }, ifMatch: [5], scope: 'key_a', idempotencyKey: 'k' }),
    ).rejects.toMatchObject({
      code: 'precondition_failed',
    });
    await expect(
      update.execute({ petId: rex.id, patch: { status: 'pending' }, ifMatch: [1], scope: 'key_a', idempotencyKey: 'k' }),
    ).resolves.toMatchObject({
      replayed: false,
    });
  });

  it('refuses a malformed key before anything else', async () => {
    await expect(update.execute({ petId: rex.id, patch: { status: 'pending' }, scope: 'key_a', idempotencyKey: '' })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });
});
