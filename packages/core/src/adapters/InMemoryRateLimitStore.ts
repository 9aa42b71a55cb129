import type {
  ConsumeRequest,
  ConsumeResult,
  CountedWindow,
  RateLimitStore,
  ReadRequest,
  ReleaseRequest,
  UsageReading,
} from '../ports/RateLimitStore.js';

/** One window's count for one subject; a window is named by its name and start. */
interface Counter {
  name: string;
  start: number;
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
  /** When the last strike counted (or the episode's first rejection happened). */
  struckAt: number;
  bannedUntil: number;
}

/** The strike record after a rejection at `now`: one more strike if the interval has passed since the last one. */
function nextStrikes(record: Strikes | undefined, now: number, retryAt: number, intervalMs: number): Strikes {
  if (record === undefined || record.strikeUntil <= now) return { strikes: 0, strikeUntil: retryAt, struckAt: now, bannedUntil: 0 };
  return now - record.struckAt >= intervalMs ? { ...record, strikes: record.strikes + 1, struckAt: now } : record;
}

function counterOf(counters: readonly Counter[] | undefined, window: CountedWindow): Counter | undefined {
  if (counters === undefined) return undefined;
  for (const counter of counters) if (counter.start === window.start && counter.name === window.name) return counter;
  return undefined;
}

/**
 * The RateLimitStore of a single process: exact and atomic because JavaScript runs one `consume` at a time.
 * Several server instances need a shared store (Redis). Expired entries are swept at most once a second, and at
 * most `maxSubjects` subjects are tracked, so memory is bounded by that many subjects in the current windows.
 * Counters are updated in place (a subject's few counters in one small array): this runs on every request.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter[]>();
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
    const subjectCounters = this.counters.get(subject);
    const counts = new Array<number>(windows.length);
    let retryAt = 0;
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i]!;
      counts[i] = counterOf(subjectCounters, window)?.count ?? 0;
      if (counts[i]! >= window.limit) retryAt = Math.max(retryAt, window.resetAt);
    }
    const record = this.strikes.get(subject);

    if (record && record.bannedUntil > now) return Promise.resolve({ outcome: 'banned', counts, bannedUntil: record.bannedUntil });

    if (retryAt === 0) {
      this.count(subject, subjectCounters, windows);
      for (let i = 0; i < counts.length; i++) counts[i]!++;
      return Promise.resolve({ outcome: 'admitted', counts });
    }

    const next = nextStrikes(record, now, retryAt, ban.strikeIntervalSeconds * 1000);
    if (next.strikes >= ban.strikes) {
      const bannedUntil = now + ban.durationSeconds * 1000;
      this.strikes.set(subject, { strikes: 0, strikeUntil: 0, struckAt: 0, bannedUntil });
      this.subjects.add(subject);
      return Promise.resolve({ outcome: 'banned', counts, bannedUntil });
    }
    this.strikes.set(subject, next);
    this.subjects.add(subject);
    return Promise.resolve({ outcome: 'rejected', counts, retryAt });
  }

  read({ subject, now, windows }: ReadRequest): Promise<UsageReading> {
    const subjectCounters = this.counters.get(subject);
    const counts = windows.map((w) => {
      const counter = counterOf(subjectCounters, w);
      return counter && counter.expiresAt > now ? counter.count : 0;
    });
    const bannedUntil = this.strikes.get(subject)?.bannedUntil ?? 0;
    return Promise.resolve({ counts, bannedUntil: bannedUntil > now ? bannedUntil : null });
  }

  release({ subject, now, windows }: ReleaseRequest): Promise<void> {
    const subjectCounters = this.counters.get(subject);
    for (const window of windows) {
      const counter = counterOf(subjectCounters, window);
      if (counter && counter.expiresAt > now && counter.count > 0) counter.count--;
    }
    return Promise.resolve();
  }

  unban(subject: string): Promise<void> {
    this.strikes.delete(subject);
    return Promise.resolve();
  }

  private count(subject: string, subjectCounters: Counter[] | undefined, windows: readonly CountedWindow[]): void {
    let counters = subjectCounters;
    if (counters === undefined) {
      counters = [];
      this.counters.set(subject, counters);
      this.subjects.add(subject);
    }
    for (const window of windows) {
      const counter = counterOf(counters, window);
      if (counter) counter.count++;
      else counters.push({ name: window.name, start: window.start, count: 1, expiresAt: window.resetAt });
    }
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 1_000;
    for (const [subject, counters] of this.counters) {
      const live = counters.filter((counter) => counter.expiresAt > now);
      if (live.length === 0) this.counters.delete(subject);
      else if (live.length < counters.length) this.counters.set(subject, live);
    }
    for (const [subject, record] of this.strikes) {
      if (record.bannedUntil <= now && record.strikeUntil <= now) this.strikes.delete(subject);
    }
    this.subjects.clear();
    for (const subject of this.counters.keys()) this.subjects.add(subject);
    for (const subject of this.strikes.keys()) this.subjects.add(subject);
  }
}
