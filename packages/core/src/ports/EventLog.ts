import type { PetEvent } from '../events/PetEvent.js';

/** A place in the event order (`at`, then `id`). */
export interface EventPosition {
  at: Date;
  id: string;
}

export interface EventListRequest {
  /** Only events strictly older than this position (in `at`, then `id` order); null from the newest. */
  before: EventPosition | null;
  /** At most this many events (1 or more). */
  limit: number;
}

/**
 * The events the PetRepository records with each change (a transactional outbox: an event exists exactly when its
 * change was committed). Read-only here; `describePetRepositoryContract` checks an adapter of both ports together, as the events are
 * written by the repository's changes.
 */
export interface EventLog {
  /** Newest first: descending `at`, then descending `id`. */
  listEvents(request: EventListRequest): Promise<PetEvent[]>;
  /** The events of these ids that exist, in any order (a delivery round reads its events at once). */
  findEvents(ids: readonly string[]): Promise<PetEvent[]>;
}
