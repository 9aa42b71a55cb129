import { DomainError } from './DomainError.js';

/** A resend of an event to an endpoint while an earlier resend of it to that endpoint is still pending. */
export class ResendPendingError extends DomainError {
  readonly code = 'resend_pending' as const;

  constructor(
    readonly eventId: string,
    readonly endpointId: string,
  ) {
    super(
      `A resend of ${eventId} to ${endpointId} is already pending: it is attempted and retried on its own; resend again once it has ended (its attempts are in the delivery log).`,
    );
  }
}
