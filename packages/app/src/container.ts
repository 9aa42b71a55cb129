import 'reflect-metadata';
import {
  AdmitRequest,
  AuthenticateKey,
  CachingKeyStore,
  CreatePet,
  CreatePetIdempotently,
  EnforceRateLimit,
  GetPet,
  InMemoryRateLimitStore,
  IssueApiKey,
  ListApiKeys,
  ListPets,
  RevokeApiKey,
  RotateApiKey,
  type Clock,
  type IdempotencyStore,
  type KeyStore,
  type PetRepository,
  type RateLimitStore,
} from '@petstore/core';
import { createHttpApp } from '@petstore/http-koa';
import { createRedisClient, RedisRateLimitStore, whenReady, type RedisClient } from '@petstore/rate-limit-redis';
import {
  createDataSource,
  migrate,
  pingDatabase,
  redact,
  TypeOrmIdempotencyStore,
  TypeOrmKeyStore,
  TypeOrmPetRepository,
  type DataSource,
} from '@petstore/persistence-typeorm';
import { Container, ContainerModule } from 'inversify';
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { Metrics } from './metrics.js';
import { SystemClock } from './SystemClock.js';
import { TOKENS, type ReadinessCheck } from './tokens.js';


function redactedError(error: Error): pino.SerializedError {
  const serialized = pino.stdSerializers.err(error);
  return { ...serialized, message: redact(serialized.message), stack: redact(serialized.stack) };
}

function basicsModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Config).toConstantValue(config);
    // Asynchronous writes: under load, log lines are batched into few write calls instead of one each.
    bind(TOKENS.Logger).toConstantValue(
      pino(
        // Driver errors can quote a connection URL: no log line carries its password.
        { level: config.logLevel, base: { service: 'petstore' }, serializers: { err: redactedError } },
        pino.destination({ dest: 1, sync: false }),
      ),
    );
    bind(TOKENS.Metrics).toResolvedValue(() => new Metrics());
    bind(TOKENS.Clock).toResolvedValue(() => new SystemClock());
    bind(TOKENS.Closers).toResolvedValue((logger: Logger) => () => new Promise<void>((resolve) => logger.flush(() => resolve())), [TOKENS.Logger]);
  });
}

/** TypeORM on SQLite or PostgreSQL: the DataSource is initialized and migrated when first resolved. */
function persistenceModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.DataSource).toResolvedValue(
      async (logger: Logger) => {
        const dataSource = createDataSource(config.databaseUrl, { statementTimeoutMs: config.databaseTimeoutMs });
        await dataSource.initialize();
        const applied = await migrate(dataSource);
        if (applied.length > 0) logger.info({ migrations: applied }, 'applied database migrations');
        return dataSource;
      },
      [TOKENS.Logger],
    );
    bind(TOKENS.PetRepository).toResolvedValue((dataSource: DataSource) => new TypeOrmPetRepository(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.KeyStore).toResolvedValue(
      (dataSource: DataSource, clock: Clock) => new CachingKeyStore(new TypeOrmKeyStore(dataSource), clock, config.keyCacheTtlMs),
      [TOKENS.DataSource, TOKENS.Clock],
    );
    bind(TOKENS.IdempotencyStore).toResolvedValue((dataSource: DataSource) => new TypeOrmIdempotencyStore(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.ReadinessChecks).toResolvedValue((dataSource: DataSource) => () => pingDatabase(dataSource), [TOKENS.DataSource]);
    bind(TOKENS.Closers).toResolvedValue((dataSource: DataSource) => () => dataSource.destroy(), [TOKENS.DataSource]);
  });
}

/** In-process counters for one instance; Redis (REDIS_URL) when several instances must share them. */
function rateLimitModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const redisUrl = config.redisUrl;
    if (redisUrl === null) {
      bind(TOKENS.RateLimitStore).toResolvedValue(() => new InMemoryRateLimitStore());
      return;
    }
    bind(TOKENS.Redis).toResolvedValue(
      async (logger: Logger) => {
        let lastWarning = 0;
        const redis = createRedisClient(redisUrl, (error) => {
          // ioredis reports every failed reconnection attempt; one line every 10 s is enough.
          if (Date.now() - lastWarning > 10_000) logger.warn({ err: error }, 'rate-limit store (Redis) unreachable: answering 503');
          lastWarning = Date.now();
        });
        if (!(await whenReady(redis))) logger.warn('Redis is not reachable yet: requests answer 503 until it is');
        return redis;
      },
      [TOKENS.Logger],
    );
    bind(TOKENS.RateLimitStore).toResolvedValue((redis: RedisClient) => new RedisRateLimitStore(redis), [TOKENS.Redis]);
    bind(TOKENS.ReadinessChecks).toResolvedValue((redis: RedisClient) => () => new RedisRateLimitStore(redis).ping(), [TOKENS.Redis]);
    bind(TOKENS.Closers).toResolvedValue((redis: RedisClient) => async () => void (await redis.quit().catch(() => redis.disconnect())), [TOKENS.Redis]);
  });
}

function useCasesModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ListPets).toResolvedValue((pets: PetRepository) => new ListPets(pets), [TOKENS.PetRepository]);
    bind(TOKENS.CreatePet).toResolvedValue((pets: PetRepository) => new CreatePet(pets), [TOKENS.PetRepository]);
    bind(TOKENS.CreatePetIdempotently).toResolvedValue(
      (pets: PetRepository, store: IdempotencyStore, clock: Clock) => new CreatePetIdempotently(pets, store, clock),
      [TOKENS.PetRepository, TOKENS.IdempotencyStore, TOKENS.Clock],
    );
    bind(TOKENS.GetPet).toResolvedValue((pets: PetRepository, clock: Clock) => new GetPet(pets, clock), [TOKENS.PetRepository, TOKENS.Clock]);
    bind(TOKENS.AdmitRequest).toResolvedValue(
      (keys: KeyStore, store: RateLimitStore, clock: Clock) =>
        new AdmitRequest(new AuthenticateKey(keys), new EnforceRateLimit(store, clock, config.ban), config.failedAuthPerMinute),
      [TOKENS.KeyStore, TOKENS.RateLimitStore, TOKENS.Clock],
    );
    bind(TOKENS.IssueApiKey).toResolvedValue((keys: KeyStore, clock: Clock) => new IssueApiKey(keys, clock), [TOKENS.KeyStore, TOKENS.Clock]);
    bind(TOKENS.ListApiKeys).toResolvedValue((keys: KeyStore) => new ListApiKeys(keys), [TOKENS.KeyStore]);
    bind(TOKENS.RevokeApiKey).toResolvedValue((keys: KeyStore, clock: Clock) => new RevokeApiKey(keys, clock), [TOKENS.KeyStore, TOKENS.Clock]);
    bind(TOKENS.RotateApiKey).toResolvedValue((keys: KeyStore) => new RotateApiKey(keys), [TOKENS.KeyStore]);
  });
}

function httpModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.HttpApp).toResolvedValue(
      (
        listPets: ListPets,
        createPet: CreatePet,
        createPetIdempotently: CreatePetIdempotently,
        getPet: GetPet,
        admitRequest: AdmitRequest,
        clock: Clock,
        logger: Logger,
        metrics: Metrics,
        checks: ReadinessCheck[],
      ) =>
        createHttpApp(
          { listPets, createPet, createPetIdempotently, getPet, admitRequest, clock, publicBaseUrl: config.publicBaseUrl },
          {
            trustedProxyHops: config.trustedProxyHops,
            corsOrigins: config.corsOrigins,
            readiness: async () => {
              await Promise.all(checks.map((check) => check()));
            },
            onInternalError: (error, ctx) => logger.error({ err: error, requestId: ctx?.state['requestId'] }, 'internal error'),
            onResponse: (record) => {
              metrics.record(record);
              logger.info(
                { requestId: record.requestId, method: record.method, path: record.path, route: record.route, status: record.status, durationMs: Math.round(record.durationMs * 100) / 100, keyId: record.keyId },
                'request',
              );
            },
          },
        ),
      [TOKENS.ListPets, TOKENS.CreatePet, TOKENS.CreatePetIdempotently, TOKENS.GetPet, TOKENS.AdmitRequest, TOKENS.Clock, TOKENS.Logger, TOKENS.Metrics, { serviceIdentifier: TOKENS.ReadinessChecks, isMultiple: true }],
    );
  });
}

/**
 * The composition root: every port bound to the adapter the configuration selects, every use case to its ports,
 * all singletons, resolved once at start-up. Rebind a token before the first resolution to swap an adapter
 * (for example `container.rebind(TOKENS.Clock).toConstantValue(myClock)`).
 */
export function createContainer(config: Config): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(basicsModule(config), persistenceModule(config), rateLimitModule(config), useCasesModule(config), httpModule(config));
  return container;
}
