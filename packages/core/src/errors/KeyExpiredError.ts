import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from './DomainError.js';

/** The key is past its expiry time: a failed authentication (401), counted against the client's address. */
export class KeyExpiredError extends DomainError {
  readonly code = 'key_expired' as const;
  /** The failed-authentication bucket of the client's address, once it has been counted. */
  rateLimit?: RateLimitState;

  constructor(readonly expiredAt: Date) {
    super(`The API key expired at ${expiredAt.toISOString()}: ask whoever issued it for a new expiry or a new key.`);
  }
}
