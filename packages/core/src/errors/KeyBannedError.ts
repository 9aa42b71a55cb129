import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from './DomainError.js';

export class KeyBannedError extends DomainError {
  readonly code = 'key_banned' as const;

  constructor(
    readonly retryAfter: number,
    readonly state: RateLimitState,
    /** The key the request was made with, when it named one (for logs and traces; never in the Error body). */
    readonly keyId: string | null = null,
  ) {
    super(
      `Too many requests after a rate-limit rejection: temporarily banned for ${retryAfter} more second${retryAfter === 1 ? '' : 's'}. Use exponential backoff.`,
    );
  }
}
