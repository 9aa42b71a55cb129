import type { ValidationError } from './ValidationError.js';
import type { UnauthorizedError } from './UnauthorizedError.js';
import type { NotFoundError } from './NotFoundError.js';
import type { RateLimitedError } from './RateLimitedError.js';
import type { KeyBannedError } from './KeyBannedError.js';
import type { ServiceUnavailableError } from './ServiceUnavailableError.js';
import type { IdempotencyInProgressError, IdempotencyKeyReusedError } from './IdempotencyErrors.js';
import type { KeyExpiredError } from './KeyExpiredError.js';
import type { KeyDisabledError } from './KeyDisabledError.js';
import type { InsufficientScopeError } from './InsufficientScopeError.js';
import type { InvalidTransitionError } from './InvalidTransitionError.js';
import type { PreconditionFailedError } from './PreconditionFailedError.js';
import type { ResendPendingError } from './ResendPendingError.js';

/** Every machine-readable code a domain error can carry; transports map each to a status once. */
export type DomainErrorCode =
  | 'validation_error'
  | 'unauthorized'
  | 'key_expired'
  | 'key_disabled'
  | 'insufficient_scope'
  | 'not_found'
  | 'rate_limited'
  | 'key_banned'
  | 'service_unavailable'
  | 'idempotency_key_reused'
  | 'idempotency_in_progress'
  | 'invalid_transition'
  | 'precondition_failed'
  | 'resend_pending';

const BRAND = Symbol.for('petstore.DomainError');

/**
 * Base of all errors the domain throws on purpose. Branded with a global symbol because `instanceof`
 * fails when a package manager or test runner loads two copies of this module; use `DomainError.is`.
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  readonly [BRAND] = true;

  static is(value: unknown): value is AnyDomainError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  protected constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The union `DomainError.is` narrows to, so a transport can switch on `code` exhaustively. */
export type AnyDomainError =
  | ValidationError
  | UnauthorizedError
  | KeyExpiredError
  | KeyDisabledError
  | InsufficientScopeError
  | NotFoundError
  | RateLimitedError
  | KeyBannedError
  | ServiceUnavailableError
  | IdempotencyKeyReusedError
  | IdempotencyInProgressError
  | InvalidTransitionError
  | PreconditionFailedError
  | ResendPendingError;
