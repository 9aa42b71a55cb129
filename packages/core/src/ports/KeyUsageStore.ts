/** A UTC calendar day, `YYYY-MM-DD`. */
export type UtcDay = string;

/** What one process saw of one key on one UTC day since its last flush. */
export interface KeyUsageIncrement {
  keyId: string;
  day: UtcDay;
  /** Requests to add to that day's count (0 when the key was only seen, not counted). */
  requests: number;
  /** Requests refused by the key's rate limit (answered 429) to add to that day's count of them. */
  limited: number;
  /** The key's latest use in this increment: its last use becomes the later of this and what is stored. */
  lastUsedAt: Date;
}

export interface DailyUsage {
  day: UtcDay;
  /** Requests admitted and counted against the key's quota. */
  requests: number;
  /** Requests refused by the key's rate limit (429): over a limit, or during a ban. */
  limited: number;
}

/**
 * Per-key request counts per UTC day (admitted, and refused by the rate limit) and each key's last use, written in
 * batches (every instance flushes its own increments, so writes add up and never overwrite). Plain rows fit:
 * `(key_id, day) -> (requests, limited)` and `key_id -> last_used_at`. `describeKeyUsageStoreContract` checks every adapter.
 */
export interface KeyUsageStore {
  /**
   * Adds every increment, all or nothing (one transaction): both counts add up, a last use only moves forward. A batch
   * holds at most one increment per key and day.
   */
  add(increments: readonly KeyUsageIncrement[]): Promise<void>;
  /** The days from `from` to `to` (inclusive) with a stored count, oldest first. */
  dailyUsage(keyId: string, from: UtcDay, to: UtcDay): Promise<DailyUsage[]>;
  /** Every key's stored count of admitted requests for one day, by key id (keys without one are left out). */
  requestsOn(day: UtcDay): Promise<ReadonlyMap<string, number>>;
  /** The last use of each of these keys that has one. */
  lastUsedAt(keyIds: readonly string[]): Promise<ReadonlyMap<string, Date>>;
  /** Deletes the counts of the days before `before` (not the last uses); returns how many day counts went. */
  purgeBefore(before: UtcDay): Promise<number>;
}
