import type { ConsumeRequest, ConsumeResult, RateLimitStore, ReadRequest, UsageReading } from '../ports/RateLimitStore.js';

interface Counter {
  count: number;
  expiresAt: number;
}

interface Strikes {
  strikes: number;
  strikeUntil: number;
  bannedUntil: number;
}

/**
 * The RateLimitStore of a single process: exact and atomic because JavaScript runs one `consume` at a time.
 * Several server instances need a shared store (Redis). Expired entries are swept at most once a second, so
 * memory is bounded by the subjects seen in the current windows.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly strikes = new Map<string, Strikes>();
  private nextSweep = 0;

  consume({ subject, now, windows, ban }: ConsumeRequest): Promise<ConsumeResult> {
    this.sweep(now);
    const ids = windows.map((w) => `${subject}|${w.name}|${w.start}`);
    const counts = ids.map((id) => this.counters.get(id)?.count ?? 0);
    const record = this.strikes.get(subject);

    if (record && record.bannedUntil > now) return Promise.resolve({ outcome: 'banned', counts, bannedUntil: record.bannedUntil });

    const full = windows.filter((w, i) => counts[i]! >= w.limit);
    if (full.length === 0) {
      windows.forEach((w, i) => this.counters.set(ids[i]!, { count: counts[i]! + 1, expiresAt: w.resetAt }));
      return Promise.resolve({ outcome: 'admitted', counts: counts.map((c) => c + 1) });
    }

    const retryAt = Math.max(...full.map((w) => w.resetAt));
    const next: Strikes =
      record && record.strikeUntil > now
        ? { ...record, strikes: record.strikes + 1 }
        : { strikes: 0, strikeUntil: retryAt, bannedUntil: 0 };
    if (next.strikes >= ban.strikes) {
      const bannedUntil = now + ban.durationSeconds * 1000;
      this.strikes.set(subject, { strikes: 0, strikeUntil: 0, bannedUntil });
      return Promise.resolve({ outcome: 'banned', counts, bannedUntil });
    }
    this.strikes.set(subject, next);
    return Promise.resolve({ outcome: 'rejected', counts, retryAt });
  }

  read({ subject, now, windows }: ReadRequest): Promise<UsageReading> {
    const counts = windows.map((w) => {
      const counter = this.counters.get(`${subject}|${w.name}|${w.start}`);
      return counter && counter.expiresAt > now ? counter.count : 0;
    });
    const bannedUntil = this.strikes.get(subject)?.bannedUntil ?? 0;
    return Promise.resolve({ counts, bannedUntil: bannedUntil > now ? bannedUntil : null });
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 1_000;
    for (const [id, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(id);
    for (const [subject, record] of this.strikes) {
      if (record.bannedUntil <= now && record.strikeUntil <= now) this.strikes.delete(subject);
    }
  }
}
