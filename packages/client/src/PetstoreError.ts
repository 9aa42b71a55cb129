import type { ServerErrorCode } from './types.js';

/** Codes the client itself produces when there is no Error body to read. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'unexpected_response';

export type PetstoreErrorCode = ServerErrorCode | ClientErrorCode;

export interface PetstoreErrorDetail {
  field: string;
  message: string;
}

export interface PetstoreErrorInit {
  code: PetstoreErrorCode;
  status: number;
  message: string;
  details?: readonly PetstoreErrorDetail[];
  requestId?: string;
  retryAfter?: number;
  etag?: string;
  cause?: unknown;
}

const BRAND = Symbol.for('@petstore/client.PetstoreError');

/**
 * Every failure of a call: the service's Error body (`code`, `status`, `message`, `details`) with the request id and,
 * on 429 and 503, `retryAfter` in seconds; or a client-side `network_error`, `timeout` or `unexpected_response` with
 * `status` 0 (or the HTTP status when the body was not an Error body). `updatePet` fails with `code`
 * `invalid_transition` (409: the status cannot move that way from the current one, which the message names) or
 * `precondition_failed` (412: the animal changed since `ifMatch`; `etag` is its current tag). Recognise it with `PetstoreError.is(error)`,
 * which also works when two copies of this package are loaded (where `instanceof` fails), and switch on `code`.
 */
export class PetstoreError extends Error {
  readonly code: PetstoreErrorCode;
  /** The HTTP status of the answer, 0 when none arrived. */
  readonly status: number;
  readonly details: readonly PetstoreErrorDetail[] | undefined;
  /** The `X-Request-Id` the request was sent with (the service logs it); quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** Seconds the service asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;
  /** On `412 precondition_failed` (`updatePet` with `ifMatch`): the animal's current `ETag`, to read it again or retry with. */
  readonly etag: string | undefined;

  constructor(init: PetstoreErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PetstoreError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.etag = init.etag;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for a PetstoreError from any copy of this package. */
  static is(value: unknown): value is PetstoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
