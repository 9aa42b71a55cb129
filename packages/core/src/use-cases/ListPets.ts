import type { Pet } from '../pet/Pet.js';
import { encodePetCursor } from '../pet/PetCursor.js';
import { parseListPetsQuery } from '../pet/parseListPetsQuery.js';
import type { PetRepository } from '../ports/PetRepository.js';

export interface PetListing {
  /** Ascending by id. */
  pets: Pet[];
  /** Pass as `cursor` to get the next page; absent on the last page. */
  nextCursor?: string;
}

/** One page of animals, optionally of one status. The input is the raw query (`limit`, `status`, `cursor`). */
export class ListPets {
  constructor(private readonly pets: PetRepository) {}

  async execute(query: Readonly<Record<string, unknown>> = {}): Promise<PetListing> {
    const { limit, status, after } = parseListPetsQuery(query);
    const page = await this.pets.list({ limit, ...(status && { status }), ...(after !== undefined && { after }) });
    return page.next === undefined ? { pets: page.pets } : { pets: page.pets, nextCursor: encodePetCursor(page.next, status) };
  }
}
