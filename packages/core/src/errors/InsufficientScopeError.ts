import type { RateLimitState } from '../access/RateLimitState.js';
import type { Scope } from '../access/Scope.js';
import { DomainError } from './DomainError.js';

/**
 * The key is valid but lacks the scope the operation needs (403, RFC 6750 `insufficient_scope`). The request was
 * counted against the key's quota: `rateLimit` is that state, for the rate-limit headers.
 */
export class InsufficientScopeError extends DomainError {
  readonly code = 'insufficient_scope' as const;

  constructor(
    readonly scope: Scope,
    readonly rateLimit: RateLimitState,
    /** The key that lacks the scope (for logs and traces; never in the Error body). */
    readonly keyId: string | null = null,
  ) {
    super(`This API key lacks the scope ${scope}, which this operation needs.`);
  }
}
