import { describe, expect, it } from '@jest/globals';
import type { PurgedHistory } from '@petstore/core';
import { eventually } from '@petstore/test-support';
import { HistoryPurger, purgeIntervalOf } from './HistoryPurger.js';

type Batch = PurgedHistory & { more: boolean };
const none: Batch = { events: 0, deliveries: 0, attempts: 0, more: false };

describe('the history purger', () => {
  it('purges batch after batch until one is not full, reports what it deleted, then waits for the next interval', async () => {
    const batches: Batch[] = [{ events: 2, deliveries: 2, attempts: 2, more: true }, { events: 1, deliveries: 0, attempts: 2, more: false }, none];
    const purged: PurgedHistory[] = [];
    const purger = new HistoryPurger(
      { execute: async () => batches.shift() ?? none },
      1,
      (p) => purged.push(p),
      (error) => {
        throw error;
      },
    );
    purger.start();
    // The third purge (an interval later) deleted nothing: not reported.
    await eventually(() => batches.length === 0);
    await purger.stop();
    expect(purged).toEqual([{ events: 3, deliveries: 2, attempts: 4 }]);
  });

  it('reports a failed purge and tries again at the next interval; stopping waits for the batch under way', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    let release: () => void = () => undefined;
    const purger = new HistoryPurger(
      {
        execute: async () => {
          calls++;
          if (calls === 1) throw new Error('database down');
          await new Promise<void>((resolve) => (release = resolve));
          return { ...none, events: 1 };
        },
      },
      1,
      () => undefined,
      (error) => errors.push(error),
    );
    purger.start();
    await eventually(() => calls === 2);
    expect(errors).toEqual([new Error('database down')]);
    let stopped = false;
    const stopping = purger.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(calls).toBe(2);
  });

  it('purges every tenth of the retention, from a second to a minute', () => {
    expect(purgeIntervalOf(10_000)).toBe(1_000);
    expect(purgeIntervalOf(200_000)).toBe(20_000);
    expect(purgeIntervalOf(30 * 86_400_000)).toBe(60_000);
  });
});
