// Errors
export { DomainError, type AnyDomainError, type DomainErrorCode } from './errors/DomainError.js';
export { ValidationError, type FieldProblem } from './errors/ValidationError.js';
export { UnauthorizedError, type UnauthorizedReason } from './errors/UnauthorizedError.js';
export { NotFoundError } from './errors/NotFoundError.js';
export { RateLimitedError } from './errors/RateLimitedError.js';
export { KeyBannedError } from './errors/KeyBannedError.js';
export { GoneError } from './errors/GoneError.js';
export { ServiceUnavailableError } from './errors/ServiceUnavailableError.js';
export { IdempotencyInProgressError, IdempotencyKeyReusedError } from './errors/IdempotencyErrors.js';

// Pets
export { MAX_ID, type NewPet, type Pet, type PetDraft } from './pet/Pet.js';
export { DEFAULT_PET_STATUS, isPetStatus, PET_STATUSES, type PetStatus } from './pet/PetStatus.js';
export { parseNewPet, type NumberLiterals } from './pet/parseNewPet.js';
export { LIST_LIMIT, readListPetsQuery, type ListPetsRequest } from './pet/ListPetsRequest.js';
export { parsePetId } from './pet/parsePetId.js';
export { encodePetCursor } from './pet/PetCursor.js';

// Access: keys, plans, rate limits
export { limitsOf, type ApiKey } from './access/ApiKey.js';
export { API_KEY_PREFIX, hashApiKeySecret } from './access/ApiKeySecret.js';
export { isPlan, PLAN_LIMITS, PLANS, type Plan, type RateLimits } from './access/Plan.js';
export { DEFAULT_BAN_RULE, type BanRule } from './access/BanRule.js';
export { bindingWindow, WINDOW_SECONDS, type RateLimitState, type WindowName, type WindowState } from './access/RateLimitState.js';
export type { RateLimitUsage, WindowUsage } from './access/RateLimitUsage.js';

// Ports
export type { Clock } from './ports/Clock.js';
export type { PetListRequest, PetPage, PetRepository } from './ports/PetRepository.js';
export type { KeyStore } from './ports/KeyStore.js';
export type { IdempotencyClaim, IdempotencyOutcome, IdempotencyStore } from './ports/IdempotencyStore.js';
export type {
  ConsumeRequest,
  ConsumeResult,
  CountedWindow,
  RateLimitStore,
  ReadRequest,
  ReleaseRequest,
  UsageReading,
} from './ports/RateLimitStore.js';

// Adapters that need no I/O: the system clock, in-process rate limits (one instance), a key cache, shared reads
export { SystemClock } from './adapters/SystemClock.js';
export { InMemoryRateLimitStore } from './adapters/InMemoryRateLimitStore.js';
export { CachingKeyStore } from './adapters/CachingKeyStore.js';
export { SharedReadsPetRepository } from './adapters/SharedReadsPetRepository.js';

// Wiring: every use case from one set of ports
export { createPetStore, type PetStore, type PetStoreOptions, type PetStorePorts } from './createPetStore.js';

// Use cases
export { ListPets, type NextPageRequest, type PetListing } from './use-cases/ListPets.js';
export { CreatePet } from './use-cases/CreatePet.js';
export {
  CreatePetIdempotently,
  DEFAULT_IDEMPOTENCY,
  type IdempotencyOptions,
  type IdempotentCreateInput,
  type IdempotentCreateResult,
} from './use-cases/CreatePetIdempotently.js';
export { GET_PET_SUNSET, GetPet } from './use-cases/GetPet.js';
export { AuthenticateKey } from './use-cases/AuthenticateKey.js';
export { EnforceRateLimit, type WindowLimits } from './use-cases/EnforceRateLimit.js';
export { AuthenticateCaller, DEFAULT_FAILED_AUTH_PER_MINUTE, type CallerCredentials } from './use-cases/AuthenticateCaller.js';
export { AdmitRequest, type Admission } from './use-cases/AdmitRequest.js';
export { AdmitUsageQuery, DEFAULT_USAGE_QUERIES_PER_MINUTE } from './use-cases/AdmitUsageQuery.js';
export { RefundRequest } from './use-cases/RefundRequest.js';
export { GetRateLimitUsage } from './use-cases/GetRateLimitUsage.js';
export { IssueApiKey, type IssueApiKeyInput, type IssuedApiKey } from './use-cases/IssueApiKey.js';
export { ListApiKeys } from './use-cases/ListApiKeys.js';
export { RevokeApiKey, type Revocation } from './use-cases/RevokeApiKey.js';
export { RotateApiKey } from './use-cases/RotateApiKey.js';
