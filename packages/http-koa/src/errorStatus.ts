import type { DomainErrorCode } from '@petstore/core';
import type { TransportErrorCode } from './HttpError.js';

export type ErrorCode = DomainErrorCode | TransportErrorCode;

/** Every error code and its HTTP status, in one place: a code without a status does not compile. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  validation_error: 400,
  malformed_json: 400,
  bad_request: 400,
  unauthorized: 401,
  key_expired: 401,
  key_disabled: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_in_progress: 409,
  invalid_transition: 409,
  resend_pending: 409,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  idempotency_key_reused: 422,
  request_header_too_large: 431,
  rate_limited: 429,
  key_banned: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** The Error body of every error response. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: readonly { field: string; message: string }[];
}
