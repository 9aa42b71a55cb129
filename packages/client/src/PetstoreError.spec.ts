import { describe, expect, it } from '@jest/globals';
import { PetstoreError } from './index.js';

describe('PetstoreError', () => {
  it('is recognised across two copies of the package, where instanceof fails', async () => {
    // The built package is a second copy of the class, as when an application ends up with two installs.
    const copy = await import('../dist/index.js');
    const fromCopy = new copy.PetstoreError({ code: 'rate_limited', status: 429, message: 'Rate limit exceeded.', requestId: 'r-1', retryAfter: 42 });

    expect(fromCopy instanceof PetstoreError).toBe(false);
    expect(PetstoreError.is(fromCopy)).toBe(true);
    expect(copy.PetstoreError.is(new PetstoreError({ code: 'timeout', status: 0, message: 'late' }))).toBe(true);
    expect(fromCopy).toMatchObject({ code: 'rate_limited', status: 429, requestId: 'r-1', retryAfter: 42 });
  });

  it('is not fooled by look-alikes', () => {
    expect([null, undefined, 'rate_limited', new Error('x'), { code: 'rate_limited', status: 429 }].map(PetstoreError.is)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
