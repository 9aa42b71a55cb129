import type { Pet } from '../pet/Pet.js';
import { parseNewPet, type NumberLiterals } from '../pet/parseNewPet.js';
import type { PetRepository } from '../ports/PetRepository.js';

/** Adds an animal from a client's NewPet (any JSON value); throws ValidationError and stores nothing when it is invalid. */
export class CreatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute(body: unknown, numberLiterals?: NumberLiterals): Promise<Pet> {
    return this.pets.create(parseNewPet(body, numberLiterals));
  }
}
