import type { Pet, PetDraft } from '../pet/Pet.js';
import type { PetStatus } from '../pet/PetStatus.js';

export interface PetListRequest {
  status?: PetStatus;
  limit: number;
  /** Only pets with an id greater than this one. */
  after?: number;
}

export interface PetPage {
  /** Ascending by id, at most `limit` of them. */
  pets: Pet[];
  /** Present when more pets follow: the id to continue after. */
  next?: number;
}

/**
 * Where pets live. Ids are assigned here, ascending, and never reused. Implementations throw
 * ServiceUnavailableError when their storage cannot answer, never a driver error.
 */
export interface PetRepository {
  create(draft: PetDraft): Promise<Pet>;
  findById(id: number): Promise<Pet | null>;
  list(request: PetListRequest): Promise<PetPage>;
}
