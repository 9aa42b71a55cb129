import type Koa from 'koa';
import type { Context, Middleware } from 'koa';
import { describeRequest, routeOf, type FailedRequest, type InternalErrorListener } from './errorResponses.js';

export interface ResponseRecord extends FailedRequest {
  status: number;
  durationMs: number;
  /** The id (never the secret) of the key the request was made with, when it was recognised: admitted, or refused for its scope, a limit or a ban. */
  keyId: string | null;
  /** The Error body's `code` of an error response. */
  errorCode: string | null;
}

const CLIENT_GONE = new Set(['EPIPE', 'ECONNRESET', 'ECANCELED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Hands every answered request to `onResponse`, whatever happened below. */
export function recordResponses(onResponse: (record: ResponseRecord) => void): Middleware {
  return async function recordResponse(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      // A literal rather than a spread of describeRequest(ctx): V8's object-spread clone is dear on every request.
      onResponse({
        requestId: String(ctx.state['requestId'] ?? ''),
        method: ctx.method,
        path: ctx.path,
        route: routeOf(ctx),
        status: ctx.status,
        durationMs: performance.now() - started,
        keyId: (ctx.state['keyId'] as string | undefined) ?? null,
        errorCode: ctx.status >= 400 ? ((ctx.body as { code?: string } | undefined)?.code ?? null) : null,
      });
    }
  };
}

/** Errors that escape the middleware are stream errors after the response started; a client hanging up is normal. */
export function reportStreamErrors(app: Koa, onInternalError: InternalErrorListener): void {
  app.on('error', (error: { code?: string }, ctx?: Context) => {
    if (!CLIENT_GONE.has(error.code ?? '')) onInternalError(error, ctx ? describeRequest(ctx) : { requestId: '', method: '', path: '', route: null });
  });
}
