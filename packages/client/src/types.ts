import type { components, operations } from './openapi.generated.js';

/** An animal as the service returns it. */
export type Pet = components['schemas']['Pet'];
/** The body of `createPet`: `name` and `categoryId` required, `status` defaults to `available`. */
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];
/** The body of `updatePet`: any of `name`, `categoryId` and `status` (a JSON Merge Patch; no field may be null). */
export type PetPatch = components['schemas']['PetPatch'];
/** The service's Error body. */
export type ErrorBody = components['schemas']['Error'];
/** Every `code` the service can answer with. */
export type ServerErrorCode = ErrorBody['code'];

/** `GET /pets` query: `status`, `limit` (1-100, default 20) and the opaque `cursor` of a next page. */
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;

export type ListPetsResult = operations['listPets']['responses'][200]['content']['application/json'];
export type CreatePetResult = operations['createPet']['responses'][201]['content']['application/json'];
export type GetPetResult = operations['getPet']['responses'][200]['content']['application/json'];
export type UpdatePetResult = operations['updatePet']['responses'][200]['content']['application/json'];
export type PetId = operations['getPet']['parameters']['path']['petId'];
/** `GET /rate_limit`: the key's plan, each window's limit, use, remaining and reset, and its ban. */
export type RateLimitUsage = operations['getRateLimit']['responses'][200]['content']['application/json'];
