import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from './DomainError.js';

/** `missing`: no credential was sent; `invalid`: one was sent but is malformed, unknown or revoked. */
export type UnauthorizedReason = 'missing' | 'invalid';

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized' as const;
  /** The failed-authentication bucket of the client's address, once it has been counted. */
  rateLimit?: RateLimitState;

  constructor(readonly reason: UnauthorizedReason) {
    super(reason === 'missing' ? 'An API key is required.' : 'The API key is invalid or has been revoked.');
  }
}
