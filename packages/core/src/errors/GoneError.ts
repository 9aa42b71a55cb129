import { DomainError } from './DomainError.js';

export class GoneError extends DomainError {
  readonly code = 'gone' as const;

  constructor(message: string) {
    super(message);
  }
}
