import { DomainError } from '../errors/DomainError.js';
import type { FieldProblem } from '../errors/ValidationError.js';

/** The per-field problems of the validation error `run` throws; fails if it throws anything else or nothing. */
export function validationProblems(run: () => unknown): readonly FieldProblem[] {
  try {
    run();
  } catch (error) {
    if (DomainError.is(error) && error.code === 'validation_error') return error.details;
    throw error;
  }
  throw new Error('expected a validation error');
}
