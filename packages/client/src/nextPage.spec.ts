import { describe, expect, it } from '@jest/globals';
import { nextPageQuery } from './nextPage.js';

describe('nextPageQuery (Link: rel="next")', () => {
  it('takes the query of the next link among others', () => {
    const link = '<https://api.example.com/v1/pets?limit=2>; rel="prev", <https://api.example.com/v1/pets?limit=2&cursor=abc>; rel="next"';
    expect(nextPageQuery(link)?.toString()).toBe('limit=2&cursor=abc');
    expect(nextPageQuery('</v1/pets?cursor=r1>; rel=next')?.get('cursor')).toBe('r1');
  });

  it('is null on the last page', () => {
    expect(nextPageQuery(null)).toBeNull();
    expect(nextPageQuery('<https://api.example.com/v1/pets>; rel="successor-version"')).toBeNull();
    expect(nextPageQuery('not a link')).toBeNull();
  });
});
