import { DomainError } from './DomainError.js';

export class IdempotencyKeyReusedError extends DomainError {
  readonly code = 'idempotency_key_reused' as const;

  constructor() {
    super('This Idempotency-Key was already used with a different request body; use a new key for a new request.');
  }
}

export class IdempotencyInProgressError extends DomainError {
  readonly code = 'idempotency_in_progress' as const;

  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry after it completes.');
  }
}
