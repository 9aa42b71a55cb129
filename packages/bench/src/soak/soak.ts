// `pnpm bench --soak --minutes N [--topology single|scale-out]`: the PostgreSQL + Redis deployment (or PostgreSQL
// behind PgBouncer and a Redis Cluster), two instances behind a round-robin proxy, at 80 % of its measured capacity
// for N minutes, through three outage drills; sampled, judged, plotted.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  freePort,
  pgbouncerBinary,
  postgresBinDir,
  redisCliBinary,
  redisServerBinary,
  startPgBouncer,
  startPostgres,
  startRedis,
  startRedisCluster,
} from '@petstore/test-support';
import { REPO, startNodeServer } from '../processes.js';
import { seedPostgres } from '../seed.js';
import { judgeLatency, judgeMemory, judgeQuota, judgeRetention, judgeServerErrors, quantile, type Verdict } from './checks.js';
import { banRecordOf, Instance, issueKeys, type Dependencies, type Deployment } from './deployment.js';
import { runDrill, type DrillReport } from './drills.js';
import { HAPROXY_MISSING, haproxyBinary, startRoundRobinProxy } from './haproxy.js';
import { plotSvg, type PlotPoint } from './plot.js';
import { Recorder } from './recorder.js';
import { MemoryFloor, postgresConnections, redisMemory, retainedRows, sampleInstance, type InstanceSample, type RetainedRows } from './sampler.js';
import { planSoak, TOPOLOGIES, type SoakPlan, type Topology } from './schedule.js';
import { CONNECTIONS, driveLoad, loadMix, sequentialClient, walkCursors } from './traffic.js';
import { orUsage } from '../usage.js';

interface Slice {
  index: number;
  /** Seconds since the load started, at the end of the slice. */
  atSeconds: number;
  rps: number;
  p50Ms: number | null;
  p99Ms: number | null;
  statuses: Record<string, number>;
  noAnswer: number;
  instances: Record<string, InstanceSample | null>;
  postgresConnections: number | null;
  redisMemoryBytes: number | null;
  /** The events, deliveries and attempts kept (null while PostgreSQL is down). */
  rows: RetainedRows | null;
}

function parseOptions(args: string[]): { minutes: number; topology: Topology } {
  const { values } = parseArgs({
    args,
    options: { soak: { type: 'boolean' }, minutes: { type: 'string', default: '60' }, topology: { type: 'string', default: 'single' } },
  });
  const minutes = Number(values.minutes);
  if (!(minutes >= 1 && minutes <= 24 * 60)) throw new Error(`--minutes must be a number of minutes from 1 to 1440 (got "${values.minutes}")`);
  const topology = TOPOLOGIES.find((name) => name === values.topology);
  if (!topology) throw new Error(`--topology must be one of ${TOPOLOGIES.join(', ')} (got "${values.topology}")`);
  return { minutes, topology };
}

function missingTools(topology: Topology): string[] {
  const missing: string[] = [];
  if (!postgresBinDir()) missing.push('The soak needs the PostgreSQL server binaries (pg_config --bindir): apt-get install postgresql.');
  if (!redisServerBinary()) missing.push('The soak needs redis-server: apt-get install redis-server.');
  if (!haproxyBinary()) missing.push(HAPROXY_MISSING);
  if (topology === 'scale-out') {
    if (!pgbouncerBinary()) missing.push('The scale-out soak needs pgbouncer: apt-get install pgbouncer (or set PGBOUNCER=/path/to/pgbouncer).');
    if (!redisCliBinary())
      missing.push('The scale-out soak needs redis-cli beside redis-server to build its Redis Cluster: apt-get install redis-server.');
  }
  return missing;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const mb = (bytes: number | null | undefined) =>
  bytes === null || bytes === undefined || Number.isNaN(bytes) ? null : Math.round((bytes / 2 ** 20) * 10) / 10;

/**
 * A webhook endpoint for every change, to a receiver in its own process that answers each at once: the deliveries and
 * attempts the retention keeps bounded. Written straight into the database, before the instances start.
 */
async function subscribeReceiver(databaseUrl: string, receiverPort: number): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "webhook_endpoints" ("id", "url", "event_types", "description", "created_at_ms", "secret") VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        'we_50a450a450a450a4',
        `http://127.0.0.1:${receiverPort}/soak`,
        'pet.created,pet.updated',
        'soak receiver',
        Date.now(),
        `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
      ],
    );
  } finally {
    await client.end();
  }
}

/** Starts everything, or stops what it had started before it throws. */
async function startDeployment(work: string, topology: Topology, plan: SoakPlan): Promise<Deployment & { stop(): Promise<void> }> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
  };
  try {
    const postgres = (await startPostgres())!;
    stops.push(() => postgres.stop());
    await seedPostgres(postgres.url, 10_000);
    const receiver = await startNodeServer('webhooks/receiver.js', {}, false);
    stops.push(() => receiver.stop());
    await subscribeReceiver(postgres.url, receiver.port);
    let dependencies: Dependencies;
    let redisUrls: string[];
    // The keys need only the database: issued while the instances start, which are awaited with them below.
    let keysIssued: Promise<Deployment['keys']>;
    let dependencyEnv: Record<string, string>;
    if (topology === 'single') {
      const redis = (await startRedis())!;
      stops.push(() => redis.stop());
      dependencies = { topology, redis };
      redisUrls = [redis.url];
      keysIssued = issueKeys(postgres.url);
      dependencyEnv = { DATABASE_URL: postgres.url, REDIS_URL: redis.url };
    } else {
      const pgbouncer = (await startPgBouncer(postgres))!;
      stops.push(() => pgbouncer.stop());
      const redisCluster = (await startRedisCluster())!;
      stops.push(() => redisCluster.stop());
      dependencies = { topology, pgbouncer, redisCluster };
      redisUrls = redisCluster.topology.kind === 'cluster' ? redisCluster.topology.nodes.map(({ host, port }) => `redis://${host}:${port}`) : [];
      // The accounting key's counters live on the master the failover kills, beside the load key's.
      keysIssued = issueKeys(
        postgres.url,
        async (loadId, accountingId) =>
          (await redisCluster.masterOf(banRecordOf(loadId))) === (await redisCluster.masterOf(banRecordOf(accountingId))),
      );
      dependencyEnv = { DATABASE_URL: pgbouncer.url, DATABASE_POOL_MODE: 'transaction', ...redisCluster.env };
    }
    keysIssued.catch(() => undefined); // awaited below; a failure meanwhile is not an unhandled rejection
    const proxyPort = await freePort();
    // Links in answers name the proxy, as PUBLIC_BASE_URL does behind a real load balancer.
    const env = {
      ...dependencyEnv,
      NODE_ENV: 'production',
      TRUST_PROXY_HOPS: '1',
      LOG_LEVEL: 'info',
      PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}/v1`,
      // The receiver is on loopback; a short retention, reached early in the run.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      EVENT_RETENTION: `${plan.retentionMs / 1000}s`,
    };
    const instances: [Instance, Instance] = [await Instance.create('a', env, work), await Instance.create('b', env, work)];
    stops.push(async () => void (await Promise.all(instances.map((instance) => instance.stop()))));
    await Promise.all(instances.map((instance) => instance.start()));
    const proxy = await startRoundRobinProxy(haproxyBinary()!, work, proxyPort, instances);
    stops.push(() => proxy.stop());
    return { ...dependencies, postgres, redisUrls, instances, proxyPort, keys: await keysIssued, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The load as fast as it goes for a few seconds: the capacity the soak then runs at 80 % of. */
async function measureCapacity(base: string, deployment: Deployment, cursors: Awaited<ReturnType<typeof walkCursors>>, seconds: number) {
  const recorder = new Recorder(Date.now());
  const result = await driveLoad(base, loadMix(deployment.keys, cursors, recorder), seconds);
  return { rps: result.requests.total / seconds, serverErrors: recorder.serverErrors.length + result.errors };
}

async function usageOf(base: string, key: string): Promise<{ dayUsed: number; dayReset: number; bannedUntil: number | null }> {
  const response = await fetch(`${base}/v1/rate_limit`, { headers: { Authorization: `Bearer ${key}` } });
  const usage = (await response.json()) as { windows: { name: string; used: number; reset: number }[]; bannedUntil: number | null };
  const day = usage.windows.find((w) => w.name === 'day')!;
  return { dayUsed: day.used, dayReset: day.reset, bannedUntil: usage.bannedUntil };
}

async function missingCreates(databaseUrl: string, ids: readonly number[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM "pets" WHERE "id" = ANY($1::bigint[])', [ids]);
    return ids.length - rows[0]!.count;
  } finally {
    await client.end();
  }
}

interface FinishedRun {
  plan: SoakPlan;
  base: string;
  deployment: Deployment;
  capacity: { serverErrors: number };
  recorder: Recorder;
  drills: readonly DrillReport[];
  slices: readonly Slice[];
  latencies: readonly (readonly number[])[];
  accountingStatuses: Record<string, number>;
  usageStatuses: Record<string, number>;
}

/** Every check of the run, from what was recorded and from the database and the keys' usage at the end. */
async function judgeRun({
  plan,
  base,
  deployment,
  capacity,
  recorder,
  drills,
  slices,
  latencies,
  accountingStatuses,
  usageStatuses,
}: FinishedRun): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  verdicts.push({
    check: 'capacity run (saturating) without 5xx',
    pass: capacity.serverErrors === 0,
    detail: `${capacity.serverErrors} 5xx or no answer`,
  });
  verdicts.push(judgeServerErrors(recorder.serverErrors, drills, CONNECTIONS + 2));
  verdicts.push(judgeLatency(latencies, plan, drills));
  verdicts.push(
    judgeRetention(
      slices.map((s) => s.rows),
      plan,
    ),
  );
  verdicts.push(
    ...judgeMemory(
      {
        a: slices.map((s) => s.instances['a'] ?? null),
        b: slices.map((s) => s.instances['b'] ?? null),
      },
      plan,
    ),
  );
  for (const drill of drills) {
    verdicts.push({
      check: `${drill.kind} drill: served again within its grace (${plan.graceMs / 1000} s), connections re-established without a restart`,
      pass: drill.recoveryMs !== null && drill.recoveryMs <= plan.graceMs && drill.reconnected,
      detail: `${drill.detail}${drill.reconnected ? '' : '; an instance did not serve again without a restart'}`,
    });
  }
  const missingIds = await missingCreates(deployment.postgres.url, recorder.createdIds);
  verdicts.push({
    check: 'every acknowledged create (201) is in the database',
    pass: missingIds === 0,
    detail: `${recorder.createdIds.length} acknowledged, ${missingIds} missing`,
  });
  const accountingUsage = await usageOf(base, deployment.keys.accounting);
  const admitted = accountingStatuses['200'] ?? 0;
  const cut = (accountingStatuses['502'] ?? 0) + (accountingStatuses['no answer'] ?? 0);
  const failedOver = drills.some((drill) => drill.kind === 'redis-failover');
  const quota = judgeQuota(accountingUsage.dayUsed, admitted, cut, failedOver ? 1 : 0);
  quota.detail += `; answers ${JSON.stringify(accountingStatuses)}`;
  verdicts.push(quota);
  const keys = {
    load: deployment.keys.load,
    accounting: deployment.keys.accounting,
    'usage 1': deployment.keys.usage[0],
    'usage 2': deployment.keys.usage[1],
  };
  const banned: string[] = [];
  for (const [name, key] of Object.entries(keys)) if ((await usageOf(base, key)).bannedUntil !== null) banned.push(name);
  verdicts.push({
    check: 'no key banned or rate limited by an outage',
    pass: banned.length === 0 && recorder.unexpectedLimits.length === 0,
    detail: `banned: ${banned.join(', ') || 'none'}; 429s to keys within their limits: ${JSON.stringify(countBy(recorder.unexpectedLimits.map((l) => `${l.client} ${l.code}`)))}; usage queries ${JSON.stringify(usageStatuses)}`,
  });
  return verdicts;
}

/** Ends a slice every `plan.sliceMs` (60 in all), samples the instances and dependencies, and prints a line. */
async function sampleEverySlice(
  plan: SoakPlan,
  recorder: Recorder,
  deployment: Deployment,
  aborted: () => boolean,
  onSlice: (slice: Slice, sortedLatencies: number[]) => void,
): Promise<void> {
  const [a, b] = deployment.instances;
  const floors = { a: new MemoryFloor(), b: new MemoryFloor() };
  // Memory is read twelve times a slice: the floor of a sawing heap is its lowest point, which a single read misses.
  const pollMs = plan.sliceMs / 12;
  for (let index = 0; index < 60 && !aborted(); index++) {
    const end = (index + 1) * plan.sliceMs;
    while (end - recorder.now() > pollMs && !aborted()) {
      await sleep(pollMs);
      const [pa, pb] = await Promise.all([sampleInstance(a.metricsPort), sampleInstance(b.metricsPort)]);
      floors.a.note(pa);
      floors.b.note(pb);
    }
    await sleep(end - recorder.now());
    const counts = recorder.cut();
    const sorted = counts.latencies.sort((x, y) => x - y);
    const [ea, eb, connections, memory, rows] = await Promise.all([
      sampleInstance(a.metricsPort),
      sampleInstance(b.metricsPort),
      postgresConnections(deployment.postgres.url),
      redisMemory(deployment.redisUrls),
      retainedRows(deployment.postgres.url),
    ]);
    const [sa, sb] = [floors.a.take(ea), floors.b.take(eb)];
    const slice: Slice = {
      index,
      atSeconds: Math.round(recorder.now() / 100) / 10,
      rps: Math.round(counts.answered / (plan.sliceMs / 1000)),
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      statuses: counts.statuses,
      noAnswer: counts.errors,
      instances: { a: sa, b: sb },
      postgresConnections: connections,
      redisMemoryBytes: memory,
      rows,
    };
    onSlice(slice, sorted);
    const errors = Object.entries(slice.statuses).filter(([s]) => Number(s) >= 500);
    process.stderr.write(
      `  ${String(slice.atSeconds).padStart(6)} s  ${String(slice.rps).padStart(5)} req/s  p50 ${slice.p50Ms?.toFixed(1) ?? '-'} p99 ${slice.p99Ms?.toFixed(1) ?? '-'} ms  ` +
        `RSS a ${mb(sa?.rssBytes) ?? '-'} b ${mb(sb?.rssBytes) ?? '-'} MB  pg ${connections ?? '-'}  redis ${mb(memory) ?? '-'} MB  ` +
        `rows ${rows ? `${rows.events}/${rows.deliveries}/${rows.attempts}` : '-'}` +
        `${errors.length || slice.noAnswer ? `  5xx ${JSON.stringify(Object.fromEntries(errors))} no answer ${slice.noAnswer}` : ''}\n`,
    );
  }
}

function plotPoints(slices: readonly Slice[], plan: SoakPlan): PlotPoint[] {
  const points: PlotPoint[] = [];
  const add = (panel: string, series: string, slice: Slice, value: number | null) =>
    points.push({ panel, series, minute: Math.round((slice.atSeconds / 60) * 1000) / 1000, value });
  for (const slice of slices) {
    add('requests/s', 'answered', slice, Math.round(slice.rps));
    const errors = Object.entries(slice.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, n]) => sum + n, slice.noAnswer);
    add('requests/s', '5xx or no answer', slice, Math.round((errors / plan.sliceMs) * 1000));
    add('latency of 2xx (ms)', 'p50', slice, slice.p50Ms);
    add('latency of 2xx (ms)', 'p99', slice, slice.p99Ms);
    for (const [name, sample] of Object.entries(slice.instances)) {
      add('RSS (MB)', `instance ${name}`, slice, mb(sample?.rssBytes));
      add('heap used (MB)', `instance ${name}`, slice, mb(sample?.heapUsedBytes));
      add('event-loop delay p99 (ms)', `instance ${name}`, slice, sample?.eventLoopP99Ms ?? null);
    }
    add('PostgreSQL connections', 'petstore database', slice, slice.postgresConnections);
    add('Redis memory (MB)', 'used_memory', slice, mb(slice.redisMemoryBytes));
    for (const kind of ['events', 'deliveries', 'attempts'] as const) add(ROWS_PANEL, kind, slice, slice.rows?.[kind] ?? null);
  }
  return points;
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

const ROWS_PANEL = 'rows kept (EVENT_RETENTION)';
const PANELS = [
  'requests/s',
  'latency of 2xx (ms)',
  'RSS (MB)',
  'heap used (MB)',
  'event-loop delay p99 (ms)',
  'PostgreSQL connections',
  'Redis memory (MB)',
  ROWS_PANEL,
];

/** Runs the soak; resolves with the exit code (0: every check passed). */
export async function soak(args: string[]): Promise<number> {
  const { minutes, topology } = orUsage(() => parseOptions(args));
  const missing = missingTools(topology);
  if (missing.length > 0) {
    process.stderr.write(`${missing.join('\n')}\n`);
    return 2;
  }
  const plan = planSoak(minutes, topology);
  const work = mkdtempSync(join(tmpdir(), 'petstore-soak-'));
  const deployment = await startDeployment(work, topology, plan);
  try {
    const base = `http://127.0.0.1:${deployment.proxyPort}`;
    const cursors = await walkCursors(base, deployment.keys.load);
    const capacitySeconds = Math.min(15, Math.max(5, Math.round(plan.durationMs / 40_000)));
    const capacity = await measureCapacity(base, deployment, cursors, capacitySeconds);
    const rate = Math.max(1, Math.floor(capacity.rps * 0.8));
    process.stderr.write(
      `petstore soak: ${minutes} min on the ${topology} topology, capacity ${Math.round(capacity.rps)} req/s (${capacitySeconds} s saturating), load ${rate} req/s over ${CONNECTIONS} connections, a sample every ${plan.sliceMs / 1000} s\n`,
    );

    const recorder = new Recorder(Date.now());
    const load = driveLoad(base, loadMix(deployment.keys, cursors, recorder), plan.durationMs / 1000, rate);
    load.on('response', (_client: unknown, status: number, _bytes: number, latencyMs: number) => recorder.answer(status, latencyMs));
    load.on('reqError', () => recorder.noAnswer('load'));
    let loadDone = false;
    let aborted = false;

    const slices: Slice[] = [];
    const latencies: number[][] = [];
    const sampling = sampleEverySlice(
      plan,
      recorder,
      deployment,
      () => aborted,
      (slice, sorted) => {
        slices.push(slice);
        latencies.push(sorted);
      },
    );

    const usageClient = sequentialClient(
      recorder,
      'usage',
      (n) => fetch(`${base}/v1/rate_limit`, { headers: { Authorization: `Bearer ${deployment.keys.usage[n % 2]}` } }),
      1_000,
      () => loadDone,
    );
    const accountingClient = () =>
      sequentialClient(
        recorder,
        'accounting',
        () => fetch(`${base}/v1/pets?limit=5`, { headers: { Authorization: `Bearer ${deployment.keys.accounting}` } }),
        200,
        () => loadDone,
      );
    // A Redis that is stopped comes back empty (no persistence, as a restarted cache would): the accounting starts
    // after it. A Cluster's replica takes over with the counts: the accounting runs through the failover.
    let accounting: Promise<Record<string, number>> = topology === 'scale-out' ? accountingClient() : Promise.resolve({});
    const drills: DrillReport[] = [];
    const drilling: Promise<void> = (async () => {
      for (const drill of plan.drills) {
        const report = await runDrill(drill, deployment, () => recorder.now(), plan);
        drills.push(report);
        process.stderr.write(`  drill: ${report.detail}\n`);
        if (drill.kind === 'redis') accounting = accountingClient();
      }
    })().catch((error: unknown) => {
      // A drill that could not be run ends the run, which then stops what it started.
      aborted = true;
      load.stop();
      throw error;
    });
    drilling.catch(() => undefined); // awaited after the load; until then, not an unhandled rejection

    const result = await load;
    loadDone = true;
    await Promise.all([sampling, drilling]);
    const [usageStatuses, accountingStatuses] = await Promise.all([usageClient, accounting]);

    // Judged after the load: nothing the checks read is still moving.
    const verdicts = await judgeRun({ plan, base, deployment, capacity, recorder, drills, slices, latencies, accountingStatuses, usageStatuses });

    const problems = (await Promise.all(deployment.instances.map((instance) => instance.loggedProblems()))).flat();
    const logged = countBy(problems.map((line) => (JSON.parse(line) as { msg?: string }).msg ?? line));

    const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;
    const passed = verdicts.every((v) => v.pass);
    process.stdout.write(
      `\nSoak, ${minutes} min at ${rate} req/s (80 % of ${Math.round(capacity.rps)}), ${machine}: ${result.requests.total} requests by the load\n` +
        `${verdicts.map((v) => `- ${v.pass ? 'pass' : 'FAIL'}: ${v.check}: ${v.detail}`).join('\n')}\n` +
        `Warnings and errors the instances logged: ${JSON.stringify(logged)}\n`,
    );

    const results = join(REPO, 'bench-results');
    mkdirSync(results, { recursive: true });
    const stem = join(results, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}-${minutes}min${topology === 'single' ? '' : `-${topology}`}`);
    writeFileSync(
      `${stem}.json`,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          minutes,
          topology,
          machine,
          capacityRps: Math.round(capacity.rps),
          rate,
          plan,
          drills,
          verdicts,
          logged,
          slices,
        },
        null,
        2,
      ),
    );
    const behind = topology === 'single' ? 'PostgreSQL + Redis' : 'PgBouncer + PostgreSQL, Redis Cluster';
    const title = `Soak: ${minutes} min at ${rate} req/s through haproxy to 2 instances (${behind}), ${new Date().toISOString().slice(0, 10)}`;
    writeFileSync(`${stem}.svg`, await plotSvg(title, PANELS, plotPoints(slices, plan), drills));
    process.stdout.write(`\nWritten to ${stem}.json and ${stem}.svg\n`);
    return passed ? 0 : 1;
  } finally {
    await deployment.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
