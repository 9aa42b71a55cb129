import { beforeEach, describe, expect, it } from '@jest/globals';
import type { NewPet } from '../pet/Pet.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { CreatePet } from './CreatePet.js';

describe('CreatePet', () => {
  let pets: InMemoryPetRepository;
  let createPet: CreatePet;

  beforeEach(() => {
    pets = new InMemoryPetRepository();
    createPet = new CreatePet(pets);
  });

  it('stores the pet and returns it with its new id and default status', async () => {
    const pet = await createPet.execute({ name: 'Rex', categoryId: 3 });
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available', version: 1 });
    expect(await pets.findById(1)).toEqual(pet);
  });

  it('stores nothing when the pet is invalid', async () => {
    await expect(createPet.execute({ id: 9, name: 'Rex', categoryId: 3 } as NewPet)).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'id', message: expect.any(String) }],
    });
    expect(pets.count()).toBe(0);
  });
});
