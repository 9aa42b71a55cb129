// Embedders call the use cases with typed inputs: a misspelt or mistyped field does not compile (checked by
// `pnpm typecheck`, which compiles this file), and a page's `next` is a request to pass back as it is.
import { describe, expect, it } from '@jest/globals';
import { createPetStore } from './createPetStore.js';
import { inMemoryPorts } from './testing/inMemoryPorts.js';

describe('typed inputs for embedders', () => {
  it('refuses misspelt or mistyped fields at compile time', async () => {
    const store = createPetStore(inMemoryPorts());
    const compileOnly = () => {
      // @ts-expect-error `limt` is not a field of ListPetsRequest
      void store.listPets.execute({ limt: 5 });
      // @ts-expect-error a limit is a number, not query-string text
      void store.listPets.execute({ limit: '5' });
      // @ts-expect-error not a pet status
      void store.listPets.execute({ status: 'adopted' });
      // @ts-expect-error `category` is not a field of NewPet
      void store.createPet.execute({ name: 'Rex', category: 1 });
      // @ts-expect-error categoryId is a number
      void store.createPet.execute({ name: 'Rex', categoryId: '1' });
    };
    expect(typeof compileOnly).toBe('function');
  });

  it('returns next as a typed request with a numeric limit, which lists the following page', async () => {
    const store = createPetStore(inMemoryPorts());
    for (const name of ['Rex', 'Mia', 'Bo']) await store.createPet.execute({ name, categoryId: 1 });
    const first = await store.listPets.execute({ limit: 2, status: 'available' });
    expect(first.next).toEqual({ limit: 2, status: 'available', cursor: expect.any(String) });
    const second = await store.listPets.execute(first.next);
    expect(second.pets.map((pet) => pet.name)).toEqual(['Bo']);
    expect(second.next).toBeUndefined();
  });
});
