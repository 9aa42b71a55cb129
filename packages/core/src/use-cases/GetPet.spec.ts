import { beforeEach, describe, expect, it } from '@jest/globals';
import { aPetDraft } from '../testing/builders.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { createPetStore } from '../createPetStore.js';
import type { GetPet } from './GetPet.js';
import { eventsOfCreate } from '../events/PetEvent.js';

describe('GetPet', () => {
  let ports: InMemoryPorts;
  let getPet: GetPet;

  beforeEach(() => {
    ({ getPet } = createPetStore((ports = inMemoryPorts('2026-11-22T00:00:00Z'))));
  });

  it('returns the pet with that id, given as digits or a number', async () => {
    const rex = await ports.pets.create(aPetDraft({ name: 'Rex' }), eventsOfCreate());
    expect(await getPet.execute(String(rex.id))).toEqual(rex);
    expect(await getPet.execute(rex.id)).toEqual(rex);
  });

  it.each(['999', '0', '9007199254740992', '123456789012345678901234567890'])('answers not_found for id %s', async (id) => {
    await expect(getPet.execute(id)).rejects.toMatchObject({ code: 'not_found', message: `No pet with id ${id}.` });
  });

  it('rejects an id that is not a decimal integer', async () => {
    await expect(getPet.execute('abc')).rejects.toMatchObject({ code: 'validation_error' });
  });
});
