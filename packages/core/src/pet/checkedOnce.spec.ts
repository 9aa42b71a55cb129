import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '../errors/ValidationError.js';
import { eventsOfCreate } from '../events/PetEvent.js';
import { aPetDraft } from '../testing/builders.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryIdempotencyStore } from '../testing/InMemoryIdempotencyStore.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { CreatePetIdempotently } from '../use-cases/CreatePetIdempotently.js';
import { UpdatePet } from '../use-cases/UpdatePet.js';
import { UpdatePetIdempotently } from '../use-cases/UpdatePetIdempotently.js';
import { checkedNewPet, checkedPetPatch, parseNewPet, parsePetPatch, type CheckedPetPatch } from './parseNewPet.js';

/** `fields` with a `name` that counts how often it is read (a check reads it the same number of times each time). */
function countingReads<T extends object>(fields: T, name: string): { body: T & { name: string }; reads: () => number } {
  let reads = 0;
  const body = { ...fields } as T & { name: string };
  Object.defineProperty(body, 'name', { enumerable: true, get: () => (reads++, name) });
  return { body, reads: () => reads };
}

describe('a request body checked once', () => {
  it('is what the parser made, frozen, and taken as it is; anything else is checked', () => {
    const patch = parsePetPatch({ name: 'Rex' });
    expect(Object.isFrozen(patch)).toBe(true);
    expect(checkedPetPatch(patch)).toBe(patch);
    const newPet = parseNewPet({ name: 'Rex', categoryId: 1 });
    expect(Object.isFrozen(newPet)).toBe(true);
    expect(checkedNewPet(newPet)).toBe(newPet);

    expect(checkedPetPatch({ name: 'Max' })).toEqual({ name: 'Max' });
    expect(() => checkedPetPatch({ name: '' })).toThrow(ValidationError);
    expect(() => checkedNewPet({ name: 'Rex', categoryId: 0 })).toThrow(ValidationError);
    // A brand is a type alone: a cast skips no check.
    const forged = { name: '\u0002' } as CheckedPetPatch;
    expect(() => checkedPetPatch(forged)).toThrow(ValidationError);
  });

  it('of a change, is checked once on its way through UpdatePetIdempotently and UpdatePet', async () => {
    const clock = new FakeClock();
    const pets = new InMemoryPetRepository(clock);
    const rex = await pets.create(aPetDraft(), eventsOfCreate());
    const update = new UpdatePetIdempotently(new UpdatePet(pets, clock), new InMemoryIdempotencyStore(), clock);
    const once = countingReads({}, 'Max');
    parsePetPatch(once.body);
    const { body, reads } = countingReads({}, 'Max');
    await update.execute({ petId: rex.id, patch: body, scope: 'key_a', idempotencyKey: 'rename-1' });
    expect(reads()).toBe(once.reads());
    expect(await pets.findById(rex.id)).toMatchObject({ name: 'Max', version: 2 });
  });

  it('of a new pet, is checked once by CreatePetIdempotently', async () => {
    const clock = new FakeClock();
    const pets = new InMemoryPetRepository(clock);
    const create = new CreatePetIdempotently(pets, new InMemoryIdempotencyStore(), clock);
    const once = countingReads({ categoryId: 1 }, 'Max');
    parseNewPet(once.body);
    const { body, reads } = countingReads({ categoryId: 1 }, 'Max');
    const { pet } = await create.execute({ newPet: body, scope: 'key_a', idempotencyKey: 'add-1' });
    expect(reads()).toBe(once.reads());
    expect(pet).toMatchObject({ name: 'Max', categoryId: 1, status: 'available' });
  });
});
