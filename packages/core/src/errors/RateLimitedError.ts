import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from './DomainError.js';

export class RateLimitedError extends DomainError {
  readonly code = 'rate_limited' as const;

  /** `retryAfter` is in whole seconds; `state` describes the windows as rate-limit headers show them. */
  constructor(
    readonly retryAfter: number,
    readonly state: RateLimitState,
    /** The key the request was made with, when it named one (for logs and traces; never in the Error body). */
    readonly keyId: string | null = null,
  ) {
    super(`Rate limit exceeded: retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`);
  }
}
