import { describe, expect, it } from '@jest/globals';
import { SeenTwice } from './SeenTwice.js';

describe('SeenTwice', () => {
  it('says a key was seen when it comes back within the window', () => {
    const seen = new SeenTwice(100);
    expect(seen.check('a')).toBe(false);
    expect(seen.check('a')).toBe(true);
    expect(seen.check('a')).toBe(true);
  });

  it('forgets everything once the window is full', () => {
    const seen = new SeenTwice(10);
    expect(seen.check('kept?')).toBe(false);
    for (let i = 0; i < 9; i++) seen.check(`other ${i}`);
    expect(seen.check('kept?')).toBe(false);
  });

  it('mostly tells different keys apart', () => {
    const seen = new SeenTwice(1_000);
    let taken = 0;
    for (let i = 0; i < 999; i++) if (seen.check(`status=sold|limit=${i % 100}|cursor=${i}`)) taken++;
    expect(taken).toBeLessThan(10);
  });
});
