import { DomainError } from './DomainError.js';

export interface FieldProblem {
  /** The offending field (`name`, `limit`, ...), or `body` when the whole input is wrong. */
  field: string;
  message: string;
}

export class ValidationError extends DomainError {
  readonly code = 'validation_error' as const;

  constructor(readonly details: readonly FieldProblem[]) {
    super(details.length === 1 ? details[0]!.message : `${details.length} fields are invalid: ${details.map((d) => d.field).join(', ')}`);
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}
