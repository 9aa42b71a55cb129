export { createClient, type PetPage, type PetstoreClient } from './createClient.js';
export { PetstoreError, type ClientErrorCode, type PetstoreErrorCode, type PetstoreErrorDetail } from './PetstoreError.js';
export type { CallOptions, ClientOptions, CreatePetOptions, UpdatePetOptions, WaitEvent, WaitReason } from './options.js';
export type { RetryPolicy } from './backoff.js';
export type { RateLimitState, RateLimitWindow } from './rateLimitHeaders.js';
export type { ErrorBody, ListPetsQuery, NewPet, Pet, PetPatch, PetStatus, RateLimitUsage, ServerErrorCode } from './types.js';
export type { components, operations, paths } from './openapi.generated.js';
export { createAdminClient, type AdminClient, type AdminClientOptions, type TaggedPet } from './createAdminClient.js';
// Every type of the admin API's requests and answers.
export type * from './adminTypes.js';
