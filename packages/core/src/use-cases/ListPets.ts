import type { Pet } from '../pet/Pet.js';
import { encodePetCursor } from '../pet/PetCursor.js';
import { parseListPetsQuery } from '../pet/parseListPetsQuery.js';
import type { PetRepository } from '../ports/PetRepository.js';

/** The query parameters of the next page, in the order a transport should write them. */
export type NextPageQuery = {
  status?: string;
  limit?: string;
  cursor: string;
};

export interface PetListing {
  /** Ascending by id. */
  pets: Pet[];
  /** The query that asks for the next page (same filter and limit, the next cursor); absent on the last page. */
  next?: NextPageQuery;
}

/** One page of animals, optionally of one status. The input is the raw query (`limit`, `status`, `cursor`). */
export class ListPets {
  constructor(private readonly pets: PetRepository) {}

  async execute(query: Readonly<Record<string, unknown>> = {}): Promise<PetListing> {
    const { limit, status, after } = parseListPetsQuery(query);
    const page = await this.pets.list({ limit, ...(status && { status }), ...(after !== undefined && { after }) });
    if (page.next === undefined) return { pets: page.pets };
    const next: NextPageQuery = {
      ...(status && { status }),
      ...(query['limit'] !== undefined && { limit: String(limit) }),
      cursor: encodePetCursor(page.next, status),
    };
    return { pets: page.pets, next };
  }
}
