import type { Delivery, DeliveryAttempt, DeliveryState, LoggedAttempt } from '../webhooks/Delivery.js';

export interface AttemptListRequest {
  endpointId: string;
  /** Only attempts older than this position (`at`, then `id`); null from the newest. */
  before: { at: Date; id: string } | null;
  limit: number;
}

/** Which due deliveries one claim takes. */
export interface ClaimRequest {
  now: Date;
  /** When the claimed deliveries become due again, should their attempt never be recorded. */
  leaseUntil: Date;
  /** How many deliveries at most, in all. */
  limit: number;
  /**
   * How many deliveries of one endpoint at most: `slots` for the endpoints it lists (0 for one paused or busy),
   * `perEndpoint` for the others. An endpoint with no share costs the claim nothing, however many deliveries wait.
   */
  perEndpoint: number;
  slots: ReadonlyMap<string, number>;
}

/** What becomes of a delivery after an attempt: tried again at `nextAttemptAt`, or done. */
export type DeliveryOutcome = { state: 'pending'; nextAttemptAt: Date } | { state: Exclude<DeliveryState, 'pending'> };

/**
 * The webhook deliveries, kept in storage so they survive restarts and crashes. `dispatch` turns each recorded event
 * into one delivery per enabled endpoint subscribed to its type, exactly once whatever the number of instances;
 * `claim` hands each due delivery to one caller at a time, for one attempt, and makes it due again at `leaseUntil`
 * in case that caller dies before it records the attempt.
 *
 * An endpoint that fails is **held** (`hold`): the events dispatched meanwhile make no delivery for it, so a failing
 * endpoint costs nothing per event; it keeps its place in the order events were dispatched in. Once its hold is due,
 * each dispatch gives it one delivery (a probe) of the next event it is owed, and waits for that probe's outcome until
 * `probeUntil`. A succeeded attempt recorded for a held endpoint ends the failing: the events it is owed are then
 * given to it in batches, and once it has them all it is live again (given each event as it is dispatched). No event
 * is given to an endpoint twice, nor skipped, whatever the number of instances.
 */
export interface DeliveryQueue {
  /**
   * Dispatches up to `limit` events not dispatched yet, oldest first, with deliveries due at `at` for the live
   * endpoints; then gives the held endpoints whose hold is due what they are owed (a probe of one event while failing,
   * a batch of up to `limit` once an attempt succeeded), each probe waiting for its outcome until `probeUntil`. How
   * many events it dispatched.
   */
  dispatch(at: Date, limit: number, probeUntil: Date): Promise<number>;
  /**
   * Holds each enabled endpoint listed (failing) until the date given for it, keeping its place if held already: no
   * delivery of the events dispatched from now on until then, and then one probe at a time until an attempt succeeds.
   */
  hold(holds: ReadonlyMap<string, Date>): Promise<void>;
  /**
   * A new delivery of one event to one endpoint, due at `at` (a replay); null, and nothing queued, while an earlier
   * replay of that event to that endpoint is pending (a delivery that `dispatch` made does not count). Of concurrent
   * calls for one pair, from any number of instances, one at most queues one.
   */
  enqueue(eventId: string, endpointId: string, at: Date): Promise<Delivery | null>;
  /**
   * Pending deliveries due at `now`, each claimed until `leaseUntil`: up to the endpoint's share of each endpoint, in
   * turns (every endpoint's soonest due delivery before any endpoint's second), soonest due first within a turn.
   */
  claim(request: ClaimRequest): Promise<Delivery[]>;
  /**
   * Records an attempt of a claimed delivery, and what becomes of it. Recording the same attempt again changes
   * nothing (the first record stands), and a delivery already past that attempt keeps its state. Each record stands
   * alone: one that cannot be stored never fails another. A succeeded attempt ends its endpoint's failing (`hold`).
   */
  record(attempt: DeliveryAttempt, outcome: DeliveryOutcome): Promise<void>;
  /** Ends the pending deliveries of an endpoint (disabled) as failed, without another attempt, and its hold; how many. */
  drop(endpointId: string): Promise<number>;
  /** The attempts made to one endpoint, newest first, each with its delivery's next attempt while it waits for one. */
  listAttempts(request: AttemptListRequest): Promise<LoggedAttempt[]>;
  /**
   * What is owed: pending deliveries, events not dispatched yet, and when the oldest of them became due (an event at
   * its time; null when nothing is owed).
   */
  backlog(): Promise<{ pending: number; undispatched: number; oldestDueAt: Date | null }>;
}
