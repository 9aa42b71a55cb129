// `pnpm bench [--quick | --smoke] [--only name,name]`: the real server against a bare-Koa floor, interleaved, one table.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startPgBouncer, startPostgres, startRedis, startRedisCluster, type RunningPostgres } from '@petstore/test-support';
import autocannon from 'autocannon';
import { loadBaseline, type BaselineServer } from './baseline.js';
import { randomPages, type RandomPage } from './randomPages.js';
import { transitions } from './transitions.js';
import { cpuMicros, peakRssMb, pinToCpu, REPO, resetPeakRss, startNodeServer, startProductServer, type Started } from './processes.js';
import { benchKey, seededSqliteCopy, seedPostgres } from './seed.js';
import { soak } from './soak/soak.js';
import { orUsage } from './usage.js';
import { webhooksBench } from './webhooks/webhooksBench.js';

// `pnpm bench --soak --minutes N`: the soak run (src/soak), instead of the benchmark.
if (process.argv.includes('--soak')) process.exit(await soak(process.argv.slice(2)));
// `pnpm bench --webhooks`: webhook delivery (src/webhooks), instead of the benchmark.
if (process.argv.includes('--webhooks')) process.exit(await webhooksBench(process.argv.includes('--dead-endpoints')));

const { values } = orUsage(() =>
  parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-pin': { type: 'boolean', default: false },
      baseline: { type: 'string' },
    },
  }),
);
/**
 * Seconds per run, seconds of warm-up before a group's runs (not measured, its answers not checked), rounds, and
 * whether the floor is measured once for the whole run instead of before each round. The smoke run (CI's) checks that
 * every scenario answers 2xx: no warm-up, so that every answer is counted; its figures mean nothing.
 */
const MODE = values.smoke
  ? { name: 'smoke', duration: 1, warmUp: 0, rounds: 1, floorOnce: true }
  : values.quick
    ? { name: 'quick', duration: 2, warmUp: 1, rounds: 1, floorOnce: false }
    : { name: 'full', duration: 8, warmUp: 3, rounds: 3, floorOnce: false };
const ONLY = values.only ? new Set(values.only.split(/,(?![^(]*\))/)) : null;
const CONNECTIONS = 50;
const DURATION = MODE.duration;
const ROUNDS = MODE.rounds;

interface Request {
  method?: string;
  path: string;
  /**
   * When present, requests take these paths in turn instead of `path`, in the same order on every run; requests
   * given the same array share one turn.
   */
  paths?: readonly string[];
  /** With `paths`: the body sent with each path. */
  bodies?: readonly string[];
  body?: string;
  headers?: Record<string, string>;
}

interface Measurement {
  rps: number;
  /** The server's CPU time per request answered, µs (null where /proc is not available). */
  cpuUs: number | null;
  p50: number;
  p99: number;
  bad: number;
}

function drive(port: number, requests: Request[], headers: Record<string, string>, duration: number) {
  const turns = new Map<readonly string[], number>();
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    headers,
    requests: requests.map((r) => {
      const { paths, bodies } = r;
      const turn = () => {
        const next = turns.get(paths!) ?? 0;
        turns.set(paths!, next + 1);
        return next % paths!.length;
      };
      return {
        method: (r.method ?? 'GET') as 'GET',
        path: r.path,
        ...(r.body && { body: r.body }),
        ...(r.headers && { headers: r.headers }),
        ...(paths && {
          setupRequest: (request: object) => {
            const i = turn();
            return { ...request, path: paths[i], ...(bodies && { body: bodies[i] }) };
          },
        }),
      };
    }),
  });
}

async function load(server: Started, requests: Request[], headers: Record<string, string> = {}): Promise<Measurement> {
  const cpuBefore = cpuMicros(server.pid);
  const result = await drive(server.port, requests, headers, DURATION);
  const cpuAfter = cpuMicros(server.pid);
  return {
    rps: result.requests.average,
    cpuUs: cpuBefore === null || cpuAfter === null ? null : Math.round(((cpuAfter - cpuBefore) / result.requests.total) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakRssMb: number | null;
  floorRps: number;
  ratio: number;
  /** Server CPU µs per request, and the floor's CPU per request divided by it (median of the rounds' quotients). */
  cpuUs: number | null;
  cpuRatio: number | null;
  /** Scenarios measured in the same rounds, one after the other (see `versus`). */
  group: number;
  rounds: { rps: number; cpuUs: number | null }[];
}

const rows: Row[] = [];
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));

interface Scenario {
  name: string;
  server: Started;
  key: string;
  requests: Request[];
  /** The same scenario on the baseline build (`--baseline`), measured in the same rounds as `<name> [baseline]`. */
  baseline?: BaselineServer | null;
}

const BASELINE_SUFFIX = ' [baseline]';

let groups = 0;
let floorOfTheRun: Measurement | undefined;

async function measureFloor(): Promise<Measurement> {
  if (!MODE.floorOnce) return load(floor, [{ path: '/v1/pets' }]);
  floorOfTheRun ??= await load(floor, [{ path: '/v1/pets' }]);
  return floorOfTheRun;
}

/**
 * Runs the floor and the scenarios in turn, round after round (floor A B C, floor B C A, ...; the order turns so that
 * no scenario always follows the floor), and records each scenario's median over the rounds. Scenarios compared with
 * each other run in one group: their quotient is then taken round by round, so that a machine that speeds up or
 * slows down between minutes moves both sides of it.
 */
async function scenarios(...all: Scenario[]): Promise<void> {
  const chosen = all
    .filter((s) => !ONLY || ONLY.has(s.name))
    .flatMap((s) => (s.baseline ? [s, { name: s.name + BASELINE_SUFFIX, ...s.baseline, requests: s.requests }] : [s]));
  if (chosen.length === 0) return;
  const group = groups++;
  // Warm-up (JIT, caches, statement preparation), not measured.
  if (MODE.warmUp > 0) for (const s of chosen) await drive(s.server.port, s.requests, { Authorization: `Bearer ${s.key}` }, MODE.warmUp);
  const floors: Measurement[] = [];
  const runs = new Map<Scenario, Measurement[]>(chosen.map((s) => [s, []]));
  const peaks = new Map<Scenario, number | null>(chosen.map((s) => [s, null]));
  for (let round = 0; round < ROUNDS; round++) {
    floors.push(await measureFloor());
    for (let i = 0; i < chosen.length; i++) {
      const s = chosen[(i + round) % chosen.length]!;
      resetPeakRss(s.server.pid);
      runs.get(s)!.push(await load(s.server, s.requests, { Authorization: `Bearer ${s.key}` }));
      peaks.set(s, Math.max(peaks.get(s) ?? 0, peakRssMb(s.server.pid) ?? 0) || null);
    }
  }
  for (const s of chosen) {
    const measured = runs.get(s)!;
    const cpuRatios = measured.flatMap((run, i) => {
      const floorCpu = floors[i]!.cpuUs;
      return floorCpu !== null && run.cpuUs ? [floorCpu / run.cpuUs] : [];
    });
    const row: Row = {
      scenario: s.name,
      rps: Math.round(median(measured.map((r) => r.rps))),
      p50: median(measured.map((r) => r.p50)),
      p99: median(measured.map((r) => r.p99)),
      errors: measured.reduce((sum, r) => sum + r.bad, 0),
      peakRssMb: peaks.get(s)!,
      floorRps: Math.round(median(floors.map((f) => f.rps))),
      ratio: Math.round(median(measured.map((run, i) => run.rps / floors[i]!.rps)) * 100) / 100,
      cpuUs: measured.every((r) => r.cpuUs !== null) ? median(measured.map((r) => r.cpuUs!)) : null,
      cpuRatio: cpuRatios.length === ROUNDS ? Math.round(median(cpuRatios) * 100) / 100 : null,
      group,
      rounds: measured.map(({ rps, cpuUs }) => ({ rps, cpuUs })),
    };
    rows.push(row);
    process.stderr.write(
      `  ${s.name}: ${row.rps} req/s, ratio ${row.ratio}, ${row.cpuUs ?? '-'} µs CPU per request (${row.cpuRatio ?? '-'} of the floor's), p50 ${row.p50} ms, errors ${row.errors}\n`,
    );
  }
}

/** One scenario against the floor (and its baseline twin, if any). */
const scenario = (name: string, server: Started, key: string, requests: Request[], baseline?: BaselineServer | null) =>
  scenarios({ name, server, key, requests, baseline });

/** The product on a SQLite file of `count` pets; `tuned` false: without the production settings of docs/deployment.md. */
async function sqliteServer(count: number, env: Record<string, string> = {}, tuned = true): Promise<{ server: Started; key: string }> {
  const path = join(work, `pets-${count}-${rows.length}-${Math.random().toString(36).slice(2)}.db`);
  const key = await seededSqliteCopy(path, count);
  const server = await startProductServer({ DATABASE_URL: `sqlite:${path}`, ...env }, PIN, tuned);
  return { server, key };
}

async function deepSoldCursor(port: number, key: string): Promise<string> {
  let url = `http://127.0.0.1:${port}/v1/pets?status=sold&limit=100`;
  let cursor = '';
  for (let page = 0; page < 30; page++) {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    const link = response.headers.get('link');
    if (!link) break;
    const next = new URL(/<([^>]+)>/.exec(link)![1]!);
    cursor = next.searchParams.get('cursor')!;
    url = `http://127.0.0.1:${port}/v1/pets${next.search}`;
  }
  return cursor;
}

/** The random pages through PgBouncer, the product against the pg peer, on each Redis topology. */
const PGBOUNCER_PAIRS = [
  {
    cluster: false,
    product: 'random pages (10k pets, PgBouncer + Redis)',
    peer: 'peer: hand-written Koa + pg + ioredis random pages behind PgBouncer',
  },
  {
    cluster: true,
    product: 'random pages (10k pets, PgBouncer + Redis Cluster)',
    peer: 'peer: hand-written Koa + pg + ioredis-cluster random pages behind PgBouncer',
  },
];
const PGBOUNCER_SCENARIOS = PGBOUNCER_PAIRS.flatMap((pair) => [pair.product, pair.peer]);

/** The scenarios that read RANDOM_PAGE_COUNT distinct pages, the product's and the peers'. */
/** The server with the production settings of docs/deployment.md and without, on PostgreSQL + Redis, where more objects outlive a young-generation collection. */
const V8_FLAGS_PG_PAIR = [
  'random pages (10k pets, PostgreSQL + Redis, V8 flags)',
  'random pages (10k pets, PostgreSQL + Redis, no V8 flags)',
] as const;
const RANDOM_PAGES = [
  'random pages (10k pets)',
  'peer: hand-written Koa random pages',
  'peer: hand-written Fastify random pages',
  'random pages (10k pets, PostgreSQL + Redis)',
  'peer: hand-written Koa + pg + ioredis random pages',
  ...PGBOUNCER_SCENARIOS,
  ...V8_FLAGS_PG_PAIR,
];
let pages: RandomPage[] = [];
/** One request that takes these paths in turn (the same sequence for every server). */
const cycling = (paths: string[]): Request[] => [{ path: paths[0] ?? '/v1/pets', paths }];

/** The scenarios that mix 2 % of status changes into the random pages, the product's and the peers'. */
const WITH_TRANSITIONS = [
  'random pages + 2% transitions (10k pets)',
  'peer: hand-written Koa random pages + 2% transitions',
  'peer: hand-written Fastify random pages + 2% transitions',
  'random pages + 2% transitions (10k pets, PostgreSQL + Redis)',
  'peer: hand-written Koa + pg + ioredis random pages + 2% transitions',
];
const changes = transitions(10_000);
/** 49 page reads (taking the pages in turn), then one status change (`PATCH`, JSON): 2 % of the requests. */
const withTransitions = (paths: string[]): Request[] => [
  ...Array.from({ length: 49 }, () => ({ path: paths[0] ?? '/v1/pets', paths })),
  { method: 'PATCH', path: changes.paths[0]!, paths: changes.paths, bodies: changes.bodies, headers: { 'Content-Type': 'application/json' } },
];

/** The product with the production settings of docs/deployment.md, and with Node's defaults. */
const V8_FLAGS_PAIR = ['random pages (10k pets, V8 flags)', 'random pages (10k pets, no V8 flags)'] as const;
/** The product keeping listing rows in memory (its default on SQLite), and keeping none. */
const KEPT_ROWS_PAIR = ['random pages (10k pets, rows kept)', 'random pages (10k pets, nothing kept)'] as const;

/** Whether any of these scenarios runs (so that `--only` skips seeding and starting what it does not need). */
const wanted = (...names: string[]) => !ONLY || names.some((name) => ONLY.has(name));

/** The hand-written SQLite peers' scenarios. */
const PEER_SCENARIOS = ['Koa', 'Fastify'].flatMap((framework) => [
  `peer: hand-written ${framework} list`,
  `peer: hand-written ${framework} random pages`,
  `peer: hand-written ${framework} random pages + 2% transitions`,
]);

/** The hand-written SQLite peers that a scenario asked for, each on its own copy of the 10,000 pets. */
async function startPeers(): Promise<{ framework: string; server: Started; key: string }[]> {
  const peers = [];
  for (const [framework, script] of [
    ['Koa', 'peer.js'],
    ['Fastify', 'peerFastify.js'],
  ] as const) {
    if (
      !wanted(
        `peer: hand-written ${framework} list`,
        `peer: hand-written ${framework} random pages`,
        `peer: hand-written ${framework} random pages + 2% transitions`,
      )
    )
      continue;
    const path = join(work, `peer-${framework}.db`);
    const key = await seededSqliteCopy(path, 10_000);
    peers.push({ framework, server: await startNodeServer(script, { DATABASE_PATH: path }, PIN), key });
  }
  return peers;
}

const json = { 'Content-Type': 'application/json' };
const newPet = (i: number): Request => ({
  method: 'POST',
  path: '/v1/pets',
  body: JSON.stringify({ name: `bench ${i}`, categoryId: 1 + (i % 9) }),
  headers: json,
});

/**
 * The same random pages through PgBouncer in transaction pooling mode (started here, its default settings): the
 * server with DATABASE_POOL_MODE=transaction against the pg peer with unnamed statements, both on one PgBouncer, with
 * the single Redis, then with a Redis Cluster of 3 masters and 3 replicas started here.
 */
async function behindPgBouncer(postgres: RunningPostgres, key: string, redisUrl: string): Promise<void> {
  const pairs = PGBOUNCER_PAIRS.filter((pair) => wanted(pair.product, pair.peer));
  if (pairs.length === 0) return;
  const pgbouncer = await startPgBouncer(postgres);
  if (!pgbouncer) {
    process.stderr.write('  pgbouncer not found: the PgBouncer scenarios are skipped\n');
    return;
  }
  try {
    for (const pair of pairs) {
      const cluster = pair.cluster ? await startRedisCluster() : null;
      if (pair.cluster && !cluster) {
        process.stderr.write('  redis-cli not found: the PgBouncer + Redis Cluster scenarios are skipped\n');
        continue;
      }
      try {
        const env = { DATABASE_URL: pgbouncer.url, ...(cluster?.env ?? { REDIS_URL: redisUrl }) };
        const server = await startProductServer({ ...env, DATABASE_POOL_MODE: 'transaction' }, PIN);
        const peer = wanted(pair.peer) ? await startNodeServer('peerPostgres.js', { ...env, PEER_STATEMENTS: 'unnamed' }, PIN) : null;
        await scenarios(
          { name: pair.product, server, key, requests: cycling(pages.map((p) => p.product)) },
          ...(peer ? [{ name: pair.peer, server: peer, key, requests: cycling(pages.map((p) => p.peer)) }] : []),
        );
        await peer?.stop();
        await server.stop();
      } finally {
        await cluster?.stop();
      }
    }
  } finally {
    await pgbouncer.stop();
  }
}

// The load generator on CPU 1; every server started by startNodeServer goes on CPU 0.
const PIN = !values['no-pin'];
const pinned = PIN && pinToCpu(process.pid, 1);
const BASELINE = values.baseline ? await loadBaseline(values.baseline, PIN) : null;
const floor = await startNodeServer('floor.js', {}, PIN);
try {
  process.stderr.write(`petstore bench (${MODE.name}): ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} round(s)\n`);

  if (
    wanted(
      'list (10k pets)',
      'list sold (deep cursor)',
      'get by id (deprecated)',
      'create',
      'mix 90% list / 10% create',
      'list (admit-all limiter)',
      ...RANDOM_PAGES,
      ...WITH_TRANSITIONS,
      ...PEER_SCENARIOS,
    )
  ) {
    const { server, key } = await sqliteServer(10_000);
    const before = BASELINE ? await BASELINE.onSqlite(join(work, 'baseline-10000.db'), 10_000) : null;
    const peers = await startPeers();
    // The same list without the rate limiter's cost, to price it.
    const admitAll = wanted('list (admit-all limiter)') ? await sqliteServer(10_000, { BENCH_ADMIT_ALL: '1' }) : null;
    const list = [{ path: '/v1/pets?limit=20' }];
    await scenarios(
      { name: 'list (10k pets)', server, key, requests: list, baseline: before },
      ...(admitAll ? [{ name: 'list (admit-all limiter)', ...admitAll, requests: list }] : []),
      ...peers.map((peer) => ({ name: `peer: hand-written ${peer.framework} list`, ...peer, requests: list })),
    );
    await admitAll?.server.stop();
    // The same pages serve every random-pages scenario: the PostgreSQL database is seeded with the same pets.
    if (wanted(...RANDOM_PAGES, ...WITH_TRANSITIONS)) pages = await randomPages(server.port, key);
    await scenarios(
      { name: 'random pages (10k pets)', server, key, requests: cycling(pages.map((p) => p.product)), baseline: before },
      ...peers.map((peer) => ({ name: `peer: hand-written ${peer.framework} random pages`, ...peer, requests: cycling(pages.map((p) => p.peer)) })),
    );
    // After the plain random pages: the changes move pets between statuses (every cursor stays valid).
    await scenarios(
      {
        name: 'random pages + 2% transitions (10k pets)',
        server,
        key,
        requests: withTransitions(pages.map((p) => p.product)),
        baseline: before,
      },
      ...peers.map((peer) => ({
        name: `peer: hand-written ${peer.framework} random pages + 2% transitions`,
        ...peer,
        requests: withTransitions(pages.map((p) => p.peer)),
      })),
    );
    for (const peer of peers) await peer.server.stop();
    const cursor = await deepSoldCursor(server.port, key);
    await scenario('list sold (deep cursor)', server, key, [{ path: `/v1/pets?status=sold&limit=20&cursor=${cursor}` }], before);
    await scenario(
      'get by id (deprecated)',
      server,
      key,
      Array.from({ length: 20 }, (_, i) => ({ path: `/v1/pets/${1 + i * 499}` })),
      before,
    );
    await scenario(
      'create',
      server,
      key,
      Array.from({ length: 10 }, (_, i) => newPet(i)),
      before,
    );
    await scenario(
      'mix 90% list / 10% create',
      server,
      key,
      [...Array.from({ length: 9 }, () => ({ path: '/v1/pets?limit=20' })), newPet(0)],
      before,
    );
    await server.stop();
    await before?.server.stop();
  }
  // A setting priced: two servers, as they run by default and with it changed, head to head on the random pages.
  // Only when `--only` names both scenarios of the pair (docs/performance.md).
  const priceSetting = async ([usual, changed]: readonly [string, string], start: () => ReturnType<typeof sqliteServer>) => {
    if (!ONLY?.has(usual) || !ONLY.has(changed)) return;
    const standard = await sqliteServer(10_000);
    const other = await start();
    const requests = cycling((await randomPages(standard.server.port, standard.key)).map((p) => p.product));
    await scenarios({ name: usual, ...standard, requests }, { name: changed, ...other, requests });
    await standard.server.stop();
    await other.server.stop();
  };
  await priceSetting(V8_FLAGS_PAIR, () => sqliteServer(10_000, {}, false));
  await priceSetting(KEPT_ROWS_PAIR, () => sqliteServer(10_000, { SQLITE_KEPT_LISTING_ROWS: '0' }));
  for (const count of [1_000, 1_000_000]) {
    if (!wanted(`list sold (${count === 1_000 ? '1k' : '1M'} pets)`)) continue;
    const { server, key } = await sqliteServer(count);
    await scenario(`list sold (${count === 1_000 ? '1k' : '1M'} pets)`, server, key, [{ path: '/v1/pets?status=sold&limit=20' }]);
    await server.stop();
  }
  const postgres = wanted(
    ...WITH_TRANSITIONS.filter((name) => name.includes('PostgreSQL') || name.includes('pg')),
    'list (10k pets, PostgreSQL)',
    'list (10k pets, PostgreSQL + Redis)',
    'random pages (10k pets, PostgreSQL + Redis)',
    'create (PostgreSQL + Redis)',
    'peer: hand-written Koa + pg + ioredis random pages',
    ...PGBOUNCER_SCENARIOS,
    ...V8_FLAGS_PG_PAIR,
  )
    ? await startPostgres()
    : null;
  if (postgres) {
    await seedPostgres(postgres.url, 10_000);
    const key = await benchKey(postgres.url);
    const server = await startProductServer({ DATABASE_URL: postgres.url }, PIN);
    await scenario('list (10k pets, PostgreSQL)', server, key, [{ path: '/v1/pets?limit=20' }]);
    await server.stop();
    const redis = await startRedis();
    if (redis) {
      // The deployment that scales out: PostgreSQL for the data, Redis for the shared rate-limit counters.
      const scaled = await startProductServer({ DATABASE_URL: postgres.url, REDIS_URL: redis.url }, PIN);
      const beforeScaled = BASELINE ? await BASELINE.onPostgresAndRedis(10_000) : null;
      await scenario('list (10k pets, PostgreSQL + Redis)', scaled, key, [{ path: '/v1/pets?limit=20' }]);
      const peer = wanted('peer: hand-written Koa + pg + ioredis random pages', 'peer: hand-written Koa + pg + ioredis random pages + 2% transitions')
        ? await startNodeServer('peerPostgres.js', { DATABASE_URL: postgres.url, REDIS_URL: redis.url }, PIN)
        : null;
      // The product against the peer on the same pages, without and with status changes.
      for (const [name, peerName, requestsOf] of [
        ['random pages (10k pets, PostgreSQL + Redis)', 'peer: hand-written Koa + pg + ioredis random pages', cycling],
        [
          'random pages + 2% transitions (10k pets, PostgreSQL + Redis)',
          'peer: hand-written Koa + pg + ioredis random pages + 2% transitions',
          withTransitions,
        ],
      ] as const)
        await scenarios(
          { name, server: scaled, key, requests: requestsOf(pages.map((p) => p.product)), baseline: beforeScaled },
          ...(peer ? [{ name: peerName, server: peer, key, requests: requestsOf(pages.map((p) => p.peer)) }] : []),
        );
      await peer?.stop();
      // The production settings priced here too: a second server without them, head to head. Only when `--only` names both.
      if (ONLY?.has(V8_FLAGS_PG_PAIR[0]) && ONLY.has(V8_FLAGS_PG_PAIR[1])) {
        const bare = await startProductServer({ DATABASE_URL: postgres.url, REDIS_URL: redis.url }, PIN, false);
        const requests = cycling(pages.map((p) => p.product));
        await scenarios({ name: V8_FLAGS_PG_PAIR[0], server: scaled, key, requests }, { name: V8_FLAGS_PG_PAIR[1], server: bare, key, requests });
        await bare.stop();
      }
      await behindPgBouncer(postgres, key, redis.url);
      // After the random pages: the pets it adds would change the last pages.
      await scenario(
        'create (PostgreSQL + Redis)',
        scaled,
        key,
        Array.from({ length: 10 }, (_, i) => newPet(i)),
        beforeScaled,
      );
      await scaled.stop();
      await beforeScaled?.server.stop();
      await redis.stop();
    } else {
      process.stderr.write('  redis-server not found: the PostgreSQL + Redis scenarios are skipped\n');
    }
    await postgres.stop();
  } else if (wanted('list (10k pets, PostgreSQL)')) {
    process.stderr.write('  PostgreSQL binaries not found: the PostgreSQL scenario is skipped\n');
  }
} finally {
  await floor.stop();
  rmSync(work, { recursive: true, force: true });
}

const table = [
  '| Scenario | req/s | p50 ms | p99 ms | errors | peak RSS MB | floor req/s | ratio to floor | CPU µs/request | CPU ratio to floor |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.peakRssMb ?? '-'} | ${r.floorRps} | ${r.ratio.toFixed(2)} | ${r.cpuUs ?? '-'} | ${r.cpuRatio?.toFixed(2) ?? '-'} |`,
  ),
].join('\n');
const find = (name: string) => rows.find((r) => r.scenario === name);
const targets: [string, number | null, string][] = [];
const list = find('list (10k pets)');
const create = find('create');
const small = find('list sold (1k pets)');
const big = find('list sold (1M pets)');
if (list) targets.push(['list / floor >= 0.50', list.ratio, list.ratio >= 0.5 ? 'met' : 'MISSED']);
if (create) targets.push(['create / floor >= 0.25', create.ratio, create.ratio >= 0.25 ? 'met' : 'MISSED']);
if (small && big) {
  const ratio = Math.round((big.p50 / Math.max(small.p50, 0.001)) * 100) / 100;
  targets.push(['p50 1M pets / 1k pets <= 1.2', ratio, ratio <= 1.2 ? 'met' : 'MISSED']);
  targets.push(['peak RSS on 1M pets <= 200 MB', big.peakRssMb, (big.peakRssMb ?? 0) <= 200 ? 'met' : 'MISSED']);
}
const hundredths = (x: number) => Math.round(x * 100) / 100;
const quotient = (a: number | null | undefined, b: number | null | undefined) => (a && b ? hundredths(a / b) : null);
/**
 * One scenario against another that ran in the same rounds (see `scenarios`): the median of each round's quotient,
 * of requests per second and of CPU per request (b's over a's, so that above 1 means a is cheaper).
 */
function headToHead(aName: string, bName: string): { ratio: number | null; cpuRatio: number | null } {
  const a = find(aName);
  const b = find(bName);
  const paired = a && b && a.group === b.group ? a.rounds.map((round, i) => [round, b.rounds[i]!] as const) : [];
  const cpu = paired.filter(([x, y]) => x.cpuUs && y.cpuUs);
  return {
    ratio: paired.length > 0 ? hundredths(median(paired.map(([x, y]) => x.rps / y.rps))) : null,
    cpuRatio: cpu.length > 0 && cpu.length === paired.length ? hundredths(median(cpu.map(([x, y]) => y.cpuUs! / x.cpuUs!))) : null,
  };
}
const limiterPrice = headToHead('list (10k pets)', 'list (admit-all limiter)').ratio;
if (limiterPrice !== null) targets.push(['list with limits / admit-all >= 0.90', limiterPrice, limiterPrice >= 0.9 ? 'met' : 'MISSED']);
// Each scenario against the floor, and the product against the hand-written peers, head to head.
const versus = (measure: string, product: string, peer: string, target: string) => ({ measure, ...headToHead(product, peer), target });
const summary: { measure: string; ratio: number | null; cpuRatio: number | null; target: string }[] = [
  ...[
    ['hot list / floor', 'list (10k pets)', '>= 0.50'],
    ['random pages / floor', 'random pages (10k pets)', ''],
    ['status list (sold, deep cursor) / floor', 'list sold (deep cursor)', ''],
    ['create / floor', 'create', ''],
    ['get by id / floor', 'get by id (deprecated)', ''],
    ['PostgreSQL + Redis hot list / floor', 'list (10k pets, PostgreSQL + Redis)', '>= 0.30'],
    ['PostgreSQL + Redis random pages / floor', 'random pages (10k pets, PostgreSQL + Redis)', ''],
  ].map(([measure, name, target]) => ({
    measure: measure!,
    ratio: find(name!)?.ratio ?? null,
    cpuRatio: find(name!)?.cpuRatio ?? null,
    target: target!,
  })),
  versus('hot list / Koa peer', 'list (10k pets)', 'peer: hand-written Koa list', '>= 1.5'),
  versus('hot list / Fastify peer', 'list (10k pets)', 'peer: hand-written Fastify list', ''),
  versus('random pages / Koa peer', 'random pages (10k pets)', 'peer: hand-written Koa random pages', '>= 1.0'),
  versus('random pages / Fastify peer', 'random pages (10k pets)', 'peer: hand-written Fastify random pages', 'aim >= 1.0'),
  versus(
    'random pages + 2% transitions / Koa peer',
    'random pages + 2% transitions (10k pets)',
    'peer: hand-written Koa random pages + 2% transitions',
    '>= 1.0',
  ),
  versus(
    'random pages + 2% transitions / Fastify peer',
    'random pages + 2% transitions (10k pets)',
    'peer: hand-written Fastify random pages + 2% transitions',
    '>= 1.0',
  ),
  versus(
    'PostgreSQL + Redis random pages + 2% transitions / Koa + pg + ioredis peer',
    'random pages + 2% transitions (10k pets, PostgreSQL + Redis)',
    'peer: hand-written Koa + pg + ioredis random pages + 2% transitions',
    '>= 1.0',
  ),
  versus(
    'PostgreSQL + Redis random pages / Koa + pg + ioredis peer',
    'random pages (10k pets, PostgreSQL + Redis)',
    'peer: hand-written Koa + pg + ioredis random pages',
    '>= 1.0',
  ),
  versus('PgBouncer + Redis random pages / pg peer behind PgBouncer', PGBOUNCER_PAIRS[0]!.product, PGBOUNCER_PAIRS[0]!.peer, 'aim >= 1.0'),
  versus('PgBouncer + Redis Cluster random pages / pg peer behind PgBouncer', PGBOUNCER_PAIRS[1]!.product, PGBOUNCER_PAIRS[1]!.peer, '>= 1.0'),
];
for (const [pair, measure] of [
  [V8_FLAGS_PAIR, 'V8 flags / none'],
  [V8_FLAGS_PG_PAIR, 'V8 flags / none, PostgreSQL + Redis'],
  [KEPT_ROWS_PAIR, 'listing rows kept / none'],
] as const) {
  const price = headToHead(pair[0], pair[1]);
  const peaks = pair.map((name) => find(name)?.peakRssMb ?? '-');
  if (price.ratio !== null) summary.push({ measure: `${measure} (peak RSS ${peaks[0]} / ${peaks[1]} MB)`, ...price, target: 'keep if it pays' });
}
// This build against the baseline (`--baseline`), scenario by scenario, in the same rounds: above 1, this one is ahead.
for (const row of rows.filter((r) => r.scenario.endsWith(BASELINE_SUFFIX))) {
  const name = row.scenario.slice(0, -BASELINE_SUFFIX.length);
  summary.push({
    ...versus(`${name} / baseline`, name, row.scenario, ''),
    measure: `${name} / baseline (peak RSS ${find(name)?.peakRssMb ?? '-'} / ${row.peakRssMb ?? '-'} MB)`,
  });
}
const peakRatio = quotient(find('random pages (10k pets)')?.peakRssMb, find('peer: hand-written Koa random pages')?.peakRssMb);
process.stdout.write(
  `\n| Ratio | requests/s | CPU per request | target |\n|---|---:|---:|---|\n${summary
    .map((r) => `| ${r.measure} | ${r.ratio?.toFixed(2) ?? '-'} | ${r.cpuRatio?.toFixed(2) ?? '-'} | ${r.target} |`)
    .join('\n')}\n| peak RSS, random pages / Koa peer | ${peakRatio?.toFixed(2) ?? '-'} | | <= 1.5 |\n`,
);

const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}${pinned ? ', server on CPU 0, load generator on CPU 1' : PIN ? ', not pinned (no taskset)' : ', not pinned (--no-pin)'}`;
process.stdout.write(`\n${table}\n\nTargets (${machine}):\n${targets.map(([t, v, s]) => `- ${t}: ${v ?? '-'} (${s})`).join('\n')}\n`);

// A full run's figures are kept in bench-results/ (not in git); a quick or smoke run judges no speed and keeps none.
if (MODE.name === 'full') {
  const results = join(REPO, 'bench-results');
  mkdirSync(results, { recursive: true });
  const file = join(results, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        machine,
        rows,
        targets,
        summary,
      },
      null,
      2,
    ),
  );
  process.stdout.write(`\nWritten to ${file}\n`);
}

const errors = rows.reduce((sum, r) => sum + r.errors, 0);
if (errors > 0) {
  process.stderr.write(`\n${errors} non-2xx answers or errors during the benchmark\n`);
  process.exitCode = 1;
}
