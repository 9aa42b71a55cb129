import { beforeEach, describe, expect, it } from '@jest/globals';
import { aPetDraft } from '../testing/builders.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { ListPets } from './ListPets.js';
import { eventsOfCreate } from '../events/PetEvent.js';

describe('ListPets', () => {
  let pets: InMemoryPetRepository;
  let listPets: ListPets;

  beforeEach(async () => {
    pets = new InMemoryPetRepository();
    listPets = new ListPets(pets);
    for (let i = 1; i <= 25; i++) await pets.create(aPetDraft({ name: `pet ${i}`, status: i % 5 === 0 ? 'sold' : 'available' }), eventsOfCreate());
  });

  it('returns the first 20 pets by default, with the request for the next page', async () => {
    const page = await listPets.execute();
    expect(page.pets.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(page.next).toEqual({ limit: 20, cursor: expect.any(String) });
    const rest = await listPets.execute(page.next);
    expect(rest).not.toHaveProperty('next');
    expect(rest.pets.map((p) => p.id)).toEqual([21, 22, 23, 24, 25]);
  });

  it('pages through one status with limit and cursor', async () => {
    const first = await listPets.execute({ status: 'sold', limit: 3 });
    expect(first.pets.map((p) => p.id)).toEqual([5, 10, 15]);
    expect(first.next).toEqual({ status: 'sold', limit: 3, cursor: expect.any(String) });
    const second = await listPets.execute(first.next);
    expect(second.pets).toEqual([expect.objectContaining({ id: 20 }), expect.objectContaining({ id: 25 })]);
    expect(second).not.toHaveProperty('next');
  });

  it('has no next page when the page is the last one, even when exactly full', async () => {
    expect(await listPets.execute({ status: 'sold', limit: 5 })).not.toHaveProperty('next');
  });

  it('rejects a bad request without reading anything', async () => {
    let reads = 0;
    const counting = new ListPets({
      create: (...args) => pets.create(...args),
      findById: (id) => pets.findById(id),
      list: (request) => (reads++, pets.list(request)),
      update: (...args) => pets.update(...args),
    });
    await expect(counting.execute({ limit: 101 })).rejects.toMatchObject({ code: 'validation_error' });
    expect(reads).toBe(0);
  });
});
