import { DomainError } from './DomainError.js';

/** A dependency (database, rate-limit store) cannot answer; adapters throw this instead of driver errors. */
export class ServiceUnavailableError extends DomainError {
  readonly code = 'service_unavailable' as const;

  constructor(
    readonly dependency: string,
    readonly retryAfter = 5,
    options?: ErrorOptions,
  ) {
    super(`The service is temporarily unavailable (${dependency}); retry after ${retryAfter} seconds.`, options);
  }
}
