import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from './DomainError.js';

/** The key exists but an operator disabled it (until they enable it again): a failed authentication (401). */
export class KeyDisabledError extends DomainError {
  readonly code = 'key_disabled' as const;
  /** The failed-authentication bucket of the client's address, once it has been counted. */
  rateLimit?: RateLimitState;

  constructor() {
    super('The API key is disabled: ask whoever issued it to enable it again.');
  }
}
