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
  /**
   * True when ids become visible in ascending order: no pet can later become visible with an id below one already
   * visible. Pets are never changed or deleted, so together this means a page that has a successor (`next`) never
   * changes; a cache of such pages is only correct when this is true. False when a lower id can commit after a
   * higher one (a PostgreSQL sequence, several writers).
   */
  readonly pagesWithSuccessorNeverChange: boolean;
  create(draft: PetDraft): Promise<Pet>;
  findById(id: number): Promise<Pet | null>;
  list(request: PetListRequest): Promise<PetPage>;
}
