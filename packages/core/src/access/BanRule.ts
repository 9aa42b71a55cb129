/**
 * Once a subject has been rejected in a window, it is told to wait until its Retry-After. A further request before
 * then is a strike only when it arrives at least `strikeIntervalSeconds` after that first rejection and after the
 * previous strike: requests already in flight when the first 429 was answered, a burst, count once at most. At
 * `strikes` strikes the subject is banned for `durationSeconds`; a client must keep going for `strikes` times the
 * interval after being told to wait to be banned.
 */
export interface BanRule {
  strikes: number;
  durationSeconds: number;
  strikeIntervalSeconds: number;
}

export const DEFAULT_BAN_RULE: BanRule = { strikes: 10, durationSeconds: 15 * 60, strikeIntervalSeconds: 1 };
