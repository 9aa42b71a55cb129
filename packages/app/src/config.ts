import { DEFAULT_BAN_RULE, DEFAULT_EVENT_RETENTION_MS, DEFAULT_FAILED_AUTH_PER_MINUTE, type BanRule } from '@petstore/core';
import { MIN_ADMIN_TOKEN_LENGTH } from '@petstore/http-koa/admin-token';
import { KEY_USAGE_FLUSH_INTERVAL_MS } from './flushKeyUsage.js';
import {
  DATABASE_POOL_MODES,
  DATABASE_URL_FORMS,
  parseDatabaseUrl,
  redact,
  SQLITE_SYNCHRONOUS_MODES,
  type DatabasePoolMode,
  type SqliteSynchronous,
} from '@petstore/persistence-typeorm';
import type { RedisNode, RedisSecurity, RedisTopology } from '@petstore/rate-limit-redis';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** PostgreSQL reached directly or through a session pooler (`session`), or through a transaction pooler. */
  databasePoolMode: DatabasePoolMode;
  /** Ends in `/v1`, no trailing slash. `null` (PUBLIC_BASE_URL unset): the address that answers, `http://HOST:<bound port>/v1`. */
  publicBaseUrl: string | null;
  /** Where instances share their rate-limit counters (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS); null: in process. */
  redis: RedisTopology | null;
  /** Reverse proxies in front that append to X-Forwarded-For (TRUST_PROXY_HOPS; TRUST_PROXY=true means 1). */
  trustedProxyHops: number;
  logLevel: LogLevel;
  ban: BanRule;
  failedAuthPerMinute: number;
  nodeEnv: NodeEnv;
  /** The Prometheus endpoint's port (METRICS_PORT); null: no metrics listener. */
  metricsPort: number | null;
  /** Its address (METRICS_HOST), default 127.0.0.1 whatever HOST is: the counters are for operators. */
  metricsHost: string;
  corsOrigins: string[];
  /** How long an API key lookup is cached: the bound on how late a revocation takes effect. */
  keyCacheTtlMs: number;
  /** How often the keys' usage per day and last use are written (KEY_USAGE_FLUSH_MS): how far behind the admin API's usage is. */
  keyUsageFlushMs: number;
  /** How long a shutdown waits for in-flight requests. */
  shutdownTimeoutMs: number;
  /** Slow clients: the headers, and the whole request, must arrive within these. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** SQLite busy timeout, PostgreSQL connect and statement timeout. */
  databaseTimeoutMs: number;
  /** SQLite's `synchronous` pragma: NORMAL survives a killed process, FULL also a power loss (slower writes). */
  sqliteSynchronous: SqliteSynchronous;
  /** SQLite only: how many listing rows are kept in memory to serve pages from (0: none). */
  sqliteKeptListingRows: number;
  /** Serve the interactive API reference at `GET /docs`. */
  docsEnabled: boolean;
  /** The admin API's listener (ADMIN_TOKEN, ADMIN_PORT, ADMIN_HOST, ADMIN_PUBLIC_BASE_URL); null when ADMIN_TOKEN is unset: no listener. */
  admin: AdminListener | null;
  webhooks: WebhookSettings;
}

interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: also loopback, private and link-local addresses, and plain http (development and tests only: unsafe). */
  allowPrivateTargets: boolean;
  /** WEBHOOK_RETRY_SCHEDULE_MS: the waits between attempts, in ms; null: the default schedule (about three days). */
  retryDelaysMs: number[] | null;
  /** WEBHOOK_TIMEOUT_MS: how long a receiver has to answer (default 10 s). */
  timeoutMs: number;
  /** WEBHOOK_POLL_INTERVAL_MS: how often the worker looks for others' events and due retries (default 1 s). */
  pollIntervalMs: number;
  /** EVENT_RETENTION: how long events, deliveries and attempts are kept, in ms (default 30 days). */
  retentionMs: number;
}

interface AdminListener {
  /** At least 32 characters; every admin request sends it as `Authorization: Bearer <token>`. */
  token: string;
  /** Default 3001. */
  port: number;
  /** Default 127.0.0.1 (this machine only), whatever HOST is: exposing it is a decision of its own. */
  host: string;
  /**
   * Ends in `/admin/v1`, no trailing slash: the base callers use, for `Location` and the admin document's `servers`.
   * `null` (ADMIN_PUBLIC_BASE_URL unset): the address that answers, `http://ADMIN_HOST:<bound port>/admin/v1`.
   */
  publicBaseUrl: string | null;
}

/** A bad environment variable: the process stops with exit code 2 and this one-line message. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly value: string,
    readonly accepted: string,
  ) {
    // The value may be a URL with a password (DATABASE_URL, REDIS_URL): it never reaches stderr or a log whole.
    super(`${variable}=${JSON.stringify(redact(value))} is invalid: expected ${accepted}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(name, raw, `an integer from ${min} to ${max}`);
  return Number(raw);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(name, raw, `one of ${values.join(', ')}`);
  return raw as T;
}

function boolean(env: Env, name: string, fallback = false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, raw, 'true or false');
}

function readDatabaseUrl(env: Env): string {
  const raw = env['DATABASE_URL'] || 'sqlite:./data/petstore.db';
  try {
    parseDatabaseUrl(raw);
  } catch {
    throw new ConfigError('DATABASE_URL', raw, DATABASE_URL_FORMS);
  }
  return raw;
}

/** An absolute http(s) base URL whose path ends in `ending` (PUBLIC_BASE_URL, ADMIN_PUBLIC_BASE_URL), or null when unset. */
function baseUrl(env: Env, name: string, ending: string, example: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.pathname.endsWith(ending) || url.search || url.hash) {
    throw new ConfigError(name, raw, `an absolute http(s) URL ending in ${ending}, such as ${example}`);
  }
  return raw;
}

function redisUrl(raw: string): RedisTopology {
  if (!/^rediss?:\/\/[^/]+/.test(raw) || !URL.canParse(raw))
    throw new ConfigError('REDIS_URL', raw, 'redis://[user:pass@]host:port[/db] or rediss://...');
  return { kind: 'single', url: raw };
}

const NODE_PATTERN = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):([0-9]{1,5})$/;

/** REDIS_CLUSTER_NODES, REDIS_SENTINELS: `host:port,host:port,...` (an IPv6 address in brackets). */
function redisNodes(name: string, raw: string): RedisNode[] {
  return raw.split(',').map((entry) => {
    const match = NODE_PATTERN.exec(entry.trim());
    const port = Number(match?.[3]);
    if (!match || port < 1 || port > 65_535) {
      throw new ConfigError(name, raw, 'a comma-separated list of host:port, such as 10.0.0.1:6379,10.0.0.2:6379 ([::1]:6379 for IPv6)');
    }
    return { host: match[1] ?? match[2]!, port };
  });
}

const REDIS_VARIABLES = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'] as const;
/** Sign-in and TLS for Cluster and Sentinel nodes; a REDIS_URL carries its own (`rediss://user:password@host`). */
const REDIS_SECURITY_VARIABLES = ['REDIS_USERNAME', 'REDIS_PASSWORD', 'REDIS_TLS', 'REDIS_SENTINEL_PASSWORD'] as const;
const SECRET_VARIABLES: readonly string[] = ['REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD'];

/** A value as a message may show it: a password only by its length. */
const shown = (name: string, raw: string) => (SECRET_VARIABLES.includes(name) ? `(hidden, ${raw.length} characters)` : raw);

/** REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS for the data nodes of a Cluster or Sentinel's master and replicas. */
function redisSecurity(env: Env): RedisSecurity {
  const username = env['REDIS_USERNAME'] || undefined;
  const password = env['REDIS_PASSWORD'] || undefined;
  if (username !== undefined && !/^[\x21-\x7e]+$/.test(username)) {
    throw new ConfigError('REDIS_USERNAME', username, 'an ACL user name (printable characters, no spaces)');
  }
  if (username !== undefined && password === undefined) {
    throw new ConfigError('REDIS_USERNAME', username, 'REDIS_PASSWORD to be set too: an ACL user signs in with its password');
  }
  const tls = boolean(env, 'REDIS_TLS');
  return { ...(username && { username }), ...(password && { password }), ...(tls && { tls }) };
}

/** At most one of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS (with REDIS_SENTINEL_MASTER), and what signs in to them. */
function redisTopology(env: Env): RedisTopology | null {
  const set = REDIS_VARIABLES.filter((name) => env[name]);
  const master = env['REDIS_SENTINEL_MASTER'] ?? '';
  if (set.length > 1) {
    const [first, ...others] = set;
    throw new ConfigError(others[0]!, env[others[0]!]!, `only one of ${REDIS_VARIABLES.join(', ')} to be set, not ${first} as well`);
  }
  if (master !== '' && set[0] !== 'REDIS_SENTINELS') throw new ConfigError('REDIS_SENTINEL_MASTER', master, 'REDIS_SENTINELS to be set too');
  const misplaced = REDIS_SECURITY_VARIABLES.find(
    (name) => env[name] && (set[0] === undefined || set[0] === 'REDIS_URL' || (name === 'REDIS_SENTINEL_PASSWORD' && set[0] !== 'REDIS_SENTINELS')),
  );
  if (misplaced) {
    const accepted =
      misplaced === 'REDIS_SENTINEL_PASSWORD'
        ? 'REDIS_SENTINELS to be set too'
        : set[0] === 'REDIS_URL'
          ? 'REDIS_CLUSTER_NODES or REDIS_SENTINELS to be set instead of REDIS_URL, which carries its own user, password and TLS (rediss://user:password@host:port)'
          : 'REDIS_CLUSTER_NODES or REDIS_SENTINELS to be set too';
    throw new ConfigError(misplaced, shown(misplaced, env[misplaced]!), accepted);
  }
  if (set[0] === undefined) return null;
  if (set[0] === 'REDIS_URL') return redisUrl(env['REDIS_URL']!);
  if (set[0] === 'REDIS_CLUSTER_NODES') {
    return { kind: 'cluster', nodes: redisNodes('REDIS_CLUSTER_NODES', env['REDIS_CLUSTER_NODES']!), ...redisSecurity(env) };
  }
  const sentinels = redisNodes('REDIS_SENTINELS', env['REDIS_SENTINELS']!);
  if (!/^[A-Za-z0-9._-]+$/.test(master)) {
    throw new ConfigError(
      'REDIS_SENTINEL_MASTER',
      master,
      'the name the Sentinels watch the master under (letters, digits, . _ -), such as mymaster',
    );
  }
  const sentinelPassword = env['REDIS_SENTINEL_PASSWORD'] || undefined;
  return { kind: 'sentinel', sentinels, masterName: master, ...redisSecurity(env), ...(sentinelPassword && { sentinelPassword }) };
}

function corsOrigins(env: Env): string[] {
  const raw = env['CORS_ORIGINS'];
  if (raw === undefined || raw.trim() === '') return [];
  const origins = raw.split(',').map((o) => o.trim());
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError('CORS_ORIGINS', raw, 'a comma-separated list of origins such as https://app.example.com (scheme, host and port only)');
    }
  }
  return origins;
}

const HOST_PATTERN = /^[A-Za-z0-9.:-]+$/;

/** The least an admin token may have, as estimated by `adminTokenBits`. */
const MIN_ADMIN_TOKEN_BITS = 128;

/**
 * The admin token's strength in bits: zxcvbn's estimate of the guesses an attacker needs (log2). It finds repeats
 * (`aaaa...`, a block written twice), sequences (`abcd...`, `0123...`) and dates, and counts any other character as
 * one of 10: a conservative floor for a random string (64 hex digits: about 210 bits; 32: about 106).
 */
function adminTokenBits(token: string): number {
  return new ZxcvbnFactory().check(token).guessesLog10 * Math.log2(10);
}

function adminListener(env: Env): AdminListener | null {
  const token = env['ADMIN_TOKEN'] ?? '';
  if (token === '') {
    for (const name of ['ADMIN_PORT', 'ADMIN_HOST', 'ADMIN_PUBLIC_BASE_URL']) {
      const raw = env[name];
      if (raw) throw new ConfigError(name, raw, 'ADMIN_TOKEN to be set too: the admin API listens only when it has a token');
    }
    return null;
  }
  // The value itself never reaches stderr or a log.
  if (token.length < MIN_ADMIN_TOKEN_LENGTH || /\s/.test(token)) {
    throw new ConfigError(
      'ADMIN_TOKEN',
      `(hidden, ${token.length} characters)`,
      `at least ${MIN_ADMIN_TOKEN_LENGTH} characters without spaces, such as the output of openssl rand -hex 32`,
    );
  }
  const bits = adminTokenBits(token);
  if (bits < MIN_ADMIN_TOKEN_BITS) {
    throw new ConfigError(
      'ADMIN_TOKEN',
      `(hidden, ${token.length} characters)`,
      `a random token of at least ${MIN_ADMIN_TOKEN_BITS} bits of estimated entropy (this one: about ${Math.floor(bits)}), such as the output of openssl rand -hex 32`,
    );
  }
  const host = env['ADMIN_HOST'] || '127.0.0.1';
  if (!HOST_PATTERN.test(host)) throw new ConfigError('ADMIN_HOST', host, 'a host name or IP address to listen on');
  return {
    token,
    port: integer(env, 'ADMIN_PORT', 3001, 0, 65_535),
    host,
    publicBaseUrl: baseUrl(env, 'ADMIN_PUBLIC_BASE_URL', '/admin/v1', 'https://admin.example.com/admin/v1'),
  };
}

function metricsHost(env: Env): string {
  const host = env['METRICS_HOST'] ?? '';
  if (host === '') return '127.0.0.1';
  if (!env['METRICS_PORT']) throw new ConfigError('METRICS_HOST', host, 'METRICS_PORT to be set too: metrics are served only on a port of their own');
  if (!HOST_PATTERN.test(host)) throw new ConfigError('METRICS_HOST', host, 'a host name or IP address to listen on');
  return host;
}

/** A listening address as a URL's origin: `http://127.0.0.1:3000`, `http://[::1]:3000`. */
function listeningOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The base of the API on a listening address: `http://127.0.0.1:3000/v1`. */
export function listeningUrl(host: string, port: number): string {
  return `${listeningOrigin(host, port)}/v1`;
}

/** The base of the admin API on its listening address: `http://127.0.0.1:3001/admin/v1`. */
export function adminUrl(host: string, port: number): string {
  return `${listeningOrigin(host, port)}/admin/v1`;
}

/** Reads and checks the configuration from environment variables; throws ConfigError on the first bad one. */
function retrySchedule(env: Env): number[] | null {
  const raw = env['WEBHOOK_RETRY_SCHEDULE_MS'];
  if (raw === undefined || raw === '') return null;
  const delays = raw.split(',').map((part) => part.trim());
  if (delays.length > 20 || !delays.every((d) => /^[0-9]{1,9}$/.test(d)))
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE_MS', raw, 'up to 20 comma-separated waits in milliseconds (5000,300000,...)');
  return delays.map(Number);
}

const DURATION_UNITS_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const RETENTION_BOUNDS_MS = { min: 10_000, max: 3_650 * 86_400_000 };

/** EVENT_RETENTION: a whole number and a unit (`30d`, `12h`, `90m`, `45s`), from 10 s to 3650 days. */
function eventRetention(env: Env): number {
  const raw = env['EVENT_RETENTION'];
  if (raw === undefined || raw === '') return DEFAULT_EVENT_RETENTION_MS;
  const match = /^([0-9]{1,7})([smhd])$/.exec(raw);
  const ms = match ? Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS] : NaN;
  if (!(ms >= RETENTION_BOUNDS_MS.min && ms <= RETENTION_BOUNDS_MS.max)) {
    throw new ConfigError('EVENT_RETENTION', raw, 'a whole number and a unit (s, m, h or d) from 10s to 3650d, such as 30d or 12h');
  }
  return ms;
}

function webhookSettings(env: Env): WebhookSettings {
  return {
    allowPrivateTargets: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    retryDelaysMs: retrySchedule(env),
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    pollIntervalMs: integer(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, 10, 60_000),
    retentionMs: eventRetention(env),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const host = env['HOST'] || '127.0.0.1';
  if (!HOST_PATTERN.test(host)) throw new ConfigError('HOST', host, 'a host name or IP address to listen on');
  return {
    port,
    host,
    databaseUrl: readDatabaseUrl(env),
    databasePoolMode: oneOf(env, 'DATABASE_POOL_MODE', DATABASE_POOL_MODES, 'session'),
    publicBaseUrl: baseUrl(env, 'PUBLIC_BASE_URL', '/v1', 'https://api.example.com/v1'),
    redis: redisTopology(env),
    trustedProxyHops: env['TRUST_PROXY_HOPS'] ? integer(env, 'TRUST_PROXY_HOPS', 0, 0, 10) : boolean(env, 'TRUST_PROXY') ? 1 : 0,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    ban: {
      strikes: integer(env, 'BAN_STRIKES', DEFAULT_BAN_RULE.strikes, 1, 1_000_000),
      durationSeconds: integer(env, 'BAN_SECONDS', DEFAULT_BAN_RULE.durationSeconds, 1, 7 * 86_400),
      strikeIntervalSeconds: integer(env, 'BAN_STRIKE_INTERVAL_SECONDS', DEFAULT_BAN_RULE.strikeIntervalSeconds, 0, 3_600),
    },
    failedAuthPerMinute: integer(env, 'FAILED_AUTH_PER_MINUTE', DEFAULT_FAILED_AUTH_PER_MINUTE, 1, 1_000_000),
    nodeEnv: oneOf(env, 'NODE_ENV', ['development', 'production', 'test'], 'development'),
    metricsPort: env['METRICS_PORT'] ? integer(env, 'METRICS_PORT', 0, 0, 65_535) : null,
    metricsHost: metricsHost(env),
    corsOrigins: corsOrigins(env),
    keyCacheTtlMs: integer(env, 'KEY_CACHE_TTL_MS', 2_000, 0, 5_000),
    keyUsageFlushMs: integer(env, 'KEY_USAGE_FLUSH_MS', KEY_USAGE_FLUSH_INTERVAL_MS, 100, 60_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 120_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 300_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 300_000),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 5_000, 100, 60_000),
    sqliteSynchronous: oneOf(env, 'SQLITE_SYNCHRONOUS', SQLITE_SYNCHRONOUS_MODES, 'NORMAL'),
    sqliteKeptListingRows: integer(env, 'SQLITE_KEPT_LISTING_ROWS', 50_000, 0, 10_000_000),
    docsEnabled: boolean(env, 'DOCS_ENABLED', true),
    admin: adminListener(env),
    webhooks: webhookSettings(env),
  };
}
