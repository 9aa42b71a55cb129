import { afterAll, beforeAll, describe } from '@jest/globals';
import { pgbouncerBinary, startPgBouncer, type RunningPgBouncer } from './startPgBouncer.js';
import { postgresBinDir, startPostgres, type RunningPostgres, type RunningServer } from './startPostgres.js';
import {
  redisCliBinary,
  redisSentinelBinary,
  startRedisCluster,
  startRedisSentinel,
  startSingleRedis,
  type RedisPasswords,
  type RunningRedisTopology,
  type RunningRedisSentinel,
  type RunningReplicatedRedis,
} from './redisTopologies.js';
import { redisServerBinary, startRedis, type RunningRedis } from './startRedis.js';

const STARTUP_TIMEOUT_MS = 60_000;

interface Service<T> {
  name: string;
  installed(): boolean;
  hint: string;
  start(): Promise<T | null>;
}

const POSTGRES: Service<RunningPostgres> = {
  name: 'PostgreSQL',
  installed: () => postgresBinDir() !== null,
  hint: 'the PostgreSQL 15 server binaries (pg_config --bindir, or PG_BINDIR)',
  start: startPostgres,
};
const REDIS: Service<RunningRedis> = {
  name: 'Redis',
  installed: () => redisServerBinary() !== null,
  hint: 'redis-server (apt-get install redis-server)',
  start: startRedis,
};

/** A PostgreSQL server and, in front of it, PgBouncer in transaction pooling mode. */
export interface PostgresBehindPgBouncer {
  postgres: RunningPostgres;
  pgbouncer: RunningPgBouncer;
  stop(): Promise<void>;
}
const POSTGRES_BEHIND_PGBOUNCER: Service<PostgresBehindPgBouncer> = {
  name: 'PostgreSQL behind PgBouncer',
  installed: () => POSTGRES.installed() && pgbouncerBinary() !== null,
  hint: 'the PostgreSQL 15 server binaries and pgbouncer (apt-get install pgbouncer)',
  start: async () => {
    const postgres = await startPostgres();
    if (!postgres) return null;
    const pgbouncer = await startPgBouncer(postgres);
    if (!pgbouncer) {
      await postgres.stop();
      return null;
    }
    return { postgres, pgbouncer, stop: async () => void (await Promise.all([pgbouncer.stop(), postgres.stop()])) };
  },
};
const REDIS_CLUSTER: Service<RunningReplicatedRedis> = {
  name: 'Redis Cluster (3 masters, 3 replicas)',
  installed: () => redisServerBinary() !== null && redisCliBinary() !== null,
  hint: 'redis-server and redis-cli (apt-get install redis-server)',
  start: startRedisCluster,
};
const REDIS_SENTINEL: Service<RunningRedisSentinel> = {
  name: 'Redis Sentinel (master, replica, 3 Sentinels)',
  installed: () => redisServerBinary() !== null && redisCliBinary() !== null && redisSentinelBinary() !== null,
  hint: 'redis-server, redis-cli and redis-sentinel (apt-get install redis-server redis-sentinel)',
  start: startRedisSentinel,
};
const SINGLE_REDIS: Service<RunningRedisTopology> = { ...REDIS, name: 'one Redis', start: startSingleRedis };

/**
 * A describe block whose tests need real servers: started once before its tests on free loopback ports, stopped
 * after them. Without the binaries the block is skipped with a loud warning, except under CI (CI=true), where it
 * runs and fails: a CI run never skips these suites silently.
 */
function describeWith<T extends unknown[]>(services: { [K in keyof T]: Service<T[K]> }, name: string, body: (running: () => T) => void): void {
  const missing = services.filter((service) => !service.installed());
  if (missing.length > 0 && !process.env['CI']) {
    console.warn(`\n!!! SKIPPED "${name}": it needs ${missing.map((service) => service.hint).join(' and ')} !!!\n`);
    describe.skip(name, () => body(() => [] as unknown as T));
    return;
  }
  describe(name, () => {
    let running: T | undefined;
    beforeAll(async () => {
      const started = await Promise.all(services.map((service) => service.start()));
      running = started as T;
      const absent = services.filter((_, i) => started[i] === null).map((service) => service.hint);
      if (absent.length > 0) throw new Error(`${name} needs ${absent.join(' and ')}`);
    }, STARTUP_TIMEOUT_MS);
    afterAll(async () => {
      const started = ((running ?? []) as (Pick<RunningServer, 'stop'> | null)[]).filter((service) => service !== null);
      await Promise.all(started.map((service) => service.stop()));
    }, STARTUP_TIMEOUT_MS);
    body(() => {
      if (!running) throw new Error(`${name}: the servers are not started yet (use them inside hooks and tests)`);
      return running;
    });
  });
}

/** `describe` with a throw-away PostgreSQL server: `postgres()` inside hooks and tests. */
export function describeWithPostgres(name: string, body: (postgres: () => RunningPostgres) => void): void {
  describeWith<[RunningPostgres]>([POSTGRES], name, (running) => body(() => running()[0]));
}

/** `describe` with a throw-away Redis server: `redis()` inside hooks and tests. */
export function describeWithRedis(name: string, body: (redis: () => RunningRedis) => void): void {
  describeWith<[RunningRedis]>([REDIS], name, (running) => body(() => running()[0]));
}

/** `describe` with a Redis Cluster of 3 masters and 3 replicas (with a password, if given): `redis()` inside hooks and tests. */
export function describeWithRedisCluster(name: string, body: (redis: () => RunningReplicatedRedis) => void, passwords: RedisPasswords = {}): void {
  const service = { ...REDIS_CLUSTER, start: () => startRedisCluster(passwords) };
  describeWith<[RunningReplicatedRedis]>([service], name, (running) => body(() => running()[0]));
}

/** `describe` with a Redis master, its replica and 3 Sentinels (with passwords, if given): `redis()` inside hooks and tests. */
export function describeWithRedisSentinel(name: string, body: (redis: () => RunningRedisSentinel) => void, passwords: RedisPasswords = {}): void {
  const service = { ...REDIS_SENTINEL, start: () => startRedisSentinel(passwords) };
  describeWith<[RunningRedisSentinel]>([service], name, (running) => body(() => running()[0]));
}

/** The same tests three times: on one Redis, on a Redis Cluster and on Redis Sentinel, each named in the title. */
export function describeWithEachRedisTopology(name: string, body: (redis: () => RunningRedisTopology) => void): void {
  for (const service of [SINGLE_REDIS, REDIS_CLUSTER, REDIS_SENTINEL]) {
    describeWith<[RunningRedisTopology]>([service], `${name}, on ${service.name}`, (running) => body(() => running()[0]));
  }
}

/** `describe` with both, for the scale-out deployment. */
export function describeWithPostgresAndRedis(name: string, body: (servers: () => { postgres: RunningPostgres; redis: RunningRedis }) => void): void {
  describeWith<[RunningPostgres, RunningRedis]>([POSTGRES, REDIS], name, (running) =>
    body(() => {
      const [postgres, redis] = running();
      return { postgres, redis };
    }),
  );
}

/**
 * `describe` with a throw-away PostgreSQL server behind Debian's PgBouncer in transaction pooling mode (its default
 * settings otherwise): `servers().pgbouncer.url` goes through the pooler, `servers().postgres.url` straight to
 * PostgreSQL.
 */
export function describeWithPgBouncer(name: string, body: (servers: () => PostgresBehindPgBouncer) => void): void {
  describeWith<[PostgresBehindPgBouncer]>([POSTGRES_BEHIND_PGBOUNCER], name, (running) => body(() => running()[0]));
}

/** `describe` with PostgreSQL behind PgBouncer (as `describeWithPgBouncer`) and a Redis server, for the scale-out topology. */
export function describeWithPgBouncerAndRedis(name: string, body: (servers: () => PostgresBehindPgBouncer & { redis: RunningRedis }) => void): void {
  describeWith<[PostgresBehindPgBouncer, RunningRedis]>([POSTGRES_BEHIND_PGBOUNCER, REDIS], name, (running) =>
    body(() => {
      const [pooled, redis] = running();
      return { ...pooled, redis };
    }),
  );
}
