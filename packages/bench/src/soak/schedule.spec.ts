import { describe, expect, it } from '@jest/globals';
import { planSoak } from './schedule.js';

describe('planSoak', () => {
  // The 60-minute run in minutes: 5 of warm-up, blocks of 5, drills at minutes 15, 27 and 39 for 30 s. The 2-minute CI
  // run scaled down: 2-s slices, 20-s blocks, 8-s outages after the first block, room for half a block after Redis.
  it.each([
    {
      minutes: 60,
      sliceMs: 60_000,
      blockSlices: 5,
      memorySlices: 5,
      drillsAtMs: [900_000, 1_620_000, 2_340_000],
      outageMs: 30_000,
      retentionMs: 600_000,
    },
    { minutes: 2, sliceMs: 2_000, blockSlices: 10, memorySlices: 30, drillsAtMs: [30_000, 64_000, 88_000], outageMs: 8_000, retentionMs: 20_000 },
  ])(
    'plans the $minutes-minute run',
    ({ minutes, sliceMs, blockSlices, memorySlices, drillsAtMs: [redis, postgres, instance], outageMs, retentionMs }) => {
      expect(planSoak(minutes)).toEqual({
        durationMs: minutes * 60_000,
        sliceMs,
        warmupSlices: 5,
        blockSlices,
        memorySlices,
        drills: [
          { kind: 'redis', startMs: redis, outageMs },
          { kind: 'postgres', startMs: postgres, outageMs },
          { kind: 'instance', startMs: instance, outageMs: 0 },
        ],
        graceMs: outageMs,
        retentionMs,
      });
    },
  );
});

describe('planSoak on the scale-out topology', () => {
  it('fails a Redis Cluster master over and restarts PgBouncer where the single topology stops Redis and PostgreSQL, then kills an instance', () => {
    const single = planSoak(3);
    const scaleOut = planSoak(3, 'scale-out');
    expect(scaleOut.drills).toEqual([
      { kind: 'redis-failover', startMs: single.drills[0]!.startMs, outageMs: 0 },
      { kind: 'pgbouncer', startMs: single.drills[1]!.startMs, outageMs: 0 },
      { kind: 'instance', startMs: single.drills[2]!.startMs, outageMs: 0 },
    ]);
    expect({ ...scaleOut, drills: [] }).toEqual({ ...single, drills: [] });
  });
});
