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

  it('answers null for all-digit ids of any length beyond 2^53-1, and reads leading zeros of any length', () => {
    expect(parsePetId('9'.repeat(1001))).toBeNull();
    expect(parsePetId(`1${'0'.repeat(5000)}`)).toBeNull();
    expect(parsePetId(`${'0'.repeat(5000)}7`)).toBe(7);
  });

  it.each(['abc', '1.5', '-1', '', ' 1', '1e3', '0x10', 1.5, null])('rejects %p as not a decimal integer', (value) => {
    expect(() => parsePetId(value)).toThrow(
      expect.objectContaining({ code: 'validation_error', details: [{ field: 'petId', message: 'petId must be a positive decimal integer' }] }),
    );
  });
});
