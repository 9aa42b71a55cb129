import { dayNumberOf, utcDayOf } from '../access/UtcDay.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyUsageIncrement, KeyUsageStore } from '../ports/KeyUsageStore.js';

/** The shortest retention the service promises for usage per day. */
export const MIN_KEY_USAGE_RETENTION_DAYS = 90;

/** One key's use in this process since the last flush, on its latest UTC day. */
interface Tally {
  day: number;
  requests: number;
  limited: number;
  /** Epoch ms. */
  lastUsedAt: number;
}

const incrementOf = (keyId: string, { day, requests, limited, lastUsedAt }: Tally): KeyUsageIncrement => ({
  keyId,
  day: utcDayOf(day),
  requests,
  limited,
  lastUsedAt: new Date(lastUsedAt),
});

/**
 * Keeps each key's last use and its requests per UTC day (admitted, and refused by its rate limit) in memory, on the
 * request path (a map lookup and two additions), and writes them to the KeyUsageStore when `flush` is called: no
 * write per request. The embedder calls `flush` on a timer (the app: every 30 s, so a last use is at most that old
 * plus one write) and at shutdown. Writes add up, so every instance flushes its own tallies. A failed flush keeps
 * what it could not write for the next one. The first flush of each UTC day also purges the days older than the
 * retention.
 */
export class KeyUsageRecorder {
  private tallies = new Map<string, Tally>();
  /** Earlier days of keys whose tally moved on to a new day since the last flush. */
  private closedDays: KeyUsageIncrement[] = [];
  /** What a failed flush could not write. */
  private unwritten: KeyUsageIncrement[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private purgedOnDay: number | null = null;

  constructor(
    private readonly store: KeyUsageStore,
    private readonly clock: Clock,
    readonly retentionDays = MIN_KEY_USAGE_RETENTION_DAYS,
  ) {
    if (!Number.isSafeInteger(retentionDays) || retentionDays < MIN_KEY_USAGE_RETENTION_DAYS) {
      throw new RangeError(`key usage retention must be a whole number of days from ${MIN_KEY_USAGE_RETENTION_DAYS} (got ${retentionDays})`);
    }
  }

  /** One authenticated request of `keyId` at `now` (epoch ms); `counted` when it counted against the key's quota. */
  record(keyId: string, now: number, counted: boolean): void {
    const tally = this.tallyOf(keyId, now);
    if (counted) tally.requests++;
  }

  /** One authenticated request of `keyId` at `now` (epoch ms) refused by the key's rate limit (over a limit, or banned). */
  recordLimited(keyId: string, now: number): void {
    this.tallyOf(keyId, now).limited++;
  }

  /** The key's tally for the day of `now`, its last use moved to `now` when later. */
  private tallyOf(keyId: string, now: number): Tally {
    const day = dayNumberOf(now);
    const tally = this.tallies.get(keyId);
    if (tally === undefined) {
      const first = { day, requests: 0, limited: 0, lastUsedAt: now };
      this.tallies.set(keyId, first);
      return first;
    }
    if (day !== tally.day) {
      this.closedDays.push(incrementOf(keyId, tally));
      tally.day = day;
      tally.requests = 0;
      tally.limited = 0;
    }
    if (now > tally.lastUsedAt) tally.lastUsedAt = now;
    return tally;
  }

  /** Writes everything recorded so far (one batch); flushes run one after another, never at once. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = this.takeBatch();
    if (batch.length > 0) {
      try {
        await this.store.add(batch);
      } catch (error) {
        this.unwritten = batch;
        throw error;
      }
    }
    const today = dayNumberOf(this.clock.now().getTime());
    if (this.purgedOnDay !== today) {
      await this.store.purgeBefore(utcDayOf(today - this.retentionDays));
      this.purgedOnDay = today;
    }
  }

  /** Everything pending, one increment per key and day (the store's batches hold no duplicates). */
  private takeBatch(): KeyUsageIncrement[] {
    const pending = [...this.unwritten, ...this.closedDays];
    for (const [keyId, tally] of this.tallies) pending.push(incrementOf(keyId, tally));
    this.unwritten = [];
    this.closedDays = [];
    this.tallies = new Map();

    const merged = new Map<string, KeyUsageIncrement>();
    for (const increment of pending) {
      const id = `${increment.keyId} ${increment.day}`;
      const known = merged.get(id);
      if (known === undefined) merged.set(id, increment);
      else
        merged.set(id, {
          ...known,
          requests: known.requests + increment.requests,
          limited: known.limited + increment.limited,
          lastUsedAt: known.lastUsedAt > increment.lastUsedAt ? known.lastUsedAt : increment.lastUsedAt,
        });
    }
    return [...merged.values()];
  }
}
