import { describe, expect, it } from '@jest/globals';
import { validationProblems } from '../testing/validationProblems.js';
import { draftOf, parseNewPet } from './parseNewPet.js';

const problemsOf = (body: unknown) => validationProblems(() => parseNewPet(body));

describe('parseNewPet', () => {
  it('accepts a minimal pet, which is stored with the status `available`', () => {
    expect(parseNewPet({ name: 'Rex', categoryId: 1 })).toEqual({ name: 'Rex', categoryId: 1 });
    expect(draftOf({ name: 'Rex', categoryId: 1 })).toEqual({ name: 'Rex', categoryId: 1, status: 'available' });
  });

  it.each(['available', 'pending', 'sold'])('keeps the status %s', (status) => {
    expect(parseNewPet({ name: 'Rex', categoryId: 1, status })).toEqual({ name: 'Rex', categoryId: 1, status });
  });

  it('accepts the boundaries: 1 and 100 characters, categoryId 1 and 2^53-1, an emoji of one code point counted as one', () => {
    expect(parseNewPet({ name: 'R', categoryId: 1 }).name).toBe('R');
    expect(parseNewPet({ name: 'x'.repeat(100), categoryId: 9007199254740991 }).categoryId).toBe(9007199254740991);
    expect(parseNewPet({ name: '🐶'.repeat(100), categoryId: 2 }).name).toBe('🐶'.repeat(100));
    expect(parseNewPet({ name: '  Rex  ', categoryId: 2 }).name).toBe('  Rex  ');
  });

  it("counts Unicode code points, as JSON Schema's maxLength does: a skin-toned or joined emoji or a flag counts as several", () => {
    const tooLong = [{ field: 'name', message: 'name must be 1 to 100 characters (Unicode code points) long' }];
    for (const [emoji, codePoints] of [
      ['👍🏽', 2],
      ['👨‍👩‍👧‍👦', 7],
      ['🇫🇷', 2],
      ['e\u0301', 2],
    ] as const) {
      const fits = Math.floor(100 / codePoints);
      expect(parseNewPet({ name: emoji.repeat(fits), categoryId: 1 }).name).toBe(emoji.repeat(fits));
      expect(problemsOf({ name: emoji.repeat(fits + 1), categoryId: 1 })).toEqual(tooLong);
    }
    expect(problemsOf({ name: `R${'\u0301'.repeat(1000)}`, categoryId: 1 })).toEqual(tooLong);
  });

  it('says a categoryId too large for a JSON number is out of range, not that it is a string', () => {
    const body = JSON.parse(`{"name":"Rex","categoryId":${'9'.repeat(1000)}}`) as unknown;
    expect(problemsOf(body)).toEqual([{ field: 'categoryId', message: 'categoryId must be between 1 and 9007199254740991' }]);
  });

  it.each([
    ['\u200B', 'visible'],
    ['\u200B\u200C\u2060', 'visible'],
    ['\u3164', 'visible'],
    ['\u00AD', 'visible'],
    ['\u0301', 'visible'],
    ['\u2800', 'visible'],
    ['\u2800\u2800', 'visible'],
    ['\uFFFE', 'visible'],
    ['\uFDD0', 'visible'],
    ['Rex\u202E', 'bidirectional'],
    ['\u2066Rex\u2069', 'bidirectional'],
    ['Rex\u200F', 'bidirectional'],
    ['Rex\u061C', 'bidirectional'],
    ['Rex\u2028Max', 'line or paragraph separators'],
    ['Rex\u2029', 'line or paragraph separators'],
  ])('rejects the name %j (no %s character allowed / required)', (name, words) => {
    expect(problemsOf({ name: JSON.parse(`"${name}"`) as string, categoryId: 1 })).toEqual([
      { field: 'name', message: expect.stringContaining(words) },
    ]);
  });

  it('keeps names with invisible characters around visible ones, such as a joiner inside an emoji', () => {
    expect(parseNewPet({ name: 'Ré\u0301x 👨‍👩‍👧', categoryId: 1 }).name).toBe('Ré\u0301x 👨‍👩‍👧');
    expect(parseNewPet({ name: 'Rex\u2800Max', categoryId: 1 }).name).toBe('Rex\u2800Max');
  });

  it.each([null, [], [{ name: 'Rex', categoryId: 1 }], 'Rex', 42, true, undefined])('rejects a body that is not an object: %p', (body) => {
    expect(problemsOf(body)).toEqual([{ field: 'body', message: expect.stringContaining('JSON object') }]);
  });

  it('rejects a categoryId whose JSON text has a fraction or exponent, though the parsed value is an integer', () => {
    for (const text of ['4.9999999999999999', '1.0', '1e0', '10E-1']) {
      const body = JSON.parse(`{"name":"Rex","categoryId":${text}}`) as unknown;
      expect(() => parseNewPet(body, new Map([['categoryId', text]]))).toThrow(
        expect.objectContaining({ details: [{ field: 'categoryId', message: expect.stringContaining('fraction or exponent') }] }),
      );
    }
    expect(parseNewPet({ name: 'Rex', categoryId: 5 }, new Map([['categoryId', '5']])).categoryId).toBe(5);
  });

  it('requires name and categoryId, each reported by name', () => {
    expect(problemsOf({})).toEqual([
      { field: 'name', message: 'name is required' },
      { field: 'categoryId', message: 'categoryId is required' },
    ]);
  });

  it.each([
    [123, 'name must be a string'],
    [null, 'name is required'],
    ['', 'name must be 1 to 100 characters (Unicode code points) long'],
    ['x'.repeat(101), 'name must be 1 to 100 characters (Unicode code points) long'],
    ['   ', 'name must contain at least one visible character'],
    ['Re\nx', 'name must not contain control characters'],
    ['Re\u0000x', 'name must not contain control characters'],
    ['Re\u007fx', 'name must not contain control characters'],
    ['Rex\ud800', 'name must be valid Unicode text (no unpaired surrogates)'],
    ['\udc00Rex', 'name must be valid Unicode text (no unpaired surrogates)'],
  ])('rejects the name %p: %s', (name, message) => {
    expect(problemsOf({ name, categoryId: 1 })).toEqual([{ field: 'name', message }]);
  });

  it.each([
    ['1', 'categoryId must be an integer (a JSON number, not a string)'],
    [1.5, 'categoryId must be an integer (a JSON number, not a string)'],
    [true, 'categoryId must be an integer (a JSON number, not a string)'],
    [Number.NaN, 'categoryId must be an integer (a JSON number, not a string)'],
    [0, 'categoryId must be between 1 and 9007199254740991'],
    [-3, 'categoryId must be between 1 and 9007199254740991'],
    [9007199254740992, 'categoryId must be between 1 and 9007199254740991'],
    [1e300, 'categoryId must be between 1 and 9007199254740991'],
    [null, 'categoryId is required'],
  ])('rejects the categoryId %p, never coercing it', (categoryId, message) => {
    expect(problemsOf({ name: 'Rex', categoryId })).toEqual([{ field: 'categoryId', message }]);
  });

  it.each([null, 'Available', 'adopted', '', 1])('rejects the status %p (null included)', (status) => {
    expect(problemsOf({ name: 'Rex', categoryId: 1, status })).toEqual([
      { field: 'status', message: 'status must be one of available, pending, sold' },
    ]);
  });

  it('rejects unknown properties by name, a client-sent id included', () => {
    expect(problemsOf({ id: 5, name: 'Rex', categoryId: 1, colour: 'brown' })).toEqual([
      { field: 'id', message: 'id is assigned by the service and must not be sent' },
      { field: 'colour', message: 'colour is not a known field' },
    ]);
  });

  it('reports every invalid field at once', () => {
    expect(problemsOf({ name: '', categoryId: 'x', status: 'gone' }).map((p) => p.field)).toEqual(['name', 'categoryId', 'status']);
  });

  it('treats an own __proto__ key as an unknown field and pollutes nothing', () => {
    const body = JSON.parse('{"name":"Rex","categoryId":1,"__proto__":{"polluted":true}}') as unknown;
    expect(problemsOf(body)).toEqual([{ field: '__proto__', message: '__proto__ is not a known field' }]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('names the problem in the error message', () => {
    expect(() => parseNewPet({ name: 'Rex' })).toThrow('categoryId is required');
    expect(() => parseNewPet({})).toThrow('2 fields are invalid: name, categoryId');
  });
});
