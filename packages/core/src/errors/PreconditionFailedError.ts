import type { Pet } from '../pet/Pet.js';
import { DomainError } from './DomainError.js';

/** The animal is not in the state the caller named (If-Match): `current` is what it is now. */
export class PreconditionFailedError extends DomainError {
  readonly code = 'precondition_failed' as const;

  constructor(readonly current: Pet) {
    super('The animal has changed since the entity tag given in If-Match: read it again (its current ETag is in this answer) and retry.');
  }
}
