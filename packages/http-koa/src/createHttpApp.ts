import Koa, { type Context, type Middleware } from 'koa';
import { createPetsApi, type PetsApiDeps, type PetsApiOptions } from './createPetsApi.js';
import { HttpError } from './HttpError.js';
import { JSON_CONTENT_TYPE } from './jsonContentType.js';
import { apiReference } from './middleware/apiReference.js';
import { describeRequest, errorResponses, logToStderr, routeOf, type FailedRequest } from './middleware/errorResponses.js';
import { protocolChecks } from './middleware/protocolChecks.js';

/** The Koa application serving the whole service (`app.callback()` for `http.createServer`). */
export type HttpApp = Koa;

export interface ResponseRecord extends FailedRequest {
  status: number;
  durationMs: number;
  /** The authenticated key's id (never its secret), when there was one. */
  keyId: string | null;
  /** The Error body's `code` of an error response. */
  errorCode: string | null;
}

export interface HttpAppOptions extends PetsApiOptions {
  /** One trusted reverse proxy: the same as `trustedProxyHops: 1`. Default false. */
  trustProxy?: boolean;
  /** Throws when the service cannot serve (database or rate-limit store unreachable): `/readyz` answers 503. */
  readiness?: () => Promise<void>;
  /** Serve the interactive API reference at `GET /docs` (no key, not rate limited). Default true. */
  apiReference?: boolean;
  /** Called once per request, after the response is decided (access logs, metrics). */
  onResponse?: (record: ResponseRecord) => void;
}

const CLIENT_GONE = new Set(['EPIPE', 'ECONNRESET', 'ECANCELED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Hands every answered request to `onResponse`, whatever happened below. */
function recordResponses(onResponse: (record: ResponseRecord) => void): Middleware {
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

/** `GET /livez` (the process answers) and `GET /readyz` (its dependencies do). */
function health(readiness: () => Promise<void>): Middleware {
  const answer = async (ctx: Context) => {
    if (ctx.path === '/readyz') await readiness();
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = { status: ctx.path === '/livez' ? 'ok' : 'ready' };
  };
  // Not async itself: every other request passes through without a promise of its own.
  return function healthChecks(ctx, next) {
    if ((ctx.path !== '/livez' && ctx.path !== '/readyz') || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    return answer(ctx);
  };
}

const notFound: Middleware = (ctx: Context) => {
  throw new HttpError('not_found', `No route ${ctx.method} ${ctx.path}.`);
};

/**
 * The service's Koa application: the protocol checks every request passes, `GET /livez`, `GET /readyz`, the API
 * reference at `GET /docs` (no key, not rate limited), the `/v1` interface mounted as an embedder would mount it,
 * and the Error body for everything else (404).
 */
export function createHttpApp(deps: PetsApiDeps, options: HttpAppOptions = {}): HttpApp {
  const trustedProxyHops = options.trustedProxyHops ?? (options.trustProxy ? 1 : 0);
  // Koa's own ctx.ip would take the leftmost entry without maxIpsCount; the limits use clientAddressOf regardless.
  const app = new Koa({ proxy: trustedProxyHops > 0, maxIpsCount: trustedProxyHops });
  const onInternalError = options.onInternalError ?? logToStderr;
  const petsApi = createPetsApi(deps, { ...options, trustedProxyHops, onInternalError });

  if (options.onResponse) app.use(recordResponses(options.onResponse));
  app.use(errorResponses(onInternalError, () => deps.clock.now().getTime()));
  app.use(protocolChecks);
  app.use(health(options.readiness ?? (async () => undefined)));
  if (options.apiReference !== false) app.use(apiReference(petsApi.openApiDocument));
  app.use(petsApi);
  app.use(notFound);
  // Errors that escape the middleware are stream errors after the response started; a client hanging up is normal.
  app.on('error', (error: { code?: string }, ctx?: Context) => {
    if (!CLIENT_GONE.has(error.code ?? '')) onInternalError(error, ctx ? describeRequest(ctx) : { requestId: '', method: '', path: '', route: null });
  });
  return app;
}
