import { Redis } from 'ioredis';
import pg from 'pg';
import { metricValue } from './prometheus.js';

/** What an instance's Prometheus metrics (prom-client's default process metrics) say at one moment. */
export interface InstanceSample {
  /** process_start_time_seconds: tells one life of the instance from the next. */
  startedAt: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** p99 of the event-loop delay since the previous scrape (prom-client resets its histogram on each). */
  eventLoopP99Ms: number;
  /** Requests to /v1/pets answered by this process since it started (health checks left out). */
  requestsTotal: number;
  /**
   * The lowest RSS and heap used of this process seen during the slice (sampled every few seconds, this sample
   * included): the heap saws between collections, and one sample a minute lands anywhere on the saw.
   */
  rssFloorBytes?: number;
  heapFloorBytes?: number;
}

/** The lowest RSS and heap used of one life of an instance since the last `take`. */
export class MemoryFloor {
  private startedAt = NaN;
  private rss = Infinity;
  private heap = Infinity;

  note(sample: InstanceSample | null): void {
    if (!sample) return;
    if (sample.startedAt !== this.startedAt) {
      this.startedAt = sample.startedAt;
      this.rss = Infinity;
      this.heap = Infinity;
    }
    this.rss = Math.min(this.rss, sample.rssBytes);
    this.heap = Math.min(this.heap, sample.heapUsedBytes);
  }

  /** The slice's end sample with the floors of its life during the slice; starts the next slice. */
  take(sample: InstanceSample | null): InstanceSample | null {
    this.note(sample);
    const withFloors = sample && { ...sample, rssFloorBytes: this.rss, heapFloorBytes: this.heap };
    this.rss = Infinity;
    this.heap = Infinity;
    return withFloors;
  }
}

export async function sampleInstance(metricsPort: number): Promise<InstanceSample | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) });
    const text = await response.text();
    const value = (name: string, label?: string) => metricValue(text, name, label) ?? NaN;
    return {
      startedAt: value('process_start_time_seconds'),
      rssBytes: value('process_resident_memory_bytes'),
      heapUsedBytes: value('nodejs_heap_size_used_bytes'),
      eventLoopP99Ms: Math.round(value('nodejs_eventloop_lag_p99_seconds') * 1e5) / 100,
      requestsTotal: value('petstore_http_requests_total', 'route="/v1/pets"') || 0,
    };
  } catch {
    return null; // down (a drill), or too busy to answer within 5 s: a gap in the plot
  }
}

/** Connections to the petstore database (the instances' pools), from pg_stat_activity; null while it is down. */
export async function postgresConnections(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  // PostgreSQL stopped by the drill while this sample is in flight: the query fails (null), not the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = 'petstore' AND pid <> pg_backend_pid()",
    );
    return rows[0]!.count;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The rows of the tables that the retention keeps bounded, at the end of a slice. */
export interface RetainedRows {
  events: number;
  deliveries: number;
  attempts: number;
}

/** The rows of the events, deliveries and attempts (EVENT_RETENTION keeps them bounded); null while PostgreSQL is down. */
export async function retainedRows(url: string): Promise<RetainedRows | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<RetainedRows>(
      'SELECT (SELECT count(*)::int FROM "pet_events") AS "events", (SELECT count(*)::int FROM "webhook_deliveries") AS "deliveries", ' +
        '(SELECT count(*)::int FROM "webhook_attempts") AS "attempts"',
    );
    return rows[0]!;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** `used_memory` (INFO memory) of one Redis server if it is a master; null when it is a replica or down. */
async function masterMemory(url: string): Promise<number | null> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const [memory, replication] = await Promise.all([redis.info('memory'), redis.info('replication')]);
    if (!/^role:master/m.test(replication)) return null;
    return Number(/^used_memory:(\d+)/m.exec(memory)?.[1] ?? NaN);
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

/**
 * `used_memory` of the masters among `urls` (one Redis, or every node of a Redis Cluster: replicas hold the same data
 * again), in bytes; null while none answers.
 */
export async function redisMemory(urls: readonly string[]): Promise<number | null> {
  const masters = (await Promise.all(urls.map(masterMemory))).filter((bytes) => bytes !== null);
  return masters.length === 0 ? null : masters.reduce((sum, bytes) => sum + bytes, 0);
}
