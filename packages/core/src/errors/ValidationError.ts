import { DomainError } from './DomainError.js';

export interface FieldProblem {
  /** The offending field (`name`, `limit`, ...), or `body` when the whole input is wrong. */
  field: string;
  message: string;
}

/** How many problems an error lists: a body or query with a thousand unknown names gets a short answer. */
export const MAX_LISTED_PROBLEMS = 20;

export class ValidationError extends DomainError {
  readonly code = 'validation_error' as const;
  /** The first MAX_LISTED_PROBLEMS problems; the message says how many there were. */
  readonly details: readonly FieldProblem[];

  constructor(problems: readonly FieldProblem[]) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const names = listed.map((d) => d.field).join(', ');
    super(
      problems.length === 1
        ? problems[0]!.message
        : `${problems.length} fields are invalid: ${names}${problems.length > listed.length ? ` (the first ${listed.length} are listed)` : ''}`,
    );
    this.details = listed;
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}
