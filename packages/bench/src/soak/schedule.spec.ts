import { describe, expect, it } from '@jest/globals';
import { planSoak } from './schedule.js';

describe('planSoak', () => {
  it('plans the 60-minute run in minutes: 5 of warm-up, blocks of 5, drills at minutes 15, 27 and 39 for 30 s', () => {
    expect(planSoak(60)).toEqual({
      durationMs: 3_600_000,
      sliceMs: 60_000,
      warmupSlices: 5,
      blockSlices: 5,
      memorySlices: 5,
      drills: [
        { kind: 'redis', startMs: 900_000, outageMs: 30_000 },
        { kind: 'postgres', startMs: 1_620_000, outageMs: 30_000 },
        { kind: 'instance', startMs: 2_340_000, outageMs: 0 },
      ],
      graceMs: 30_000,
    });
  });

  it('scales the 2-minute CI run down: 2-s slices, 20-s blocks, 8-s outages after the first block, room for half a block after Redis', () => {
    expect(planSoak(2)).toMatchObject({
      sliceMs: 2_000,
      blockSlices: 10,
      memorySlices: 30,
      drills: [
        { kind: 'redis', startMs: 30_000, outageMs: 8_000 },
        { kind: 'postgres', startMs: 64_000, outageMs: 8_000 },
        { kind: 'instance', startMs: 88_000 },
      ],
      graceMs: 8_000,
    });
  });
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
