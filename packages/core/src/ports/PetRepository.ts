import type { PetChangeEvent } from '../events/PetEvent.js';
import type { Pet, PetDraft } from '../pet/Pet.js';
import type { PetStatus } from '../pet/PetStatus.js';

export interface PetListRequest {
  status?: PetStatus;
  limit: number;
  /** Only pets with an id greater than this one. */
  after?: number;
}

/** When a change was decided, and when the request for it arrived (epoch ms, the service's clock). */
export interface ChangeTiming {
  /** The earliest the change may be dated (it is dated as it is written). */
  at: number;
  requestedAt: number;
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
 *
 * Every read sees every change that has resolved: a `findById` or `list` that starts after a `create` or `update`
 * resolved (in this process or in any other sharing the storage) answers with that change, never an older state.
 * So a page is as true as the storage when it is read, whatever instance reads it, and an entity tag made of the
 * ids and versions it holds changes with any change to it. Keyset positions (`after`) stay valid across changes.
 *
 * Every change stores the events it is given (the domain decides them: `eventsOfCreate`, `eventsOfUpdate`) in its
 * own transaction, each with the pet as the change left it (a transactional outbox, read through the EventLog
 * port). A change that is refused or fails records nothing; a committed change always has its events. Each event is
 * dated as its change is written (an update never before `timing.at`), and its id is made by `generateEventId` of
 * that date.
 */
export interface PetRepository {
  create(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet>;
  findById(id: number): Promise<Pet | null>;
  list(request: PetListRequest): Promise<PetPage>;
  /**
   * Gives the pet `id` the fields of `next` and the version after `expectedVersion`, atomically, and only if its
   * version is still `expectedVersion` and, when `next` changes its status, that status has not changed after
   * `timing.requestedAt`. The change is dated (its event and, for a status change, when the status changed) once it
   * holds whatever orders it with the pet's other changes (a lock), never before `timing.at`: so a change that
   * waited for a lock is dated after the wait, as it commits, and a request that arrived meanwhile is refused a
   * status change. Null when refused (another change came first) or there is no such pet. Of concurrent updates from
   * one version, exactly one succeeds.
   */
  update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | null>;
}
