import { DEFAULT_BAN_RULE, type BanRule } from '../access/BanRule.js';
import { countedWindows, type WindowLimits } from '../access/countedWindows.js';
import { bindingWindow, type RateLimitState } from '../access/RateLimitState.js';
import { KeyBannedError } from '../errors/KeyBannedError.js';
import { RateLimitedError } from '../errors/RateLimitedError.js';
import type { Clock } from '../ports/Clock.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';

export type { WindowLimits } from '../access/countedWindows.js';

function secondsUntil(instant: number, now: number): number {
  return Math.max(1, Math.ceil((instant - now) / 1000));
}

/**
 * Counts one request of a subject in fixed windows aligned to the UTC clock (a minute window resets at the next
 * whole minute, a day window at 00:00 UTC). Returns the state for the rate-limit headers, or throws
 * RateLimitedError / KeyBannedError (both carrying that state and a Retry-After in whole seconds).
 */
export class EnforceRateLimit {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
    private readonly ban: BanRule = DEFAULT_BAN_RULE,
  ) {}

  /**
   * `now` (epoch ms) lets a caller that has read the clock for this request share that reading; `keyId`, the key the
   * subject counts for, is carried by the errors, so that a refusal can be traced to its key.
   */
  async execute(subject: string, limits: WindowLimits, now = this.clock.now().getTime(), keyId: string | null = null): Promise<RateLimitState> {
    const windows = countedWindows(now, limits);
    const result = await this.store.consume({ subject, now, windows, ban: this.ban });

    const states = windows.map((window, i) => ({
      name: window.name,
      limit: window.limit,
      remaining: Math.max(0, window.limit - (result.counts[i] ?? 0)),
      reset: window.resetAt / 1000,
    }));
    const binding = bindingWindow(states);
    const state: RateLimitState = { limit: binding.limit, remaining: binding.remaining, reset: binding.reset, windows: states };

    switch (result.outcome) {
      case 'admitted':
        return state;
      case 'rejected':
        throw new RateLimitedError(secondsUntil(result.retryAt, now), { ...state, remaining: 0 }, keyId);
      case 'banned': {
        // During a ban nothing may be sent until it ends, whatever the windows still hold: every header says so.
        const reset = Math.ceil(result.bannedUntil / 1000);
        const windows = states.map((window) => ({ ...window, remaining: 0, reset }));
        throw new KeyBannedError(secondsUntil(result.bannedUntil, now), { ...state, remaining: 0, reset, windows }, keyId);
      }
    }
  }
}
