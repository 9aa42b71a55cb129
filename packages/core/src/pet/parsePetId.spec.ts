import { describe, expect, it } from '@jest/globals';
import { parsePetId } from './parsePetId.js';

describe('parsePetId', () => {
  it.each([
    ['1', 1],
    ['0042', 42],
    ['9007199254740991', 9007199254740991],
    [17, 17],
  ])('reads %p', (value, id) => {
    expect(parsePetId(value)).toBe(id);
  });

  it.each(['0', '9007199254740992', '99999999999999999999999999'])('answers null for %p, an id no pet can have', (value) => {
    expect(parsePetId(value)).toBeNull();
  });

  it.each(['abc', '1.5', '-1', '', ' 1', '1e3', '0x10', 1.5, null])('rejects %p as not a decimal integer', (value) => {
    expect(() => parsePetId(value)).toThrow(expect.objectContaining({ code: 'validation_error', details: [{ field: 'petId', message: 'petId must be a positive decimal integer' }] }));
  });
});
