import 'reflect-metadata';
import {
  CachingKeyStore,
  createPetStore,
  openInProcessRateLimits,
  SystemClock,
  type Clock,
  type DeliveryObserver,
  type EventLog,
  type IdempotencyStore,
  type KeyStore,
  type PetRepository,
  type PetStore,
  type RateLimitStore,
} from '@petstore/core';
import { CONSOLE_DIRECTORY } from '@petstore/console';
import type { ListingRevision, ResponseRecord } from '@petstore/http-koa';
import type { RedisClient, RedisRateLimitStore } from '@petstore/rate-limit-redis';
import {
  createDataSource,
  dialectOf,
  migrate,
  pingDatabase,
  redact,
  TypeOrmAuditLog,
  TypeOrmBanStore,
  TypeOrmEventLog,
  TypeOrmIdempotencyStore,
  TypeOrmKeyStore,
  TypeOrmKeyUsageStore,
  TypeOrmPetRepository,
  TypeOrmWebhookHistory,
  TypeOrmWebhookStore,
  type DataSource,
} from '@petstore/persistence-typeorm';
import { Container, ContainerModule, type ServiceIdentifier } from 'inversify';
import { pino, type Logger } from 'pino';
import { adminUrl, listeningUrl, type Config } from './config.js';
import { credentialRedactor, type CredentialRedactor } from './credentialRedactor.js';
import { flushKeyUsagePeriodically } from './flushKeyUsage.js';
import { Metrics } from './metrics.js';
import { oncePer } from './oncePer.js';
import { TOKENS, type ReadinessCheck, type TracingHooks } from './tokens.js';
import { ChangeSignal, signallingChanges } from './webhooks/ChangeSignal.js';
import { HttpWebhookSender } from './webhooks/HttpWebhookSender.js';
import { SafeWebhookTargets } from './webhooks/safeTargets.js';
import { HistoryPurger, purgeIntervalOf } from './webhooks/HistoryPurger.js';
import { WebhookWorker } from './webhooks/WebhookWorker.js';

function redactedError(error: Error): pino.SerializedError {
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: redact(serialized.message), stack: redact(serialized.stack) };
}

function basicsModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    // Lines are gathered up to 4 KiB and written synchronously, at the latest every 250 ms. Asynchronous writes go
    // through the thread pool, and when the CPU is saturated their backlog grows, and with it the cost of every
    // further line (docs/performance.md). The closers, RunningServer.close() and the server's exit flush the rest.
    bind(TOKENS.Logger).toConstantValue(
      pino(
        // Driver errors can quote a connection URL: no log line carries its password.
        { level: config.logLevel, base: { service: 'petstore' }, serializers: { err: redactedError } },
        pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 250 }),
      ),
    );
    bind(TOKENS.Metrics).toResolvedValue(
      (webhooks: TypeOrmWebhookStore, clock: Clock) =>
        new Metrics(async () => {
          const { pending, undispatched, oldestDueAt } = await webhooks.backlog();
          const lagMs = oldestDueAt === null ? 0 : clock.now().getTime() - oldestDueAt.getTime();
          return { pending, undispatched, lagSeconds: Math.max(0, lagMs) / 1000 };
        }),
      [TOKENS.WebhookStore, TOKENS.Clock],
    );
    bind(TOKENS.Clock).toResolvedValue(() => new SystemClock());
    // Rebound by main.ts when tracing is on (tracing.ts); null: no hook runs anywhere.
    bind(TOKENS.Tracing).toConstantValue(null);
    bind(TOKENS.Closers).toResolvedValue((logger: Logger) => () => new Promise<void>((resolve) => logger.flush(() => resolve())), [TOKENS.Logger]);
  });
}

/**
 * PgBouncer refuses the timeouts that pg sends when it connects in session mode: the operator has pointed
 * DATABASE_URL at a pooler without saying so, and the message says what to set.
 */
function withPoolModeHint(error: unknown, config: Config): unknown {
  if (config.databasePoolMode !== 'session' || !(error instanceof Error) || !/unsupported startup parameter/.test(error.message)) return error;
  return new Error(`${error.message} (behind PgBouncer or another pooler, set DATABASE_POOL_MODE=transaction)`, { cause: error });
}

/** TypeORM on SQLite or PostgreSQL: the DataSource is initialized and migrated when first resolved. */
function persistenceModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.DataSource).toResolvedValue(
      async (logger: Logger) => {
        const dataSource = createDataSource(config.databaseUrl, {
          statementTimeoutMs: config.databaseTimeoutMs,
          sqliteSynchronous: config.sqliteSynchronous,
          poolMode: config.databasePoolMode,
        });
        await dataSource.initialize().catch((error: unknown) => {
          throw withPoolModeHint(error, config);
        });
        const applied = await migrate(dataSource);
        if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
        return dataSource;
      },
      [TOKENS.Logger],
    );
    // On SQLite, pages are served from listing rows kept in memory (SQLITE_KEPT_LISTING_ROWS, about 120 bytes each).
    // Relies on: pets change only through this repository on this process's connection (nothing here writes them
    // otherwise), and every other process's commit is seen through SQLite's data_version. PostgreSQL keeps nothing:
    // only a round trip could tell what other instances changed (docs/decisions/0029-listing-rows-kept-on-sqlite.md).
    // Each change records its event in its own transaction; the signal wakes the webhook worker after the commit.
    bind(TOKENS.ChangeSignal).toConstantValue(new ChangeSignal());
    const storedPets = (dataSource: DataSource, tracing: TracingHooks | null) =>
      new TypeOrmPetRepository(dataSource, {
        ...(tracing ? { statements: tracing.statements } : {}),
        keptListingRows: dialectOf(dataSource) === 'sqlite' ? config.sqliteKeptListingRows : 0,
      });
    bind(TOKENS.StoredPets).toResolvedValue(storedPets, [TOKENS.DataSource, TOKENS.Tracing]);
    bind(TOKENS.PetRepository).toResolvedValue(
      (pets: TypeOrmPetRepository, signal: ChangeSignal) => signallingChanges(pets, signal),
      [TOKENS.StoredPets, TOKENS.ChangeSignal],
    );
    bind(TOKENS.ListingRevision).toResolvedValue(
      (pets: TypeOrmPetRepository) => (pets.keepsListingRows ? () => pets.listingRevision() : undefined),
      [TOKENS.StoredPets],
    );
    bind(TOKENS.EventLog).toResolvedValue((dataSource: DataSource) => new TypeOrmEventLog(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.WebhookStore).toResolvedValue((dataSource: DataSource) => new TypeOrmWebhookStore(dataSource), [TOKENS.DataSource]);
    // Keys are looked up through a short cache. Relies on: a change to a key made on another instance or through the
    // CLI may take up to KEY_CACHE_TTL_MS to be seen here (docs/operations.md promises no less); time rules are
    // judged per request from the cached record.
    bind(TOKENS.KeyStore).toResolvedValue(
      (dataSource: DataSource, clock: Clock) => new CachingKeyStore(new TypeOrmKeyStore(dataSource), clock, config.keyCacheTtlMs),
      [TOKENS.DataSource, TOKENS.Clock],
    );
    bind(TOKENS.IdempotencyStore).toResolvedValue((dataSource: DataSource) => new TypeOrmIdempotencyStore(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.ReadinessChecks).toResolvedValue((dataSource: DataSource) => () => pingDatabase(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.Closers).toResolvedValue((dataSource: DataSource) => () => dataSource.destroy(), [TOKENS.DataSource]);
  });
}

const REDIS_RATE_LIMIT_STORE: ServiceIdentifier<RedisRateLimitStore> = Symbol.for('petstore.RedisRateLimitStore');
/** Hears every Redis failure (the client's and the store's) and logs it, at most every 10 s. */
const REDIS_UNREACHABLE: ServiceIdentifier<(error: unknown) => void> = Symbol.for('petstore.RedisUnreachable');

/** The Redis adapter and its client library are loaded only where the configuration asks for Redis (they hold memory). */
const redisAdapter = () => import('@petstore/rate-limit-redis');

/**
 * In-process counters for one instance, which keep the day's counts (from the keys' usage) and the bans (in the
 * database) across a restart; Redis (one, a Cluster or Sentinel's master) when several instances must share them.
 */
function rateLimitModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const topology = config.redis;
    if (topology === null) {
      bind(TOKENS.RateLimitStore).toResolvedValue(
        (dataSource: DataSource, clock: Clock, logger: Logger) =>
          openInProcessRateLimits({
            usage: new TypeOrmKeyUsageStore(dataSource),
            bans: new TypeOrmBanStore(dataSource),
            clock,
            onWriteError: (error) => logger.warn({ err: error }, 'could not write a rate-limit ban: it holds until this process stops'),
          }),
        [TOKENS.DataSource, TOKENS.Clock, TOKENS.Logger],
      );
      return;
    }
    // Refused connections (the client's errors) and stalls (commands timed out) alike; ioredis reports every failed
    // reconnection attempt, and a stall fails every request: one line every 10 s while it lasts is enough.
    bind(REDIS_UNREACHABLE).toResolvedValue(
      (logger: Logger) => oncePer(10_000, (error: unknown) => logger.warn({ err: error }, 'rate-limit store (Redis) unreachable: answering 503')),
      [TOKENS.Logger],
    );
    bind(TOKENS.Redis).toResolvedValue(
      async (logger: Logger, unreachable: (error: unknown) => void) => {
        const { createRedisClient, whenReady } = await redisAdapter();
        const redis = createRedisClient(topology, unreachable);
        if (!(await whenReady(redis))) logger.warn('Redis is not reachable yet: requests answer 503 until it is');
        return redis;
      },
      [TOKENS.Logger, REDIS_UNREACHABLE],
    );
    bind(REDIS_RATE_LIMIT_STORE).toResolvedValue(
      async (redis: RedisClient, unreachable: (error: unknown) => void) =>
        new (await redisAdapter()).RedisRateLimitStore(redis, undefined, unreachable),
      [TOKENS.Redis, REDIS_UNREACHABLE],
    );
    bind(TOKENS.RateLimitStore).toService(REDIS_RATE_LIMIT_STORE);
    bind(TOKENS.ReadinessChecks).toResolvedValue((store: RedisRateLimitStore) => () => store.ping(), [REDIS_RATE_LIMIT_STORE]);
    bind(TOKENS.Closers).toResolvedValue(
      async (redis: RedisClient) => {
        const { closeRedisClient } = await redisAdapter();
        return () => closeRedisClient(redis);
      },
      [TOKENS.Redis],
    );
  });
}

/**
 * Every use case, assembled by core from the ports bound above and the configured rules. Once assembled, the keys'
 * use is flushed to the database every 30 s and at shutdown (the recorder purges old days on its first flush of a day).
 */
function useCasesModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    let stopFlushing: (() => Promise<void>) | undefined;
    bind(TOKENS.PetStore).toResolvedValue(
      (
        pets: PetRepository,
        keys: KeyStore,
        rateLimits: RateLimitStore,
        idempotency: IdempotencyStore,
        clock: Clock,
        dataSource: DataSource,
        logger: Logger,
        events: EventLog,
        webhooks: TypeOrmWebhookStore,
        metrics: Metrics,
        tracing: TracingHooks | null,
      ) => {
        const { allowPrivateTargets, retryDelaysMs, timeoutMs } = config.webhooks;
        const petStore = createPetStore(
          {
            pets,
            keys,
            rateLimits,
            idempotency,
            auditLog: new TypeOrmAuditLog(dataSource),
            keyUsage: new TypeOrmKeyUsageStore(dataSource),
            events,
            webhookEndpoints: webhooks,
            deliveries: webhooks,
            webhookHistory: new TypeOrmWebhookHistory(dataSource),
            webhookTargets: new SafeWebhookTargets(allowPrivateTargets),
            webhookSender: new HttpWebhookSender(allowPrivateTargets),
            clock,
          },
          {
            ban: config.ban,
            failedAuthPerMinute: config.failedAuthPerMinute,
            delivery: { timeoutMs, ...(retryDelaysMs && { retryDelaysMs }) },
            eventRetentionMs: config.webhooks.retentionMs,
            deliveryObserver: observedDeliveries(metrics, tracing),
          },
        );
        stopFlushing = flushKeyUsagePeriodically(petStore.keyUsageRecorder, config.keyUsageFlushMs, (error) =>
          logger.warn({ err: error }, "could not write the keys' usage: retrying at the next flush"),
        );
        return petStore;
      },
      [
        TOKENS.PetRepository,
        TOKENS.KeyStore,
        TOKENS.RateLimitStore,
        TOKENS.IdempotencyStore,
        TOKENS.Clock,
        TOKENS.DataSource,
        TOKENS.Logger,
        TOKENS.EventLog,
        TOKENS.WebhookStore,
        TOKENS.Metrics,
        TOKENS.Tracing,
      ],
    );
    // Resolves nothing: a container that never assembled the use cases has nothing to flush.
    bind(TOKENS.Closers).toConstantValue(() => stopFlushing?.() ?? Promise.resolve());
    let worker: WebhookWorker | undefined;
    bind(TOKENS.WebhookWorker).toResolvedValue(
      (petStore: PetStore, signal: ChangeSignal, logger: Logger) => {
        worker = new WebhookWorker(petStore.deliverWebhooks, config.webhooks.pollIntervalMs, (error) =>
          logger.warn({ err: error }, 'webhook delivery round failed: retrying at the next poll'),
        );
        signal.listen(() => worker?.changed());
        return worker;
      },
      [TOKENS.PetStore, TOKENS.ChangeSignal, TOKENS.Logger],
    );
    // Bound after the database's closer, so it runs before it: the round under way records its attempts first.
    bind(TOKENS.Closers).toConstantValue(() => worker?.stop() ?? Promise.resolve());
    let purger: HistoryPurger | undefined;
    bind(TOKENS.HistoryPurger).toResolvedValue(
      (petStore: PetStore, logger: Logger) =>
        (purger = new HistoryPurger(
          petStore.purgeWebhookHistory,
          purgeIntervalOf(config.webhooks.retentionMs),
          (purged) => logger.debug({ purged }, 'deleted events, deliveries and attempts older than EVENT_RETENTION'),
          (error) => logger.warn({ err: error }, 'could not delete old events: retrying at the next purge'),
        )),
      [TOKENS.PetStore, TOKENS.Logger],
    );
    bind(TOKENS.Closers).toConstantValue(() => purger?.stop() ?? Promise.resolve());
  });
}

/** Each delivery attempt counted in the metrics, inside its span when tracing is on. */
function observedDeliveries(metrics: Metrics, tracing: TracingHooks | null): DeliveryObserver {
  return {
    attempt: (delivery, run) => {
      const counted = async () => {
        const result = await run();
        metrics.webhookAttempt(result);
        return result;
      };
      return tracing ? tracing.webhookDeliveries.attempt(delivery, counted) : counted();
    },
  };
}

/**
 * The metrics and the access-log line (`message`: `request`, `admin request`) of every answered request. The line has
 * the path without its query, and without a credential sent in it; with tracing on, the trace and span ids of the
 * request's span (pino leaves out undefined fields). One literal, no spread: an object spread costs more than the line
 * (docs/performance.md).
 */
const onResponseOf =
  (metrics: Metrics, logger: Logger, message: string, redactor: CredentialRedactor, tracing: TracingHooks | null) => (record: ResponseRecord) => {
    metrics.record(record);
    const ids = tracing?.requestEnded(record);
    logger.info(
      {
        requestId: record.requestId,
        method: record.method,
        path: redactor.path(record.path),
        route: record.route,
        status: record.status,
        durationMs: Math.round(record.durationMs * 100) / 100,
        keyId: record.keyId,
        traceId: ids?.traceId,
        spanId: ids?.spanId,
      },
      message,
    );
  };

/** The HTTP adapter (Koa and its middleware) is loaded only where an app is made: the CLI makes none. */
const httpAdapter = () => import('@petstore/http-koa');

/** The public app, and the admin API's app when ADMIN_TOKEN is set. */
function httpModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const redactor = credentialRedactor([config.admin?.token ?? '']);
    bind(TOKENS.ListeningUrl).toConstantValue(listeningUrl(config.host, config.port));
    bind(TOKENS.HttpApp).toResolvedValue(
      async (
        petStore: PetStore,
        logger: Logger,
        metrics: Metrics,
        checks: ReadinessCheck[],
        listening: string,
        tracing: TracingHooks | null,
        listingRevision: ListingRevision | undefined,
      ) =>
        (await httpAdapter()).createHttpApp(
          { ...petStore, publicBaseUrl: config.publicBaseUrl ?? listening, ...(listingRevision && { listingRevision }) },
          {
            trustedProxyHops: config.trustedProxyHops,
            corsOrigins: config.corsOrigins,
            apiReference: config.docsEnabled,
            readiness: async () => {
              await Promise.all(checks.map((check) => check()));
            },
            onInternalError: (error, request) =>
              logger.error({ err: error, requestId: request.requestId, method: request.method, route: request.route }, 'internal error'),
            onResponse: onResponseOf(metrics, logger, 'request', redactor, tracing),
          },
        ),
      [
        TOKENS.PetStore,
        TOKENS.Logger,
        TOKENS.Metrics,
        { serviceIdentifier: TOKENS.ReadinessChecks, isMultiple: true },
        TOKENS.ListeningUrl,
        TOKENS.Tracing,
        TOKENS.ListingRevision,
      ],
    );
    const { admin } = config;
    if (admin === null) return;
    bind(TOKENS.AdminUrl).toConstantValue(admin.publicBaseUrl ?? adminUrl(admin.host, admin.port));
    bind(TOKENS.AdminApp).toResolvedValue(
      async (petStore: PetStore, logger: Logger, metrics: Metrics, adminBaseUrl: string, tracing: TracingHooks | null) =>
        (await httpAdapter()).createAdminApp(
          { ...petStore, adminBaseUrl, readOverview: () => metrics.overview() },
          {
            token: admin.token,
            consoleDirectory: CONSOLE_DIRECTORY,
            onInternalError: (error, request) =>
              logger.error({ err: error, requestId: request.requestId, method: request.method, route: request.route }, 'internal error (admin API)'),
            onResponse: onResponseOf(metrics, logger, 'admin request', redactor, tracing),
          },
        ),
      [TOKENS.PetStore, TOKENS.Logger, TOKENS.Metrics, TOKENS.AdminUrl, TOKENS.Tracing],
    );
  });
}

/**
 * The composition root: what varies by configuration (each port's adapter, the clock, logger, metrics, readiness
 * checks and closers) bound once, and the use cases assembled from them by core's `createPetStore`. All singletons,
 * resolved once at start-up. Rebind a token before the first resolution to swap an adapter (for example
 * `container.rebind(TOKENS.Clock).toConstantValue(myClock)`).
 */
export function createContainer(config: Config): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(basicsModule(config), persistenceModule(config), rateLimitModule(config), useCasesModule(config), httpModule(config));
  return container;
}

/** Runs the closers in the reverse order of their binding: what was bound later (and uses earlier bindings) first. */
export async function closeContainer(container: Container): Promise<void> {
  for (const close of (await container.getAllAsync(TOKENS.Closers)).reverse()) await close();
}
