import { describe, expect, it } from '@jest/globals';
import { entityTag, ifNoneMatchMatches } from './conditionalRequests.js';

describe('entity tags', () => {
  it('are strong, quoted, and derived from the body and the Link alone', () => {
    const tag = entityTag('[{"id":1}]');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(entityTag('[{"id":1}]')).toBe(tag);
    expect(entityTag('[{"id":2}]')).not.toBe(tag);
    expect(entityTag('[{"id":1}]', '<http://x/v1/pets?cursor=a>; rel="next"')).not.toBe(tag);
  });
});

describe('If-None-Match (RFC 9110 weak comparison)', () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", W/"abc"', true],
    ['"x",W/"abc" , "y"', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['abc', false],
    ['"x", abc', false],
    ['"abc', false],
    ['w/"abc"', false],
    ['"x", *', false],
    ['', false],
  ])('%j against "abc" -> %s', (header, expected) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(expected);
  });
});
