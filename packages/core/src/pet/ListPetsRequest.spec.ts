import { describe, expect, it } from '@jest/globals';
import { validationProblems } from '../testing/validationProblems.js';
import { checkListPetsRequest, readListPetsQuery, type ListPetsRequest } from './ListPetsRequest.js';
import { decodePetCursor, encodePetCursor } from './PetCursor.js';

const LIMIT = [{ field: 'limit', message: 'limit must be an integer from 1 to 100' }];
const STATUS = [{ field: 'status', message: 'status must be one of available, pending, sold' }];

describe('checkListPetsRequest', () => {
  const problemsOf = (request: ListPetsRequest) => validationProblems(() => checkListPetsRequest(request));

  it('defaults to 20 pets, no filter, from the start', () => {
    expect(checkListPetsRequest({})).toEqual({ limit: 20 });
  });

  it.each([1, 50, 100])('accepts limit %p', (limit) => {
    expect(checkListPetsRequest({ limit })).toEqual({ limit });
  });

  it.each([0, 101, 1.5, -1, NaN, '5', true])('rejects limit %p, whatever its type', (limit) => {
    expect(problemsOf({ limit: limit as number })).toEqual(LIMIT);
  });

  it.each(['SOLD', 'adopted', ''])('rejects status %p', (status) => {
    expect(problemsOf({ status: status as 'sold' })).toEqual(STATUS);
  });

  it('lists every problem at once', () => {
    expect(problemsOf({ limit: 0, status: 'adopted' as 'sold' })).toEqual([...LIMIT, ...STATUS]);
  });

  describe('cursor', () => {
    it('carries the id to continue after, for the same status filter', () => {
      expect(checkListPetsRequest({ status: 'sold', cursor: encodePetCursor(42, 'sold') })).toEqual({ limit: 20, status: 'sold', after: 42 });
      expect(checkListPetsRequest({ cursor: encodePetCursor(9007199254740991, undefined) })).toEqual({ limit: 20, after: 9007199254740991 });
    });

    it('can name the start of a listing', () => {
      expect(checkListPetsRequest({ status: 'sold', cursor: encodePetCursor(0, 'sold') })).toEqual({ limit: 20, status: 'sold', after: 0 });
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

    it('accepts only the exact text it wrote: another last character that decodes to the same bytes is refused', () => {
      const cursor = encodePetCursor(420, undefined); // 19 bytes: its last character has 4 unused bits
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const sameBytes = [...alphabet]
        .map((last) => cursor.slice(0, -1) + last)
        .filter((edited) => edited !== cursor && Buffer.from(edited, 'base64url').equals(Buffer.from(cursor, 'base64url')));
      expect(sameBytes.length).toBeGreaterThan(0);
      for (const edited of sameBytes) expect(problemsOf({ cursor: edited }).map((p) => p.field)).toEqual(['cursor']);
    });

    it('rejects tampered, truncated and garbage cursors', () => {
      const cursor = encodePetCursor(42, undefined);
      const forged = Buffer.from(Buffer.from(cursor, 'base64url').toString().replace('42', '43')).toString('base64url');
      for (const bad of [forged, cursor.slice(0, -2), 'abc', '!!', 'x'.repeat(300), Buffer.from('c1.0.x').toString('base64url'), 5]) {
        expect(problemsOf({ cursor: bad as string }).map((p) => p.field)).toEqual(['cursor']);
      }
      expect(decodePetCursor(forged, undefined)).toBeNull();
    });
  });
});

describe('readListPetsQuery', () => {
  const problemsOf = (query: Record<string, unknown>) => validationProblems(() => readListPetsQuery(query));

  it('reads the three parameters from text', () => {
    expect(readListPetsQuery({})).toEqual({});
    expect(readListPetsQuery({ limit: '007', status: 'sold', cursor: 'abc' })).toEqual({ limit: 7, status: 'sold', cursor: 'abc' });
  });

  it.each(['0', '101', '1.5', 'abc', '', '-1', ' 5', '1e2', '99999'])('rejects limit %p', (limit) => {
    expect(problemsOf({ limit })).toEqual(LIMIT);
  });

  it('rejects repeated and unknown parameters by name, with every other problem', () => {
    expect(problemsOf({ status: ['sold', 'pending'], 'limit[]': '3', staus: 'sold', limit: 'x' })).toEqual([
      { field: 'status', message: 'status must be given at most once' },
      { field: 'limit[]', message: 'limit[] is not a known query parameter (use limit, status or cursor)' },
      { field: 'staus', message: 'staus is not a known query parameter (use limit, status or cursor)' },
      ...LIMIT,
    ]);
  });
});
