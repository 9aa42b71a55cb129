import { afterEach, beforeEach, jest } from '@jest/globals';

/** Fake timers and Date, leaving the microtask machinery that `Response` bodies use alone. */
function useFakeTime(now = '2026-06-01T12:00:10Z'): void {
  jest.useFakeTimers({ now: new Date(now), doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
}

/** Fake time for every test of the enclosing describe, real timers again after each. */
export function withFakeTime(now?: string): void {
  beforeEach(() => useFakeTime(now));
  afterEach(() => {
    jest.useRealTimers();
  });
}

/** Advances fake time in small steps until every promise has settled (at most `maxMs` of fake time). */
export async function settle<T>(promises: Promise<T>[], maxMs = 3_600_000, stepMs = 50): Promise<PromiseSettledResult<T>[]> {
  let done = false;
  const all = Promise.allSettled(promises).then((results) => {
    done = true;
    return results;
  });
  for (let elapsed = 0; !done && elapsed < maxMs; elapsed += stepMs) await jest.advanceTimersByTimeAsync(stepMs);
  return all;
}

/** The value of a settled promise, or the test fails with its reason. */
export function fulfilled<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}
