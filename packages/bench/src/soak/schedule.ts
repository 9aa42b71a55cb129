/** The three outages a soak run goes through, in this order. */
export type DrillKind = 'redis' | 'postgres' | 'instance';

export interface PlannedDrill {
  kind: DrillKind;
  /** Milliseconds from the start of the load. */
  startMs: number;
  /** How long the dependency (or the instance) stays away. */
  outageMs: number;
}

export interface SoakPlan {
  durationMs: number;
  /** One sample per slice: a minute of the 60-minute run, 1/60 of any run. */
  sliceMs: number;
  /** Slices before this are warm-up: not judged. */
  warmupSlices: number;
  /** Slices per judged block of latency (p99 over fewer requests is noise in a short run). */
  blockSlices: number;
  drills: PlannedDrill[];
  /** After a dependency is back, how long its drill's window stays open (503s still allowed, latency not judged). */
  graceMs: number;
}

export const SLICES_PER_RUN = 60;

/**
 * The run of `minutes`, scaled from the 60-minute one: 60 slices (minutes there), 5 of warm-up, drills at a quarter,
 * 45 % and 65 % of the run, each 30 s long (a fifteenth of a shorter run: 8 s in the 2-minute CI run), each followed
 * by a grace as long as the outage.
 */
export function planSoak(minutes: number): SoakPlan {
  const durationMs = Math.round(minutes * 60_000);
  const outageMs = Math.min(30_000, Math.round(durationMs / 15));
  const drill = (kind: DrillKind, share: number): PlannedDrill => ({ kind, startMs: Math.round(durationMs * share), outageMs });
  return {
    durationMs,
    sliceMs: durationMs / SLICES_PER_RUN,
    warmupSlices: 5,
    blockSlices: 5,
    drills: [drill('redis', 0.25), drill('postgres', 0.45), drill('instance', 0.65)],
    graceMs: outageMs,
  };
}
