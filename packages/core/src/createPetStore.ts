import type { BanRule } from './access/BanRule.js';
import { SharedReadsPetRepository } from './adapters/SharedReadsPetRepository.js';
import type { Clock } from './ports/Clock.js';
import type { IdempotencyStore } from './ports/IdempotencyStore.js';
import type { KeyStore } from './ports/KeyStore.js';
import type { PetRepository } from './ports/PetRepository.js';
import type { RateLimitStore } from './ports/RateLimitStore.js';
import { AdmitRequest } from './use-cases/AdmitRequest.js';
import { AdmitUsageQuery } from './use-cases/AdmitUsageQuery.js';
import { AuthenticateCaller } from './use-cases/AuthenticateCaller.js';
import { AuthenticateKey } from './use-cases/AuthenticateKey.js';
import { CreatePet } from './use-cases/CreatePet.js';
import { CreatePetIdempotently, type IdempotencyOptions } from './use-cases/CreatePetIdempotently.js';
import { EnforceRateLimit } from './use-cases/EnforceRateLimit.js';
import { GetPet } from './use-cases/GetPet.js';
import { GetRateLimitUsage } from './use-cases/GetRateLimitUsage.js';
import { IssueApiKey } from './use-cases/IssueApiKey.js';
import { ListApiKeys } from './use-cases/ListApiKeys.js';
import { ListPets } from './use-cases/ListPets.js';
import { RefundRequest } from './use-cases/RefundRequest.js';
import { RevokeApiKey } from './use-cases/RevokeApiKey.js';
import { RotateApiKey } from './use-cases/RotateApiKey.js';

/** The adapters the use cases need, one per port. */
export interface PetStorePorts {
  pets: PetRepository;
  keys: KeyStore;
  rateLimits: RateLimitStore;
  idempotency: IdempotencyStore;
  clock: Clock;
}

/** The rules an operator may tune; each defaults to the documented value. */
export interface PetStoreOptions {
  /** When repeated requests after a rejection ban a key, and for how long. */
  ban?: BanRule;
  /** Failed authentications allowed per client address and minute. */
  failedAuthPerMinute?: number;
  /** `GET /rate_limit` queries allowed per key and minute (counted apart from the key's quota). */
  usageQueriesPerMinute?: number;
  /** How long idempotency records are kept and how long a duplicate waits for the first request. */
  idempotency?: IdempotencyOptions;
}

/** Every use case of the service, wired to one set of ports, and the clock they read. */
export interface PetStore {
  clock: Clock;
  listPets: ListPets;
  createPet: CreatePet;
  createPetIdempotently: CreatePetIdempotently;
  getPet: GetPet;
  admitRequest: AdmitRequest;
  /** Admits `GET /rate_limit`: counted apart from the key's quota, so it answers during a ban. */
  admitUsageQuery: AdmitUsageQuery;
  getRateLimitUsage: GetRateLimitUsage;
  issueApiKey: IssueApiKey;
  listApiKeys: ListApiKeys;
  revokeApiKey: RevokeApiKey;
  rotateApiKey: RotateApiKey;
}

/**
 * Assembles the use cases from the ports: the one place that knows which use case needs which port. The HTTP
 * transport, the composition root and embedders all start from here.
 */
export function createPetStore(ports: PetStorePorts, options: PetStoreOptions = {}): PetStore {
  const { keys, rateLimits, idempotency, clock } = ports;
  const pets = new SharedReadsPetRepository(ports.pets);
  const enforceRateLimit = new EnforceRateLimit(rateLimits, clock, options.ban);
  const authenticateCaller = new AuthenticateCaller(new AuthenticateKey(keys), enforceRateLimit, options.failedAuthPerMinute);
  const refundRequest = new RefundRequest(rateLimits, clock);
  return {
    clock,
    listPets: new ListPets(pets),
    createPet: new CreatePet(pets),
    createPetIdempotently: new CreatePetIdempotently(pets, idempotency, clock, options.idempotency),
    getPet: new GetPet(pets, clock),
    admitRequest: new AdmitRequest(authenticateCaller, enforceRateLimit, refundRequest),
    admitUsageQuery: new AdmitUsageQuery(authenticateCaller, enforceRateLimit, refundRequest, options.usageQueriesPerMinute),
    getRateLimitUsage: new GetRateLimitUsage(keys, rateLimits, clock),
    issueApiKey: new IssueApiKey(keys, clock),
    listApiKeys: new ListApiKeys(keys),
    revokeApiKey: new RevokeApiKey(keys, clock),
    rotateApiKey: new RotateApiKey(keys),
  };
}
