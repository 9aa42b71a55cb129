import { eventsOfCreate } from '../events/PetEvent.js';
import type { NewPet, Pet } from '../pet/Pet.js';
import { checkedNewPet, draftOf } from '../pet/parseNewPet.js';
import type { PetRepository } from '../ports/PetRepository.js';

/**
 * Adds an animal; throws ValidationError and stores nothing when it is invalid. The NewPet is checked whoever sends
 * it: once, by `parseNewPet` (a transport reads a client's JSON with it, and its result is not checked again), or
 * here.
 */
export class CreatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute(newPet: NewPet): Promise<Pet> {
    return this.pets.create(draftOf(checkedNewPet(newPet)), eventsOfCreate());
  }
}
