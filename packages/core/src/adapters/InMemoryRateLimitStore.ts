import type { ConsumeRequest, ConsumeResult, RateLimitStore, ReadRequest, UsageReading } from '../ports/RateLimitStore.js';

interface Counter {
  subject: string;
  count: number;
  expiresAt: number;
}

export interface InMemoryRateLimitOptions {
  /**
   * How many subjects (keys and client addresses) are tracked at once. Past it, a subject not yet tracked is
   * rejected until the current windows expire: memory stays bounded whatever addresses clients come from, and the
   * bound fails closed rather than forgetting (and so resetting) anyone's count.
   */
  maxSubjects?: number;
}

const DEFAULT_MAX_SUBJECTS = 100_000;

interface Strikes {
  strikes: number;
  strikeUntil: number;
  bannedUntil: number;
}

/**
 * The RateLimitStore of a single process: exact and atomic because JavaScript runs one `consume` at a time.
 * Several server instances need a shared store (Redis). Expired entries are swept at most once a second, and at
 * most `maxSubjects` subjects are tracked, so memory is bounded by that many subjects in the current windows.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private readonly strikes = new Map<string, Strikes>();
  private readonly subjects = new Set<string>();
  private readonly maxSubjects: number;
  private nextSweep = 0;

  constructor({ maxSubjects = DEFAULT_MAX_SUBJECTS }: InMemoryRateLimitOptions = {}) {
    this.maxSubjects = maxSubjects;
  }

  /** How many subjects are tracked now. */
  size(): number {
    return this.subjects.size;
  }

  consume({ subject, now, windows, ban }: ConsumeRequest): Promise<ConsumeResult> {
    this.sweep(now);
    if (!this.subjects.has(subject) && this.subjects.size >= this.maxSubjects) {
      // Reported as full windows, so every rate-limit header says "nothing left" until the earliest reset.
      return Promise.resolve({ outcome: 'rejected', counts: windows.map((w) => w.limit), retryAt: Math.min(...windows.map((w) => w.resetAt)) });
    }
    const ids = windows.map((w) => `${subject}|${w.name}|${w.start}`);
    const counts = ids.map((id) => this.counters.get(id)?.count ?? 0);
    const record = this.strikes.get(subject);

    if (record && record.bannedUntil > now) return Promise.resolve({ outcome: 'banned', counts, bannedUntil: record.bannedUntil });

    const full = windows.filter((w, i) => counts[i]! >= w.limit);
    if (full.length === 0) {
      windows.forEach((w, i) => this.counters.set(ids[i]!, { subject, count: counts[i]! + 1, expiresAt: w.resetAt }));
      this.subjects.add(subject);
      return Promise.resolve({ outcome: 'admitted', counts: counts.map((c) => c + 1) });
    }

    const retryAt = Math.max(...full.map((w) => w.resetAt));
    const next: Strikes =
      record && record.strikeUntil > now ? { ...record, strikes: record.strikes + 1 } : { strikes: 0, strikeUntil: retryAt, bannedUntil: 0 };
    if (next.strikes >= ban.strikes) {
      const bannedUntil = now + ban.durationSeconds * 1000;
      this.strikes.set(subject, { strikes: 0, strikeUntil: 0, bannedUntil });
      this.subjects.add(subject);
      return Promise.resolve({ outcome: 'banned', counts, bannedUntil });
    }
    this.strikes.set(subject, next);
    this.subjects.add(subject);
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
    this.subjects.clear();
    for (const counter of this.counters.values()) this.subjects.add(counter.subject);
    for (const subject of this.strikes.keys()) this.subjects.add(subject);
  }
}
