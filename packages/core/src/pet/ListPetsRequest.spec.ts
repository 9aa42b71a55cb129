import { describe, expect, it } from '@jest/globals';
import { validationProblems } from '../testing/validationProblems.js';
import { parseListPetsQuery } from './parseListPetsQuery.js';
import { decodePetCursor, encodePetCursor } from './PetCursor.js';

const problemsOf = (query: Record<string, unknown>) => validationProblems(() => parseListPetsQuery(query));

describe('parseListPetsQuery', () => {
  it('defaults to 20 pets, no filter, from the start', () => {
    expect(parseListPetsQuery({})).toEqual({ limit: 20 });
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['007', 7],
    [50, 50],
  ])('accepts limit %p', (limit, expected) => {
    expect(parseListPetsQuery({ limit })).toEqual({ limit: expected });
  });

  it.each(['0', '101', '1.5', 'abc', '', '-1', ' 5', '1e2', '99999', 0, 1.5, true])('rejects limit %p', (limit) => {
    expect(problemsOf({ limit })).toEqual([{ field: 'limit', message: 'limit must be an integer from 1 to 100' }]);
  });

  it.each(['available', 'pending', 'sold'])('filters by status %s', (status) => {
    expect(parseListPetsQuery({ status })).toEqual({ limit: 20, status });
  });

  it.each(['SOLD', 'adopted', ''])('rejects status %p', (status) => {
    expect(problemsOf({ status })).toEqual([{ field: 'status', message: 'status must be one of available, pending, sold' }]);
  });

  it('rejects repeated and unknown parameters by name', () => {
    expect(problemsOf({ status: ['sold', 'pending'], 'limit[]': '3', staus: 'sold' })).toEqual([
      { field: 'status', message: 'status must be given at most once' },
      { field: 'limit[]', message: 'limit[] is not a known query parameter (use limit, status or cursor)' },
      { field: 'staus', message: 'staus is not a known query parameter (use limit, status or cursor)' },
    ]);
    expect(problemsOf({ limit: ['1', '2'] }).map((p) => p.field)).toEqual(['limit']);
  });

  describe('cursor', () => {
    it('carries the id to continue after, for the same status filter', () => {
      expect(parseListPetsQuery({ status: 'sold', cursor: encodePetCursor(42, 'sold') })).toEqual({ limit: 20, status: 'sold', after: 42 });
      expect(parseListPetsQuery({ cursor: encodePetCursor(9007199254740991, undefined) })).toEqual({ limit: 20, after: 9007199254740991 });
    });

    it('is opaque URL-safe text', () => {
      expect(encodePetCursor(42, 'sold')).toMatch(/^[A-Za-z0-9_-]+$/);
    });

    it('rejects a cursor taken from a listing with another status filter', () => {
      const soldCursor = encodePetCursor(42, 'sold');
      expect(problemsOf({ status: 'pending', cursor: soldCursor })).toEqual([
        { field: 'cursor', message: expect.stringContaining('cursor is invalid') },
      ]);
      expect(problemsOf({ cursor: soldCursor }).map((p) => p.field)).toEqual(['cursor']);
    });

    it('rejects tampered, truncated and garbage cursors', () => {
      const cursor = encodePetCursor(42, undefined);
      const forged = Buffer.from(Buffer.from(cursor, 'base64url').toString().replace('42', '43')).toString('base64url');
      for (const bad of [forged, cursor.slice(0, -2), 'abc', '!!', 'x'.repeat(300), Buffer.from('c1.0.x').toString('base64url'), 5]) {
        expect(problemsOf({ cursor: bad }).map((p) => p.field)).toEqual(['cursor']);
      }
      expect(decodePetCursor(forged, undefined)).toBeNull();
    });
  });
});
