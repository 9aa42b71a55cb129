import { describe, expect, it } from '@jest/globals';
import { DomainError } from './DomainError.js';
import { NotFoundError } from './NotFoundError.js';
import { ServiceUnavailableError } from './ServiceUnavailableError.js';
import { MAX_LISTED_PROBLEMS, ValidationError } from './ValidationError.js';

describe('DomainError', () => {
  it('recognises its errors by brand, even across copies of the module', () => {
    const copy = Object.assign(new Error('x'), { [Symbol.for('petstore.DomainError')]: true, code: 'not_found' });
    expect(DomainError.is(new NotFoundError('nope'))).toBe(true);
    expect(DomainError.is(copy)).toBe(true);
    expect(DomainError.is(new Error('plain'))).toBe(false);
    expect(DomainError.is(null)).toBe(false);
    expect(DomainError.is('not_found')).toBe(false);
  });

  it('carries a stable code, a message and, for validation, details', () => {
    const error = new ValidationError([{ field: 'name', message: 'name is required' }]);
    expect(error).toMatchObject({ code: 'validation_error', message: 'name is required', name: 'ValidationError' });
    expect(new ServiceUnavailableError('database')).toMatchObject({ code: 'service_unavailable', retryAfter: 5 });
  });

  it('lists at most 20 problems, and says how many there were', () => {
    const problems = Array.from({ length: 1800 }, (_, i) => ({ field: `unknown${i}`, message: `unknown${i} is not a known field` }));
    const error = new ValidationError(problems);
    expect(error.details).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(error.details[0]).toEqual(problems[0]);
    expect(error.message).toMatch(/^1800 fields are invalid: unknown0, .*unknown19 \(the first 20 are listed\)$/);
  });
});
