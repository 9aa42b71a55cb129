import type { Clock, DeliveryObserver, EventLog, IdempotencyStore, KeyStore, PetRepository, PetStore, RateLimitStore } from '@petstore/core';
import type { AdminApp, HttpApp, ListingRevision, ResponseRecord } from '@petstore/http-koa';
import type { DataSource, StatementObserver, TypeOrmPetRepository, TypeOrmWebhookStore } from '@petstore/persistence-typeorm';
import type { RedisClient } from '@petstore/rate-limit-redis';
import type { ServiceIdentifier } from 'inversify';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';
import type { ChangeSignal } from './webhooks/ChangeSignal.js';
import type { HistoryPurger } from './webhooks/HistoryPurger.js';
import type { WebhookWorker } from './webhooks/WebhookWorker.js';

/** A dependency the readiness check probes; throws when it cannot serve. */
export type ReadinessCheck = () => Promise<void>;
/** Releases a resource at shutdown (database pool, Redis connection). */
export type Closer = () => Promise<void>;

/**
 * What tracing adds to the server (`tracing.ts`, started by `main.ts` when OTEL_EXPORTER_OTLP_ENDPOINT is set). The
 * container binds null by default: nothing about tracing runs, and no OpenTelemetry module is loaded.
 */
export interface TracingHooks {
  /** Names the request's server span by its route template and annotates it; the ids go on the access-log line. */
  requestEnded(record: ResponseRecord): { traceId: string; spanId: string } | undefined;
  /** A span per SQLite pet statement (PostgreSQL and Redis spans come from their drivers' instrumentations). */
  statements: StatementObserver;
  /** A span per webhook delivery attempt. */
  webhookDeliveries: DeliveryObserver;
}

const token = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`petstore.${name}`);

/** Cross-cutting services. */
const services = {
  Logger: token<Logger>('Logger'),
  Tracing: token<TracingHooks | null>('Tracing'),
  Metrics: token<Metrics>('Metrics'),
  Clock: token<Clock>('Clock'),
};

/** Core's ports, each bound to the adapter the configuration selects. */
const ports = {
  PetRepository: token<PetRepository>('PetRepository'),
  KeyStore: token<KeyStore>('KeyStore'),
  RateLimitStore: token<RateLimitStore>('RateLimitStore'),
  IdempotencyStore: token<IdempotencyStore>('IdempotencyStore'),
  EventLog: token<EventLog>('EventLog'),
  /**
   * What the pets' storage can tell without a round trip so that rendered listing pages are kept (SQLite, while it
   * keeps listing rows); undefined: every page is read.
   */
  ListingRevision: token<ListingRevision | undefined>('ListingRevision'),
};

/** Webhook delivery: where endpoints and deliveries are stored, what wakes the worker, and the worker. */
const webhooks = {
  /** Webhook endpoints and deliveries (core's WebhookEndpointStore and DeliveryQueue ports). */
  WebhookStore: token<TypeOrmWebhookStore>('WebhookStore'),
  /** Told of every change this process commits, so the webhook worker runs at once. */
  ChangeSignal: token<ChangeSignal>('ChangeSignal'),
  /** Delivers webhooks; `startServer` starts it, a closer stops it. */
  WebhookWorker: token<WebhookWorker>('WebhookWorker'),
  /** Deletes events, deliveries and attempts older than EVENT_RETENTION; `startServer` starts it, a closer stops it. */
  HistoryPurger: token<HistoryPurger>('HistoryPurger'),
};

/** The connections behind the adapters, and what the server checks and releases of them. */
const connections = {
  DataSource: token<DataSource>('DataSource'),
  Redis: token<RedisClient>('Redis'),
  /** The pets' adapter itself, before the change signal wraps it as the PetRepository. */
  StoredPets: token<TypeOrmPetRepository>('StoredPets'),
};
const lifecycle = { ReadinessChecks: token<ReadinessCheck>('ReadinessCheck'), Closers: token<Closer>('Closer') };

/** Every binding of the container, typed. `PetStore` holds every use case (core's `createPetStore`). */
export const TOKENS = {
  ...services,
  ...ports,
  ...connections,
  ...lifecycle,
  ...webhooks,
  PetStore: token<PetStore>('PetStore'),
  HttpApp: token<HttpApp>('HttpApp'),
  /**
   * Where the API answers, `http://HOST:PORT/v1`: the links' base when PUBLIC_BASE_URL is unset. `startServer` rebinds
   * it to the port actually bound (PORT=0) before it resolves `HttpApp`.
   */
  ListeningUrl: token<string>('ListeningUrl'),
  /** The admin listener's app (only when ADMIN_TOKEN is set); `startServer` binds `AdminUrl` before resolving it. */
  AdminApp: token<AdminApp>('AdminApp'),
  /** The admin API's base for `Location` and its document: ADMIN_PUBLIC_BASE_URL, else where it answers, `http://ADMIN_HOST:<bound port>/admin/v1`. */
  AdminUrl: token<string>('AdminUrl'),
} as const;
