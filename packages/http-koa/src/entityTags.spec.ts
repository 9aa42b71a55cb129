import { describe, expect, it } from '@jest/globals';
import { pageEntityTag, petEntityTag, versionsInIfMatch } from './entityTags.js';

describe('entity tags', () => {
  it('gives a pet a strong tag that changes with its version', () => {
    expect(petEntityTag({ id: 35, version: 1 })).toBe('"p1.z.1"');
    expect(petEntityTag({ id: 35, version: 2 })).not.toBe(petEntityTag({ id: 35, version: 1 }));
  });

  it('gives a page a tag that changes with any version, id, the next page or the scope', () => {
    const pets = [
      { id: 1, version: 1 },
      { id: 2, version: 1 },
    ];
    const tag = pageEntityTag('available20', pets, true);
    expect(tag).toMatch(/^"p1\.[A-Za-z0-9_-]{22}"$/);
    expect(pageEntityTag('available20', pets, true)).toBe(tag);
    expect(pageEntityTag('available20', [pets[0]!, { id: 2, version: 2 }], true)).not.toBe(tag);
    expect(pageEntityTag('available20', [pets[0]!, { id: 3, version: 1 }], true)).not.toBe(tag);
    expect(pageEntityTag('available20', pets, false)).not.toBe(tag);
    expect(pageEntityTag('sold20', pets, true)).not.toBe(tag);
  });

  it('reads the versions of this pet an If-Match names, by strong comparison', () => {
    expect(versionsInIfMatch('*', 7)).toBe('*');
    expect(versionsInIfMatch('"p1.7.1", "p1.7.a"', 7)).toEqual([1, 10]);
    expect(versionsInIfMatch('W/"p1.7.1"', 7)).toEqual([]);
    expect(versionsInIfMatch('"p1.8.1"', 7)).toEqual([]);
    expect(versionsInIfMatch('"something else"', 7)).toEqual([]);
    expect(versionsInIfMatch('"p1.7.1" garbage', 7)).toEqual([]);
  });
});
