import { eventsOfCreate } from '../events/PetEvent.js';
import type { NewPet, Pet } from '../pet/Pet.js';
import { draftOf, parseNewPet } from '../pet/parseNewPet.js';
import type { PetRepository } from '../ports/PetRepository.js';

/**
 * Adds an animal; throws ValidationError and stores nothing when it is invalid. The NewPet is checked whoever sends
 * it (a transport reads a client's JSON with `parseNewPet` first).
 */
export class CreatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute(newPet: NewPet): Promise<Pet> {
    return this.pets.create(draftOf(parseNewPet(newPet)), eventsOfCreate());
  }
}
