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
   * How many client addresses (the `address:` subjects of callers without a valid key) are tracked at once. Past it,
   * an address not yet tracked is rejected until the current windows expire: memory stays bounded whatever addresses
   * clients come from, and the bound fails closed rather than forgetting (and so resetting) anyone's count. Keys have
   * a table of their own with no such bound: only a valid key reaches it, so its size is bounded by the keys an
   * operator issued, and no flood of addresses can crowd a key out.
   */
  maxAddresses?: number;
  /**
   * Hears every ban as it starts (`bannedUntil`, epoch ms) and every unban (null), to keep them elsewhere across a
   * restart (`openInProcessRateLimits`). Called synchronously, on the request path: hand the write off, do not wait.
   */
  onBanChange?: (subject: string, bannedUntil: number | null) => void;
}

const DEFAULT_MAX_ADDRESSES = 100_000;

/** Callers counted by their address: they have shown no valid key. */
const isAnonymous = (subject: string) => subject.startsWith('address:');

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

function counterOf(counters: readonly Counter[] | undefined, window: Pick<CountedWindow, 'name' | 'start'>): Counter | undefined {
  if (counters === undefined) return undefined;
  for (const counter of counters) if (counter.start === window.start && counter.name === window.name) return counter;
  return undefined;
}

/**
 * The RateLimitStore of a single process: exact and atomic because JavaScript runs one `consume` at a time.
 * Several server instances need a shared store (Redis). Expired entries are swept at most once a second, and at
 * most `maxAddresses` client addresses are tracked beside the keys, so memory is bounded by that many addresses and
 * the keys in use in the current windows.
 * Counters are updated in place (a subject's few counters in one small array): this runs on every request.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter[]>();
  private readonly strikes = new Map<string, Strikes>();
  /** The addresses tracked now (the keyed subjects are not bounded: see InMemoryRateLimitOptions). */
  private readonly addresses = new Set<string>();
  private readonly maxAddresses: number;
  private nextSweep = 0;

  private readonly onBanChange: (subject: string, bannedUntil: number | null) => void;

  constructor({ maxAddresses = DEFAULT_MAX_ADDRESSES, onBanChange = () => undefined }: InMemoryRateLimitOptions = {}) {
    this.maxAddresses = maxAddresses;
    this.onBanChange = onBanChange;
  }

  /**
   * Raises a subject's count in one window to `count` (never lowers it): to start from what was counted before a
   * restart. Nothing is heard by `onBanChange`.
   */
  restoreCount(subject: string, window: Omit<CountedWindow, 'limit'>, count: number): void {
    let counters = this.counters.get(subject);
    if (counters === undefined) this.counters.set(subject, (counters = []));
    const counter = counterOf(counters, window);
    if (counter) counter.count = Math.max(counter.count, count);
    else counters.push({ name: window.name, start: window.start, count, expiresAt: window.resetAt });
    this.track(subject);
  }

  /** Bans a subject until `bannedUntil` (epoch ms) unless a later ban is in force: to keep a ban across a restart. */
  restoreBan(subject: string, bannedUntil: number): void {
    const record = this.strikes.get(subject);
    if (record && record.bannedUntil >= bannedUntil) return;
    this.strikes.set(subject, { strikes: 0, strikeUntil: 0, struckAt: 0, bannedUntil });
    this.track(subject);
  }

  /** How many client addresses are tracked now. */
  addressCount(): number {
    return this.addresses.size;
  }

  consume({ subject, now, windows, ban }: ConsumeRequest): Promise<ConsumeResult> {
    this.sweep(now);
    if (this.addresses.size >= this.maxAddresses && isAnonymous(subject) && !this.addresses.has(subject)) {
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
      this.track(subject);
      this.onBanChange(subject, bannedUntil);
      return Promise.resolve({ outcome: 'banned', counts, bannedUntil });
    }
    this.strikes.set(subject, next);
    this.track(subject);
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
    this.onBanChange(subject, null);
    return Promise.resolve();
  }

  private count(subject: string, subjectCounters: Counter[] | undefined, windows: readonly CountedWindow[]): void {
    let counters = subjectCounters;
    if (counters === undefined) {
      counters = [];
      this.counters.set(subject, counters);
      this.track(subject);
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
    this.addresses.clear();
    for (const subject of this.counters.keys()) this.track(subject);
    for (const subject of this.strikes.keys()) this.track(subject);
  }

  private track(subject: string): void {
    if (isAnonymous(subject)) this.addresses.add(subject);
  }
}
