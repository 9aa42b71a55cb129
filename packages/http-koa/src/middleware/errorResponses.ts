import { DomainError } from '@petstore/core';
import type { Context, Middleware } from 'koa';
import { ERROR_STATUS, type ErrorBody } from '../errorStatus.js';
import { HttpError } from '../HttpError.js';
import { petEntityTag } from '../entityTags.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';
import { setRequestIdAndCommonHeaders } from './requestId.js';

/** The request an unexpected error happened in, as plain data (for logs): no framework types. */
export interface FailedRequest {
  requestId: string;
  method: string;
  path: string;
  /** The route template (`/v1/pets/{petId}`), or null when no route matched. */
  route: string | null;
}

export type InternalErrorListener = (error: unknown, request: FailedRequest) => void;

/** The matched operation's route template (`/v1/pets/{petId}`), set by the API when it found one. */
export const routeOf = (ctx: Context): string | null => (ctx.state['route'] as string | undefined) ?? null;

export const describeRequest = (ctx: Context): FailedRequest => ({
  requestId: String(ctx.state['requestId'] ?? ''),
  method: ctx.method,
  path: ctx.path,
  route: routeOf(ctx),
});

const REALM = 'Bearer realm="petstore"';

/** A refusal that names its key (a scope, a limit, a ban) leaves the key's id for the access log and the span. */
function noteKey(ctx: Context, keyId: string | null): void {
  if (keyId !== null) ctx.state['keyId'] = keyId;
}

function toErrorBody(error: unknown, ctx: Context, nowMs: () => number): ErrorBody {
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
    return { code: error.code, message: error.message, status: ERROR_STATUS[error.code] };
  }
  if (!DomainError.is(error)) return { code: 'internal_error', message: 'Internal server error.', status: 500 };

  switch (error.code) {
    case 'validation_error':
      return { code: error.code, message: error.message, status: ERROR_STATUS[error.code], details: error.details };
    case 'unauthorized':
      if (error.rateLimit) setRateLimitHeaders(ctx, error.rateLimit, nowMs());
      if (error.reason === 'missing') {
        ctx.set('WWW-Authenticate', REALM);
        return {
          code: error.code,
          message: 'An API key is required: send it as "Authorization: Bearer <API_KEY>".',
          status: ERROR_STATUS[error.code],
        };
      }
      ctx.set('WWW-Authenticate', `${REALM}, error="invalid_token", error_description="${error.message}"`);
      break;
    case 'key_expired':
    case 'key_disabled':
      if (error.rateLimit) setRateLimitHeaders(ctx, error.rateLimit, nowMs());
      ctx.set('WWW-Authenticate', `${REALM}, error="invalid_token", error_description="${error.message}"`);
      break;
    case 'insufficient_scope':
      noteKey(ctx, error.keyId);
      setRateLimitHeaders(ctx, error.rateLimit, nowMs());
      ctx.set('WWW-Authenticate', `${REALM}, error="insufficient_scope", scope="${error.scope}"`);
      break;
    case 'rate_limited':
    case 'key_banned':
      noteKey(ctx, error.keyId);
      setRateLimitHeaders(ctx, error.state, nowMs());
      ctx.set('Retry-After', String(error.retryAfter));
      break;
    case 'service_unavailable':
      ctx.set('Retry-After', String(error.retryAfter));
      break;
    case 'precondition_failed':
      ctx.set('ETag', petEntityTag(error.current));
      break;
    case 'not_found':
    case 'invalid_transition':
    case 'idempotency_key_reused':
    case 'idempotency_in_progress':
    case 'resend_pending':
      break;
  }
  return { code: error.code, message: error.message, status: ERROR_STATUS[error.code] };
}

/** Unexpected errors go to stderr unless the embedder says where. */
export const logToStderr: InternalErrorListener = (error, request) =>
  console.error(`[${request.requestId}] ${request.method} ${request.path}:`, error);

/**
 * The outermost middleware: sets the request id and the common headers, then makes every error the Error body
 * `{ code, message, status }` (plus `details` for validation), as JSON, with its status and headers. Anything
 * unexpected is a 500 with a generic message and no detail; it is handed to `onInternalError` for logging.
 */
export function errorResponses(onInternalError: InternalErrorListener, nowMs: () => number): Middleware {
  return async function errorResponse(ctx, next) {
    setRequestIdAndCommonHeaders(ctx);
    try {
      await next();
    } catch (error) {
      const body = toErrorBody(error, ctx, nowMs);
      if (body.status === 500) onInternalError(error, describeRequest(ctx));
      ctx.status = body.status;
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = body;
    }
    // Answered before the request's body arrived (a 401, 413, 415, or any answer that needed no body): left alone,
    // Node would read and throw away the rest to reuse the connection, gigabytes from a client without a key.
    if (!ctx.req.complete) ctx.set('Connection', 'close');
  };
}
