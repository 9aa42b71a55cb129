import { describe, expect, it } from '@jest/globals';
import { pageEntityTag, petEntityTag, versionsNamed } from './entityTags.js';

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
    expect(versionsNamed('*', 7, 'strong')).toBe('*');
    expect(versionsNamed('"p1.7.1", "p1.7.a"', 7, 'strong')).toEqual([1, 10]);
    expect(versionsNamed('W/"p1.7.1"', 7, 'strong')).toEqual([]);
    expect(versionsNamed('W/"p1.7.1"', 7, 'weak')).toEqual([1]);
    // Compared character by character: another spelling of the same numbers is another tag.
    expect(versionsNamed('"p1.7.01"', 7, 'strong')).toEqual([]);
    expect(versionsNamed('"p1.07.1"', 7, 'weak')).toEqual([]);
    expect(versionsNamed('"p1.7.A"', 7, 'strong')).toEqual([]);
    expect(versionsNamed('"p1.8.1"', 7, 'strong')).toEqual([]);
    expect(versionsNamed('"something else"', 7, 'strong')).toEqual([]);
    expect(versionsNamed('"p1.7.1" garbage', 7, 'strong')).toEqual([]);
  });
});
