import type { ServerError } from './recorder.js';
import type { InstanceSample, RetainedRows } from './sampler.js';
import type { DrillKind, SoakPlan } from './schedule.js';

/** One check of the run: printed, and the run fails when any fails. */
export interface Verdict {
  check: string;
  pass: boolean;
  detail: string;
}

/** A drill as it happened, in milliseconds since the load started. */
export interface DrillWindow {
  kind: DrillKind;
  startMs: number;
  /** When the dependency answered again (the instance was restarted). */
  backMs: number;
  /** The end of the drill's window: back plus the grace. */
  windowEndMs: number;
}

/** The answers to requests in flight on the instance that was killed arrive within this of the kill. */
const IN_FLIGHT_MS = 5_000;

/**
 * Which server errors are the documented behaviour of a drill: during the window of a dependency's outage, a 503
 * `service_unavailable` with Retry-After from the service; at the kill of an instance, for each request that was in flight on it (whether it
 * took effect is unknown), a 502 from the proxy or a connection the proxy closed, at most one per connection.
 * Anything else is a failure.
 */
export function judgeServerErrors(errors: readonly ServerError[], drills: readonly DrillWindow[], connections: number): Verdict {
  const expected = (error: ServerError) =>
    drills.some(
      (drill) =>
        error.atMs >= drill.startMs &&
        error.atMs <= drill.windowEndMs &&
        ((error.status === 503 && error.retryAfter !== null && error.code === 'service_unavailable' && drill.kind !== 'instance') ||
          ((error.status === 502 || error.status === 0) && drill.kind === 'instance' && error.atMs <= drill.startMs + IN_FLIGHT_MS)),
    );
  const unexpected = errors.filter((error) => !expected(error));
  const badGateways = errors.filter((error) => error.status === 502 || error.status === 0).length;
  const pass = unexpected.length === 0 && badGateways <= connections;
  const shown = unexpected
    .slice(0, 5)
    .map((e) => `${e.status || 'no answer'} ${e.code ?? ''} at ${(e.atMs / 1000).toFixed(1)} s (${e.client})`)
    .join('; ');
  return {
    check: 'no 5xx outside the drills (a 503 with Retry-After inside one; a 502 or a cut connection for a request in flight at the kill)',
    pass,
    detail: `${errors.length - unexpected.length} expected, ${unexpected.length} unexpected${shown ? `: ${shown}` : ''}${badGateways > connections ? `; ${badGateways} 502s or cut connections for ${connections} connections` : ''}`,
  };
}

export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const overlaps = (fromMs: number, toMs: number, drills: readonly DrillWindow[]) => drills.some((d) => d.startMs < toMs && d.windowEndMs > fromMs);

/**
 * p99 of the 2xx answers in blocks of `plan.blockSlices` slices after warm-up (minutes 5-10, 10-15, ... of the
 * 60-minute run), each at most 1.5 times the first block's. A drill's window ends a block and the next one starts
 * after it; a block shorter than half a block (between two drills, at the end) is not judged.
 */
export function judgeLatency(latenciesBySlice: readonly (readonly number[])[], plan: SoakPlan, drills: readonly DrillWindow[]): Verdict {
  const blocks: { from: number; p99: number | null }[] = [];
  let from = plan.warmupSlices;
  const close = (to: number) => {
    if (to - from >= plan.blockSlices / 2) {
      const merged = latenciesBySlice
        .slice(from, to)
        .flat()
        .sort((a, b) => a - b);
      blocks.push({ from, p99: quantile(merged, 0.99) });
    }
  };
  for (let slice = plan.warmupSlices; slice < latenciesBySlice.length; slice++) {
    if (overlaps(slice * plan.sliceMs, (slice + 1) * plan.sliceMs, drills)) {
      close(slice);
      from = slice + 1;
    } else if (slice + 1 - from === plan.blockSlices) {
      close(slice + 1);
      from = slice + 1;
    }
  }
  close(latenciesBySlice.length);
  const first = blocks[0];
  const baseline = first && first.from === plan.warmupSlices ? first.p99 : null;
  const judged = blocks.slice(1);
  const worst = judged.reduce<{ from: number; p99: number | null } | null>((w, b) => (w === null || (b.p99 ?? 0) > (w.p99 ?? 0) ? b : w), null);
  const limit = baseline === null ? null : baseline * 1.5;
  const pass = baseline !== null && judged.every((block) => block.p99 !== null && block.p99 <= limit!);
  return {
    check: 'p99 within 1.5x of the first block after warm-up',
    pass,
    detail:
      baseline === null
        ? 'no first block to compare with (no 2xx, or a drill in it)'
        : `first block ${baseline.toFixed(1)} ms; ${judged.length} later blocks judged, worst ${worst?.p99?.toFixed(1) ?? '-'} ms (from slice ${worst?.from ?? '-'}), limit ${limit!.toFixed(1)} ms`,
  };
}

/**
 * RSS and heap of each life of each instance (a restarted instance is a new life): after a warm-up of
 * `plan.memorySlices`, the floor (lowest sample) of its last `memorySlices` at most 10 % above the floor of its first
 * `memorySlices`. Floors, because the heap saws up and down with every garbage collection and RSS follows bursts of
 * load; a leak raises the floor. Each slice brings the lowest values of its twelve reads where it has them (one read a
 * minute lands anywhere on the saw: a 60-minute run judged on those saw its heap "grow" 48 % with no trend).
 * A life too short for two such windows after its warm-up is shown, not judged.
 */
export function judgeMemory(samplesByInstance: Record<string, readonly (InstanceSample | null)[]>, plan: SoakPlan): Verdict[] {
  const verdicts: Verdict[] = [];
  const window = plan.memorySlices;
  for (const [name, samples] of Object.entries(samplesByInstance)) {
    const lives = new Map<number, { slice: number; sample: InstanceSample }[]>();
    samples.forEach((sample, slice) => {
      if (sample) lives.set(sample.startedAt, [...(lives.get(sample.startedAt) ?? []), { slice, sample }]);
    });
    let life = 0;
    for (const series of lives.values()) {
      life++;
      const firstJudged = Math.max(plan.warmupSlices, series[0]!.slice + window);
      const judged = series.filter((entry) => entry.slice >= firstJudged).map((entry) => entry.sample);
      const label = lives.size > 1 ? `${name} (life ${life})` : name;
      const check = `RSS and heap of ${label} flat after warm-up (floor grows < 10 %)`;
      if (judged.length < 2 * window) {
        const seconds = Math.round((window * plan.sliceMs) / 1000);
        verdicts.push({
          check,
          pass: true,
          detail: `not judged: needs a ${seconds}-s warm-up and two ${seconds}-s windows, had ${judged.length} samples after warm-up`,
        });
        continue;
      }
      const growth = (pick: (s: InstanceSample) => number) =>
        Math.min(...judged.slice(-window).map(pick)) / Math.min(...judged.slice(0, window).map(pick)) - 1;
      const rss = growth((s) => s.rssFloorBytes ?? s.rssBytes);
      const heap = growth((s) => s.heapFloorBytes ?? s.heapUsedBytes);
      verdicts.push({ check, pass: rss < 0.1 && heap < 0.1, detail: `RSS ${(rss * 100).toFixed(1)} %, heap ${(heap * 100).toFixed(1)} %` });
    }
  }
  return verdicts;
}

/**
 * The quota a client was charged against what it was served: every admitted request counted, none refused by an
 * outage. A request cut by the kill of its instance (502) may or may not have been counted: it is the only slack
 * above. Below, `lostByFailover`: a Redis master that dies may not have passed its last counts on to its replica
 * (replication is asynchronous), so that many admitted requests may go uncounted (one for a client that sends one
 * request at a time).
 */
export function judgeQuota(counted: number, admitted: number, cutByKill: number, lostByFailover = 0): Verdict {
  return {
    check: `no quota charged for a request refused because of an outage${lostByFailover ? ` (at most ${lostByFailover} count lost with a failed master)` : ''}`,
    pass: counted >= admitted - lostByFailover && counted <= admitted + cutByKill,
    detail: `counted ${counted}, admitted ${admitted}${cutByKill ? `, ${cutByKill} cut by the kill` : ''}`,
  };
}

/** How far the rows of a table may grow once the retention is reached: the last third's most over the first third's. */
const RETAINED_GROWTH_MAX = 1.5;

/**
 * Events, deliveries and attempts flat once the retention is reached. Judged on the slices from twice the retention
 * on (by then the rows of the first retention are gone and about as many are deleted as written): for each table, the
 * most rows in the last third of those slices at most 1.5 times the most in the first third. Rows never deleted grow
 * with the load (about 1.7 times from the first third to the last in the 2-minute run). Slices without a count
 * (PostgreSQL down) are left out; a run too short for two thirds of three samples each is shown, not judged.
 */
export function judgeRetention(rowsBySlice: readonly (RetainedRows | null)[], plan: SoakPlan): Verdict {
  const check = `events, deliveries and attempts flat once the retention (${plan.retentionMs / 1000} s) is reached`;
  const from = Math.ceil((2 * plan.retentionMs) / plan.sliceMs);
  const judged = rowsBySlice.slice(from).filter((rows): rows is RetainedRows => rows !== null);
  const third = Math.floor(judged.length / 3);
  if (third < 3) return { check, pass: true, detail: `not judged: ${judged.length} samples after twice the retention` };
  const kinds = ['events', 'deliveries', 'attempts'] as const;
  const growth = kinds.map((kind) => {
    const most = (rows: readonly RetainedRows[]) => Math.max(...rows.map((r) => r[kind]));
    const [first, last] = [most(judged.slice(0, third)), most(judged.slice(-third))];
    return { kind, first, last, ratio: last / Math.max(1, first) };
  });
  return {
    check,
    pass: growth.every((g) => g.ratio <= RETAINED_GROWTH_MAX),
    detail: growth.map((g) => `${g.kind} ${g.first} -> ${g.last} (x${g.ratio.toFixed(2)})`).join(', ') + `; limit x${RETAINED_GROWTH_MAX}`,
  };
}
