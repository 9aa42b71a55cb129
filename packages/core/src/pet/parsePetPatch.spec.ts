import { describe, expect, it } from '@jest/globals';
import { validationProblems } from '../testing/validationProblems.js';
import { parsePetPatch } from './parseNewPet.js';

const problemsOf = (body: unknown, literals?: ReadonlyMap<string, string>) => validationProblems(() => parsePetPatch(body, literals));

describe('parsePetPatch', () => {
  it('returns only the fields given, each checked as on create', () => {
    expect(parsePetPatch({ status: 'sold' })).toEqual({ status: 'sold' });
    expect(parsePetPatch({ name: 'Rex', categoryId: 3 })).toEqual({ name: 'Rex', categoryId: 3 });
    expect(parsePetPatch({})).toEqual({});
  });

  it('refuses null for every field: nothing of an animal can be removed', () => {
    expect(problemsOf({ name: null, categoryId: null, status: null })).toEqual([
      { field: 'name', message: expect.stringContaining('must not be null') },
      { field: 'categoryId', message: expect.stringContaining('must not be null') },
      { field: 'status', message: expect.stringContaining('must not be null') },
    ]);
  });

  it('refuses id and unknown fields', () => {
    expect(problemsOf({ id: 3, colour: 'red', status: 'sold' })).toEqual([
      { field: 'id', message: 'id is assigned by the service and must not be sent' },
      { field: 'colour', message: 'colour is not a known field' },
    ]);
  });

  it('applies the rules of create to the fields given', () => {
    expect(problemsOf({ name: ' ', categoryId: 0, status: 'gone' }).map((p) => p.field)).toEqual(['name', 'categoryId', 'status']);
    expect(problemsOf({ name: 'a\u202Eb' }).map((p) => p.field)).toEqual(['name']);
    expect(problemsOf({ categoryId: 1 }, new Map([['categoryId', '1.0']])).map((p) => p.field)).toEqual(['categoryId']);
  });

  it.each([null, [], 'sold', 3])('refuses a body that is not an object: %p', (body) => {
    expect(problemsOf(body)).toEqual([{ field: 'body', message: expect.stringContaining('merge patch') }]);
  });
});
