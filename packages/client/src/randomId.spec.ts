import { afterEach, describe, expect, it } from '@jest/globals';
import { randomId } from './randomId.js';

describe('randomId', () => {
  afterEach(() => {
    Reflect.deleteProperty(crypto, 'randomUUID');
  });

  it('is 32 hex digits, different each time', () => {
    const ids = new Set(Array.from({ length: 1000 }, randomId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('falls back to getRandomValues where randomUUID is missing (browsers outside secure contexts)', () => {
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    expect(randomId()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomId()).not.toBe(randomId());
  });
});
