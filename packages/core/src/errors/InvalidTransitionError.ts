import type { PetStatus } from '../pet/PetStatus.js';
import { DomainError } from './DomainError.js';

/** A status change the transition rules forbid, named with the current status and the statuses allowed from it. */
export class InvalidTransitionError extends DomainError {
  readonly code = 'invalid_transition' as const;

  constructor(
    readonly current: PetStatus,
    readonly requested: PetStatus,
    readonly allowed: readonly PetStatus[],
    reason = `A ${current} animal cannot become ${requested}`,
  ) {
    super(
      `${reason}: its status is ${current}; ${allowed.length === 0 ? `${current} is final, no change of status is allowed` : `allowed next: ${allowed.join(', ')}`}.`,
    );
  }
}
