import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { flushKeyUsagePeriodically } from './flushKeyUsage.js';

describe('flushKeyUsagePeriodically', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('flushes on every interval, then once more when stopped, and no longer after', async () => {
    const flush = jest.fn(() => Promise.resolve());
    const stop = flushKeyUsagePeriodically({ flush }, 30_000, () => undefined);
    await jest.advanceTimersByTimeAsync(29_999);
    expect(flush).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(flush).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(flush).toHaveBeenCalledTimes(3);
    await stop();
    expect(flush).toHaveBeenCalledTimes(4);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(flush).toHaveBeenCalledTimes(4);
  });

  it('reports a failed flush and keeps flushing; a failure at shutdown is reported, not thrown', async () => {
    const failure = new Error('database down');
    const flush = jest.fn(() => Promise.reject(failure));
    const errors: unknown[] = [];
    const stop = flushKeyUsagePeriodically({ flush }, 1_000, (error) => errors.push(error));
    await jest.advanceTimersByTimeAsync(2_000);
    await expect(stop()).resolves.toBeUndefined();
    expect(errors).toEqual([failure, failure, failure]);
  });

  it('never keeps the process alive', () => {
    const setInterval = jest.spyOn(globalThis, 'setInterval');
    void flushKeyUsagePeriodically({ flush: () => Promise.resolve() }, 1_000, () => undefined)();
    expect((setInterval.mock.results[0]!.value as NodeJS.Timeout).hasRef()).toBe(false);
  });
});
