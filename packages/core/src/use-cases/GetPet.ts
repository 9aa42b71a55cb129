import { GoneError } from '../errors/GoneError.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import type { Pet } from '../pet/Pet.js';
import { parsePetId } from '../pet/parsePetId.js';
import type { Clock } from '../ports/Clock.js';
import type { PetRepository } from '../ports/PetRepository.js';

/** `GET /pets/{petId}` is removed at this instant. */
export const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z');

/**
 * Fetches one animal by id. Deprecated: from the sunset instant on it fails with `gone`; clients use
 * ListPets with the `status` filter instead.
 */
export class GetPet {
  constructor(
    private readonly pets: PetRepository,
    private readonly clock: Clock,
  ) {}

  /** `petId` as a number, or as the decimal text a transport received (any number of digits). */
  async execute(petId: number | string): Promise<Pet> {
    if (this.clock.now().getTime() >= GET_PET_SUNSET.getTime()) {
      throw new GoneError('GET /pets/{petId} was removed on 2030-12-05; use GET /pets with the status filter instead.');
    }
    const id = parsePetId(petId);
    const pet = id === null ? null : await this.pets.findById(id);
    if (!pet) throw new NotFoundError(`No pet with id ${String(petId)}.`);
    return pet;
  }
}
