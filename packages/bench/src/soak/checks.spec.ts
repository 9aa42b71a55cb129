import { describe, expect, it } from '@jest/globals';
import { anInstanceSample } from './testing/anInstanceSample.js';
import { judgeLatency, judgeMemory, judgeQuota, judgeRetention, judgeServerErrors, type DrillWindow } from './checks.js';
import type { ServerError } from './recorder.js';
import { planSoak } from './schedule.js';

const redisDrill: DrillWindow = { kind: 'redis', startMs: 30_000, backMs: 38_000, windowEndMs: 46_000 };
const killDrill: DrillWindow = { kind: 'instance', startMs: 78_000, backMs: 86_000, windowEndMs: 94_000 };
const error = (atMs: number, status: number, extra: Partial<ServerError> = {}): ServerError => ({
  atMs,
  status,
  retryAfter: '5',
  code: 'service_unavailable',
  client: 'page',
  ...extra,
});

describe('judgeServerErrors', () => {
  it('accepts a 503 service_unavailable with Retry-After inside a drill, and a 502 or a cut connection right after the kill', () => {
    const cut = { code: null, retryAfter: null };
    const verdict = judgeServerErrors(
      [error(31_000, 503), error(45_000, 503), error(78_500, 502, cut), error(78_600, 0, cut)],
      [redisDrill, killDrill],
      32,
    );
    expect(verdict).toMatchObject({ pass: true, detail: '4 expected, 0 unexpected' });
  });

  it('refuses a 503 outside every drill, one without Retry-After, a 500, a 502 long after the kill, and no answer', () => {
    const verdict = judgeServerErrors(
      [
        error(20_000, 503),
        error(31_000, 503, { retryAfter: null }),
        error(32_000, 500, { code: 'internal_error' }),
        error(90_000, 502, { code: null }),
        error(33_000, 0, { code: null, retryAfter: null }),
      ],
      [redisDrill, killDrill],
      32,
    );
    expect(verdict.pass).toBe(false);
    expect(verdict.detail).toMatch(/^0 expected, 5 unexpected/);
  });

  it('refuses more 502s than there were connections to be in flight', () => {
    const errors = Array.from({ length: 3 }, () => error(78_100, 502, { code: null }));
    expect(judgeServerErrors(errors, [killDrill], 2).pass).toBe(false);
  });
});

describe('judgeLatency', () => {
  const plan = { ...planSoak(2), blockSlices: 5 }; // 2-s slices, warm-up 5 slices, blocks of 5 (10 s)
  const slices = (p99ByBlock: number[]) =>
    Array.from({ length: 60 }, (_, slice) => {
      const block = Math.floor((slice - 5) / 5);
      const high = slice < 5 ? 1 : (p99ByBlock[block] ?? 1);
      return [...Array.from({ length: 98 }, () => 1), high, high];
    });

  it('passes when every block without a drill stays within 1.5x of the first', () => {
    expect(judgeLatency(slices([10, 14, 10]), plan, [redisDrill]).pass).toBe(true);
  });

  it('fails on a block above 1.5x, and leaves out the slices of a drill', () => {
    expect(judgeLatency(slices([10, 16]), plan, []).pass).toBe(false);
    // Block 2 (slices 15-19: 30-40 s) is in the Redis drill's window (30-46 s).
    expect(judgeLatency(slices([10, 10, 40]), plan, [redisDrill]).pass).toBe(true);
  });

  it('starts the next block after a drill, and judges the quiet end of the run', () => {
    // The drill's window covers slices 15-22; the next block starts at slice 23 (46 s), its p99 40.
    const latencies = slices([10, 10]).map((slice, i) => (i >= 23 && i < 28 ? [...Array.from({ length: 95 }, () => 1), 40, 40, 40, 40, 40] : slice));
    expect(judgeLatency(latencies, plan, [redisDrill])).toMatchObject({ pass: false, detail: expect.stringContaining('(from slice 23)') });
  });

  it('judges a last, shorter block when it holds at least half a block', () => {
    const shortEnd = slices([10]).slice(0, 58); // blocks of 5 from slice 5: the last one has 3 slices
    shortEnd[57] = [...Array.from({ length: 95 }, () => 1), 40, 40, 40, 40, 40];
    expect(judgeLatency(shortEnd, plan, []).pass).toBe(false);
  });
});

describe('judgeMemory', () => {
  const plan = { ...planSoak(2), memorySlices: 5 };

  it('compares the floor of the last window with the floor of the first after warm-up, life by life', () => {
    // a: saws between 100 and 150 MB of RSS, its floor rises 9 MB by the end; b's second life leaks.
    const a = Array.from({ length: 60 }, (_, i) => anInstanceSample(1, i < 5 ? 50 : (i % 2 ? 150 : 100) + (i > 54 ? 9 : 0)));
    const b = Array.from({ length: 60 }, (_, i) => (i < 30 ? anInstanceSample(1, 100) : i < 34 ? null : anInstanceSample(2, 60 + i)));
    const verdicts = judgeMemory({ a, b }, plan);
    expect(verdicts.map((v) => [v.check.split(' flat')[0], v.pass])).toEqual([
      ['RSS and heap of a', true],
      ['RSS and heap of b (life 1)', true],
      ['RSS and heap of b (life 2)', false],
    ]);
  });

  it('judges a slice by the lowest of its reads where it has them, not by the read at its end', () => {
    // The end-of-slice heap lands anywhere on the saw (40 to 130 MB), the floor of each slice's reads is 38 MB throughout.
    const a = Array.from({ length: 60 }, (_, i) => ({
      ...anInstanceSample(1, 150, i > 54 ? 130 : i === 6 ? 40 : 90),
      heapFloorBytes: 38 * 2 ** 20,
      rssFloorBytes: 140 * 2 ** 20,
    }));
    expect(judgeMemory({ a }, plan)[0]).toMatchObject({ pass: true, detail: 'RSS 0.0 %, heap 0.0 %' });
    const leaking = a.map((s, i) => ({ ...s, heapFloorBytes: (38 + i) * 2 ** 20 }));
    expect(judgeMemory({ a: leaking }, plan)[0]).toMatchObject({ pass: false });
  });

  it('does not judge a life too short for two windows after its warm-up', () => {
    const b = Array.from({ length: 60 }, (_, i) => (i < 50 ? null : anInstanceSample(3, 60 + i)));
    expect(judgeMemory({ b }, plan)[0]).toMatchObject({ pass: true, detail: expect.stringMatching(/^not judged: .* had 5 samples/) });
  });
});

describe('judgeQuota', () => {
  it('passes when exactly the admitted requests were counted, give or take those cut by the kill', () => {
    expect(judgeQuota(100, 100, 0).pass).toBe(true);
    expect(judgeQuota(101, 100, 1).pass).toBe(true);
    expect(judgeQuota(103, 100, 1).pass).toBe(false);
    expect(judgeQuota(99, 100, 0).pass).toBe(false);
  });

  it('lets a failed Redis master lose the last counts it had not replicated, and charge nothing more', () => {
    expect(judgeQuota(99, 100, 0, 1).pass).toBe(true);
    expect(judgeQuota(98, 100, 0, 1).pass).toBe(false);
    expect(judgeQuota(101, 100, 0, 1).pass).toBe(false);
  });
});

describe('judgeRetention', () => {
  const plan = planSoak(2); // 2-s slices, a 20-s retention: judged from slice 20
  const rows = (count: (slice: number) => number) =>
    Array.from({ length: 60 }, (_, slice) => (slice === 30 ? null : { events: count(slice), deliveries: count(slice), attempts: 2 * count(slice) }));

  it('passes rows that level off once the retention is reached, a sample missing (PostgreSQL down) or not', () => {
    const verdict = judgeRetention(
      rows((slice) => Math.min(slice, 22) * 100 + (slice % 3) * 40),
      plan,
    );
    expect(verdict).toMatchObject({ pass: true, detail: expect.stringMatching(/^events 2280 -> 2280 \(x1\.00\)/) });
  });

  it('fails rows that keep growing with the load', () => {
    const verdict = judgeRetention(
      rows((slice) => 1_000 + slice * 100),
      plan,
    );
    expect(verdict.pass).toBe(false);
    expect(verdict.detail).toContain('events 4300 -> 6900 (x1.60)');
  });

  it('shows, without judging, a run too short to reach twice the retention', () => {
    expect(judgeRetention(rows((slice) => slice).slice(0, 25), plan)).toMatchObject({
      pass: true,
      detail: 'not judged: 5 samples after twice the retention',
    });
  });
});
