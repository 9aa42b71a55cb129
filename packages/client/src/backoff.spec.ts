import { describe, expect, it } from '@jest/globals';
import { retryDelayMs, type RetryPolicy } from './backoff.js';

const policy: RetryPolicy = { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 250, maxDelayMs: 2_000 };

describe('retryDelayMs: exponential backoff with full jitter', () => {
  it('draws from 0 up to a step that doubles with each retry', () => {
    expect([1, 2, 3].map((retry) => retryDelayMs(retry, policy, undefined, () => 0))).toEqual([0, 0, 0]);
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(retry, policy, undefined, () => 0.999999))).toEqual([250, 500, 1000, 2000]);
    expect(retryDelayMs(2, policy, undefined, () => 0.5)).toBe(250);
  });

  it('never exceeds maxDelayMs', () => {
    expect(retryDelayMs(30, policy, undefined, () => 0.999999)).toBe(2_000);
  });

  it('never retries before Retry-After: the jitter comes on top of it', () => {
    expect(retryDelayMs(1, policy, 5_000, () => 0)).toBe(5_000);
    expect(retryDelayMs(3, policy, 5_000, () => 0.999999)).toBe(6_000);
  });
});
