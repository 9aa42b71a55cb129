import { describe, expect, it } from '@jest/globals';
import { oncePer } from './oncePer.js';

describe('oncePer', () => {
  /** A warning every 10 s on a clock the test moves, and the values it acted on. */
  function warnings() {
    const clock = { now: 0 };
    const acted: number[] = [];
    const warn = oncePer(
      10_000,
      (value: number) => acted.push(value),
      () => clock.now,
    );
    return { acted, warnAt: (now: number) => warn((clock.now = now)) };
  }

  it('acts on the first call, then once per interval while calls keep coming', () => {
    const { acted, warnAt } = warnings();
    for (let now = 0; now <= 30_000; now += 500) warnAt(now);
    expect(acted).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('acts again at once after a quiet interval', () => {
    const { acted, warnAt } = warnings();
    warnAt(0);
    warnAt(6_000);
    warnAt(10_001);
    expect(acted).toEqual([0, 10_001]);
  });
});
