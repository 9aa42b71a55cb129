import type { BanRule } from '../access/BanRule.js';
import type { WindowName } from '../access/RateLimitState.js';

export interface CountedWindow {
  name: WindowName;
  /** Epoch milliseconds at which this window started and at which it resets: the pair names the window. */
  start: number;
  resetAt: number;
  limit: number;
}

export interface ConsumeRequest {
  /** Who is counted: `key:<id>` or `address:<ip>`. */
  subject: string;
  /** Epoch milliseconds. */
  now: number;
  windows: readonly CountedWindow[];
  ban: BanRule;
}

export interface ReadRequest {
  subject: string;
  /** Epoch milliseconds. */
  now: number;
  windows: readonly CountedWindow[];
}

/** The windows an earlier `consume` counted in (named by `name` and `start`), to give that count back. */
export interface ReleaseRequest {
  subject: string;
  /** Epoch milliseconds. */
  now: number;
  windows: readonly CountedWindow[];
}

/** `counts` follow the order of the request's windows; `bannedUntil` is null unless a ban is in force at `now`. */
export interface UsageReading {
  counts: number[];
  bannedUntil: number | null;
}

/** `counts` follow the order of the request's windows. */
export type ConsumeResult =
  | { outcome: 'admitted'; counts: number[] }
  | { outcome: 'rejected'; counts: number[]; retryAt: number }
  | { outcome: 'banned'; counts: number[]; bannedUntil: number };

/**
 * Counts requests per subject in fixed windows, and keeps the ban bookkeeping, in ONE atomic step per request
 * (N concurrent calls against a remaining quota of k admit exactly k). The semantics, which every implementation
 * follows and `describeRateLimitStoreContract` checks:
 * 1. While `bannedUntil > now`: `banned`, nothing counted.
 * 2. If every window's count is below its limit: each count goes up by one, `admitted`.
 * 3. Otherwise `rejected`, nothing counted; `retryAt` is the latest `resetAt` among the full windows. If an earlier
 *    rejection's `retryAt` is still ahead, this is one more strike when at least `ban.strikeIntervalSeconds` have
 *    passed since the last strike (or since that first rejection), and nothing more otherwise; else the strikes
 *    restart at zero with the new `retryAt`, from `now`. At `ban.strikes` strikes the subject is banned until
 *    `now + ban.durationSeconds`: `banned`. A burst of concurrent requests past the limit is never a ban.
 * Entries expire on their own once their window (or ban) is over.
 * `read` reports the same counts and ban without changing anything: no count, no strike (with no windows, the ban alone).
 * `release` gives one count back in each named window that has not ended at `now`, never below zero, and changes no
 * strike or ban: it undoes an admission whose request then failed because a dependency was down.
 * `unban` lifts a ban in force and forgets the strikes, so the subject's next request is judged on its counts
 * alone; the counts stay as they are.
 */
export interface RateLimitStore {
  consume(request: ConsumeRequest): Promise<ConsumeResult>;
  read(request: ReadRequest): Promise<UsageReading>;
  release(request: ReleaseRequest): Promise<void>;
  unban(subject: string): Promise<void>;
}
