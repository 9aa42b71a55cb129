import Koa, { type Context, type Middleware } from 'koa';
import { createPetsApi, type PetsApiDeps, type PetsApiOptions } from './createPetsApi.js';
import { JSON_CONTENT_TYPE } from './jsonContentType.js';
import { apiReference } from './middleware/apiReference.js';
import { errorResponses, logToStderr } from './middleware/errorResponses.js';
import { notFound } from './middleware/notFound.js';
import { protocolChecks } from './middleware/protocolChecks.js';
import { recordResponses, reportStreamErrors, type ResponseRecord } from './middleware/recordResponses.js';

/** The Koa application serving the whole service (`app.callback()` for `http.createServer`). */
export type HttpApp = Koa;

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
  if (options.apiReference !== false) app.use(apiReference(() => petsApi.openApiDocument));
  app.use(petsApi);
  app.use(notFound);
  reportStreamErrors(app, onInternalError);
  return app;
}
