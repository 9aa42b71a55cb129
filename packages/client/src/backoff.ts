export interface RetryPolicy {
  /** Attempts in all, the first included, for a call that meets 503s, network errors or timeouts. Default 5. */
  maxAttempts: number;
  /** No retry starts once this long has passed since the call began (its waits included). Default 60 s. */
  maxElapsedMs: number;
  /** The backoff step before the first retry; it doubles with each further retry. Default 250 ms. */
  baseDelayMs: number;
  /** The largest backoff step. Default 10 s. */
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the first): exponential backoff with full jitter, a random time
 * between 0 and min(maxDelay, base * 2^(retry-1)), so that clients which failed together do not retry together.
 * With a `Retry-After`, the service's wait comes first and the jitter is added on top: never earlier than asked.
 */
export function retryDelayMs(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round((retryAfterMs ?? 0) + random() * step);
}
