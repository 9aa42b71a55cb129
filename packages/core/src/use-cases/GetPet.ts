import { NotFoundError } from '../errors/NotFoundError.js';
import type { Pet } from '../pet/Pet.js';
import { parsePetId } from '../pet/parsePetId.js';
import type { PetRepository } from '../ports/PetRepository.js';

/** Fetches one animal by id; throws NotFoundError when there is none. */
export class GetPet {
  constructor(private readonly pets: PetRepository) {}

  /** `petId` as a number, or as the decimal text a transport received (any number of digits). */
  async execute(petId: number | string): Promise<Pet> {
    const id = parsePetId(petId);
    const pet = id === null ? null : await this.pets.findById(id);
    if (!pet) throw new NotFoundError(`No pet with id ${String(petId)}.`);
    return pet;
  }
}
