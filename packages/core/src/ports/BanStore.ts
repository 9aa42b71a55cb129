/** A rate-limit ban as kept across restarts: who (`key:<id>`, `address:<ip>`) and until when (epoch ms). */
export interface SavedBan {
  subject: string;
  bannedUntil: number;
}

/**
 * Where a rate-limit store that lives in one process (InMemoryRateLimitStore) keeps its bans, so that a restart
 * does not lift them. Plain rows fit: `subject -> banned_until_ms`. `describeBanStoreContract` checks every adapter.
 */
export interface BanStore {
  /** Records a ban, replacing any earlier one of the same subject. */
  save(ban: SavedBan): Promise<void>;
  /** Forgets the subject's ban; nothing happens when it has none. */
  remove(subject: string): Promise<void>;
  /** The bans that end after `now` (epoch ms); the ended ones may be deleted meanwhile. */
  inForce(now: number): Promise<SavedBan[]>;
}
