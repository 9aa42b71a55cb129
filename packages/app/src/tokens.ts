import type {
  AdmitRequest,
  AdmitUsageQuery,
  Clock,
  CreatePet,
  CreatePetIdempotently,
  IdempotencyStore,
  GetPet,
  GetRateLimitUsage,
  IssueApiKey,
  KeyStore,
  ListApiKeys,
  ListPets,
  PetRepository,
  RateLimitStore,
  RevokeApiKey,
  RotateApiKey,
} from '@petstore/core';
import type { HttpApp } from '@petstore/http-koa';
import type { DataSource } from '@petstore/persistence-typeorm';
import type { RedisClient } from '@petstore/rate-limit-redis';
import type { ServiceIdentifier } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Metrics } from './metrics.js';

/** A dependency the readiness check probes; throws when it cannot serve. */
export type ReadinessCheck = () => Promise<void>;
/** Releases a resource at shutdown (database pool, Redis connection). */
export type Closer = () => Promise<void>;

const token = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`petstore.${name}`);

/** Every binding of the container, typed. */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  Metrics: token<Metrics>('Metrics'),
  Clock: token<Clock>('Clock'),
  DataSource: token<DataSource>('DataSource'),
  PetRepository: token<PetRepository>('PetRepository'),
  KeyStore: token<KeyStore>('KeyStore'),
  RateLimitStore: token<RateLimitStore>('RateLimitStore'),
  IdempotencyStore: token<IdempotencyStore>('IdempotencyStore'),
  Redis: token<RedisClient>('Redis'),
  ReadinessChecks: token<ReadinessCheck>('ReadinessCheck'),
  Closers: token<Closer>('Closer'),
  ListPets: token<ListPets>('ListPets'),
  CreatePet: token<CreatePet>('CreatePet'),
  CreatePetIdempotently: token<CreatePetIdempotently>('CreatePetIdempotently'),
  GetPet: token<GetPet>('GetPet'),
  AdmitRequest: token<AdmitRequest>('AdmitRequest'),
  AdmitUsageQuery: token<AdmitUsageQuery>('AdmitUsageQuery'),
  GetRateLimitUsage: token<GetRateLimitUsage>('GetRateLimitUsage'),
  IssueApiKey: token<IssueApiKey>('IssueApiKey'),
  ListApiKeys: token<ListApiKeys>('ListApiKeys'),
  RevokeApiKey: token<RevokeApiKey>('RevokeApiKey'),
  RotateApiKey: token<RotateApiKey>('RotateApiKey'),
  HttpApp: token<HttpApp>('HttpApp'),
} as const;
