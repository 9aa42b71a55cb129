import { describe, expect, it } from '@jest/globals';
import { DomainError } from './DomainError.js';
import { NotFoundError } from './NotFoundError.js';
import { ServiceUnavailableError } from './ServiceUnavailableError.js';
import { ValidationError } from './ValidationError.js';

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
});
