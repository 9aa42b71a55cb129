export { createHttpApp, type HttpApp, type HttpAppOptions, type ResponseRecord } from './createHttpApp.js';
export { createPetsApi, EXPOSED_HEADERS, type PetsApi, type PetsApiDeps, type PetsApiOptions } from './createPetsApi.js';
export { GET_PET_DEPRECATED_SINCE } from './operations/getPet.js';
export { ERROR_STATUS, type ErrorBody, type ErrorCode } from './errorStatus.js';
export { HttpError, type TransportErrorCode } from './HttpError.js';
export { MAX_BODY_BYTES } from './middleware/jsonBody.js';
export { answerClientError, answerConnect } from './clientErrors.js';
export type { FailedRequest, InternalErrorListener } from './middleware/errorResponses.js';
export type { FullPageCacheOptions } from './listing/ListingPages.js';
