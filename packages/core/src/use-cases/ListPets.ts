import type { Pet } from '../pet/Pet.js';
import { encodePetCursor } from '../pet/PetCursor.js';
import { checkListPetsRequest, type ListPetsRequest } from '../pet/ListPetsRequest.js';
import type { PetStatus } from '../pet/PetStatus.js';
import type { PetRepository } from '../ports/PetRepository.js';

/** The request for the next page: the same filter and limit, and the cursor to continue after this page. */
export interface NextPageRequest {
  status?: PetStatus;
  limit: number;
  cursor: string;
}

export interface PetListing {
  /** Ascending by id. */
  pets: Pet[];
  /** Absent on the last page. */
  next?: NextPageRequest;
}

/** One page of animals, optionally of one status; throws ValidationError for an invalid limit, status or cursor. */
export class ListPets {
  constructor(private readonly pets: PetRepository) {}

  async execute(request: ListPetsRequest = {}): Promise<PetListing> {
    const query = checkListPetsRequest(request);
    const page = await this.pets.list(query);
    const listing: PetListing = { pets: page.pets };
    if (page.next !== undefined) {
      listing.next = { limit: query.limit, cursor: encodePetCursor(page.next, query.status) };
      if (query.status !== undefined) listing.next.status = query.status;
    }
    return listing;
  }
}
