import { describe, expect, it } from '@jest/globals';
import { oncePer } from './oncePer.js';

describe('oncePer', () => {
  it('acts on the first call, then once per interval while calls keep coming', () => {
    let now = 0;
    const acted: number[] = [];
    const warn = oncePer(
      10_000,
      (value: number) => acted.push(value),
      () => now,
    );
    for (now = 0; now <= 30_000; now += 500) warn(now);
    expect(acted).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('acts again at once after a quiet interval', () => {
    let now = 0;
    const acted: number[] = [];
    const warn = oncePer(
      10_000,
      (value: number) => acted.push(value),
      () => now,
    );
    warn(0);
    now = 6_000;
    warn(6_000);
    now = 10_001;
    warn(10_001);
    expect(acted).toEqual([0, 10_001]);
  });
});
