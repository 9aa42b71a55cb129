import type { Plan } from './Plan.js';
import type { RateLimitState, WindowState } from './RateLimitState.js';

export interface WindowUsage extends WindowState {
  /** Requests counted in this window so far. */
  used: number;
}

/** A key's rate-limit standing, read without counting anything. */
export interface RateLimitUsage {
  keyId: string;
  plan: Plan;
  windows: readonly WindowUsage[];
  /** Unix seconds at which a ban in force ends; null when the key is not banned. */
  bannedUntil: number | null;
  /** What the rate-limit headers show: the binding window, or during a ban nothing remaining until the ban ends. */
  state: RateLimitState;
}
