import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './commandDeadline.js';
import { withoutSecrets } from './withoutSecrets.js';

/** One Redis node or Sentinel, as `host:port`. */
export interface RedisNode {
  host: string;
  port: number;
}

/** How the client signs in to the data nodes (masters and replicas) and protects its connections. A URL carries its own. */
export interface RedisSecurity {
  /** The ACL user (`AUTH username password`); without it, `AUTH password` (the `default` user, or `requirepass`). */
  username?: string | undefined;
  password?: string | undefined;
  /** TLS to every node (and Sentinel), the certificate checked against the system's CAs and the node's address. */
  tls?: boolean | undefined;
}

/**
 * Where the rate-limit counters live: one Redis (a URL), a Redis Cluster (any of its nodes: the client discovers the
 * rest and follows the slots), or the master that Redis Sentinel names (the client asks the Sentinels again after a
 * failover). The Sentinels have a password of their own (`requirepass` in sentinel.conf).
 */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | ({ kind: 'cluster'; nodes: readonly RedisNode[] } & RedisSecurity)
  | ({ kind: 'sentinel'; sentinels: readonly RedisNode[]; masterName: string; sentinelPassword?: string | undefined } & RedisSecurity);

/** A client of any topology: the store sends the same commands to each. */
export type RedisClient = Redis | Cluster;

/** Backoff of every reconnection, to a node, a master or a Sentinel: up to 2 s, forever. */
const reconnectAfter = (attempt: number) => Math.min(attempt * 200, 2_000);

/** What every connection shares: fail fast rather than queue (one attempt per command, bounded by its timeout). */
const CONNECTION_OPTIONS = {
  commandTimeout: DEFAULT_COMMAND_TIMEOUT_MS,
  connectTimeout: 2_000,
  maxRetriesPerRequest: 1,
} satisfies RedisOptions;

/** The credentials and TLS options of a connection to a data node, as ioredis takes them. */
const signIn = ({ username, password, tls }: RedisSecurity) => ({ username, password, ...(tls ? { tls: {} } : {}) }) satisfies RedisOptions;

/** Clients closed by `closeRedisClient`: the only ones meant to end. */
const closedOnPurpose = new WeakSet<RedisClient>();

/**
 * Reconnects a Sentinel client that ioredis ends by itself: when `+switch-master` arrives while the client is asking a
 * Sentinel for the master (after the master's connection dropped), the failover detector closes the connector under
 * that question and ioredis gives up for good ("end"), which would leave the client on no master until a restart.
 */
function reconnectWhenEnded(redis: Redis): Redis {
  let attempts = 0;
  redis.on('ready', () => (attempts = 0));
  redis.on('end', () => {
    if (closedOnPurpose.has(redis)) return;
    setTimeout(() => {
      if (!closedOnPurpose.has(redis) && redis.status === 'end') redis.connect().catch(() => undefined);
    }, reconnectAfter(++attempts)).unref();
  });
  return redis;
}

function connect(topology: RedisTopology): RedisClient {
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, { ...CONNECTION_OPTIONS, enableOfflineQueue: false, retryStrategy: reconnectAfter });
    case 'cluster':
      // Redirections (MOVED, a failover's closed connection, CLUSTERDOWN) are retried within the command's timeout.
      return new Cluster([...topology.nodes], {
        enableOfflineQueue: false,
        clusterRetryStrategy: reconnectAfter,
        redisOptions: { ...CONNECTION_OPTIONS, ...signIn(topology) },
      });
    case 'sentinel':
      return reconnectWhenEnded(
        new Redis({
          ...CONNECTION_OPTIONS,
          ...signIn(topology),
          sentinels: [...topology.sentinels],
          name: topology.masterName,
          sentinelPassword: topology.sentinelPassword,
          ...(topology.tls ? { enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
          enableOfflineQueue: false,
          retryStrategy: reconnectAfter,
          sentinelRetryStrategy: reconnectAfter,
          // A Sentinel that accepts the connection but never answers (paused, overloaded) is passed over for the next.
          sentinelCommandTimeout: DEFAULT_COMMAND_TIMEOUT_MS,
          // Hears +switch-master from the Sentinels and moves to the new master at once, and a demoted master's
          // READONLY refusal sends the client back to the Sentinels.
          failoverDetector: true,
          reconnectOnError: (error) => error.message.startsWith('READONLY'),
        }),
      );
  }
}

/**
 * An ioredis client tuned to fail fast rather than queue: no offline queue, a 2 s command timeout (1 s for Redis to
 * start a rate-limit script, see commandDeadline.ts, plus the clock skew margin), one attempt per command. It
 * reconnects by itself in the background (backoff up to 2 s), so service resumes when Redis returns or fails over.
 * A string is a `redis://` URL. `onError` hears every connection failure, a refused password's arguments hidden.
 */
export function createRedisClient(target: string | RedisTopology, onError: (error: Error) => void = () => undefined): RedisClient {
  const redis = connect(typeof target === 'string' ? { kind: 'single', url: target } : target);
  redis.on('error', (error: Error) => onError(withoutSecrets(error)));
  return redis;
}

/** Resolves true once the client is connected, false if that takes longer than `timeoutMs`. */
export function whenReady(redis: RedisClient, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

/**
 * Closes the client for good: QUIT (what was sent is answered first), then disconnect, which also closes what QUIT
 * leaves open (the Sentinel client's subscriptions to every Sentinel).
 */
export async function closeRedisClient(redis: RedisClient): Promise<void> {
  closedOnPurpose.add(redis);
  await redis.quit().catch(() => undefined);
  redis.disconnect();
}
