/**
 * What the soak runs on. `single`: one PostgreSQL and one Redis, taken away in turn. `scale-out`: PostgreSQL behind
 * PgBouncer in transaction mode and a Redis Cluster of 3 masters with a replica each, whose master fails over and
 * whose pooler restarts.
 */
export type Topology = 'single' | 'scale-out';
export const TOPOLOGIES: readonly Topology[] = ['single', 'scale-out'];

/**
 * The three outages a soak run goes through, in this order: on `single`, Redis stopped, PostgreSQL stopped, an
 * instance killed; on `scale-out`, a Redis Cluster master killed (its replica takes over), PgBouncer restarted, an
 * instance killed.
 */
export type DrillKind = 'redis' | 'postgres' | 'redis-failover' | 'pgbouncer' | 'instance';

export interface PlannedDrill {
  kind: DrillKind;
  /** Milliseconds from the start of the load. */
  startMs: number;
  /**
   * How long the dependency stays away (the killed instance and PgBouncer are restarted at once, as an orchestrator
   * would; a killed Redis master stays dead, its replica takes over).
   */
  outageMs: number;
}

export interface SoakPlan {
  durationMs: number;
  /** One sample per slice: a minute of the 60-minute run, 1/60 of any run. */
  sliceMs: number;
  /** Slices before this are warm-up: not judged. */
  warmupSlices: number;
  /** Latency is judged per block of this many slices: at least 20 s, so that a p99 rests on thousands of answers. */
  blockSlices: number;
  /**
   * Memory is judged on windows of this many slices (at least 60 s, longer than a garbage-collection cycle under
   * load), after a warm-up of as many, in each life of an instance.
   */
  memorySlices: number;
  drills: PlannedDrill[];
  /** After a dependency is back, how long its drill's window stays open (503s still allowed, latency not judged). */
  graceMs: number;
  /** EVENT_RETENTION of the instances: a sixth of the run, from 10 s to 10 min, so that the run sees it reached. */
  retentionMs: number;
}

const SLICES_PER_RUN = 60;

/**
 * The run of `minutes`, scaled from the 60-minute one: 60 slices (minutes there), 5 of warm-up, then a first block
 * of latency before any drill; drills at a quarter of the run (or after that first block, if later) and every fifth of
 * the run after it (Redis and PostgreSQL further apart in a short run), each outage 30 s long (a fifteenth of a shorter run: 8 s in the
 * 2-minute CI run) and followed by a grace as long. The scale-out topology's drills take place at the same times
 * with the same grace: a master failover and a PgBouncer restart, each of them its own outage.
 */
export function planSoak(minutes: number, topology: Topology = 'single'): SoakPlan {
  const durationMs = Math.round(minutes * 60_000);
  const sliceMs = durationMs / SLICES_PER_RUN;
  const warmupSlices = 5;
  const blockSlices = Math.max(5, Math.ceil(20_000 / sliceMs));
  const outageMs = Math.min(30_000, Math.round(durationMs / 15));
  const first = Math.max(Math.round(durationMs * 0.25), (warmupSlices + blockSlices) * sliceMs);
  const gap = Math.round(durationMs * 0.2);
  // In a short run, PostgreSQL's outage waits until half a block of latency has followed Redis' window.
  const second = first + Math.max(gap, 2 * outageMs + (Math.ceil(blockSlices / 2) + 4) * sliceMs);
  return {
    durationMs,
    sliceMs,
    warmupSlices,
    blockSlices,
    memorySlices: Math.max(5, Math.ceil(60_000 / sliceMs)),
    drills:
      topology === 'single'
        ? [
            { kind: 'redis', startMs: first, outageMs },
            { kind: 'postgres', startMs: second, outageMs },
            { kind: 'instance', startMs: second + gap, outageMs: 0 },
          ]
        : [
            { kind: 'redis-failover', startMs: first, outageMs: 0 },
            { kind: 'pgbouncer', startMs: second, outageMs: 0 },
            { kind: 'instance', startMs: second + gap, outageMs: 0 },
          ],
    graceMs: outageMs,
    retentionMs: Math.min(600_000, Math.max(10_000, Math.round(durationMs / 6))),
  };
}
