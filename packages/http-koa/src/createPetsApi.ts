import cors from '@koa/cors';
import { GET_PET_SUNSET, type PetStore } from '@petstore/core';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { admission } from './middleware/admission.js';
import { deprecation } from './middleware/deprecation.js';
import { errorResponses, type InternalErrorListener } from './middleware/errorResponses.js';
import { setRequestIdAndCommonHeaders } from './middleware/requestId.js';
import { routeFallback } from './middleware/routeFallback.js';
import type { FullPageCacheOptions } from './listingPages.js';
import { createOpenApiDocument } from './openapi.js';
import { createPetsRouter } from './routes/petsRoutes.js';
import { routesLookedUpOnce } from './routes/routeTable.js';

/** The use cases the interface calls (a `PetStore` from core's `createPetStore` has them all), and its public base. */
export type PetsApiDeps = Pick<
  PetStore,
  'listPets' | 'createPet' | 'createPetIdempotently' | 'getPet' | 'admitRequest' | 'admitUsageQuery' | 'getRateLimitUsage' | 'clock'
> & {
  /** Absolute base URL clients use, ending in the version (`https://api.example.com/v1`): used in Location and Link. */
  publicBaseUrl: string;
};

export interface PetsApiOptions {
  /** Where the API is mounted in the Koa app; default `/v1`. Matching is exact: case-sensitive, no trailing slash. */
  prefix?: string;
  /** Browser origins allowed by CORS (exact `scheme://host[:port]`); default none. */
  corsOrigins?: readonly string[];
  /**
   * How many reverse proxies in front of the service append to `X-Forwarded-For` (default 0: the socket's peer is
   * the client). The client address is the entry that many places from the right, if it is an IP address.
   */
  trustedProxyHops?: number;
  /** Called with every unexpected error (answered 500); default: logged to stderr. */
  onInternalError?: InternalErrorListener;
  /**
   * Keep full pages of `GET /pets` (those with a next page) in memory, pre-serialised with their ETag. Only for a
   * repository where a page that has a successor can never change (SQLite: ids become visible in order). Default off.
   */
  fullPageCache?: FullPageCacheOptions;
}

/** When `GET /pets/{petId}` was deprecated (sent as `Deprecation: @<unix seconds>`). */
export const GET_PET_DEPRECATED_SINCE = new Date('2026-01-01T00:00:00Z');

export const EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'Link',
  'Location',
  'Deprecation',
  'Sunset',
  'X-Request-Id',
  'Idempotent-Replayed',
  'ETag',
];

const defaultInternalErrorListener: InternalErrorListener = (error, request) => {
  console.error(`[${request.requestId}] ${request.method} ${request.path}:`, error);
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The whole `/v1` interface as one Koa middleware, for `app.use(...)` in any Koa app: requests under `prefix` are
 * answered here (errors as the Error body, authentication, rate limits and their headers, CORS, the three
 * operations and the OpenAPI document), anything else goes on to the next middleware.
 */
export function createPetsApi(deps: PetsApiDeps, options: PetsApiOptions = {}): Middleware {
  const prefix = options.prefix ?? '/v1';
  const router = createPetsRouter(
    { ...deps, openApiDocument: createOpenApiDocument(deps.publicBaseUrl), ...(options.fullPageCache && { fullPageCache: options.fullPageCache }) },
    prefix,
  );
  const markDeprecated = deprecation({ since: GET_PET_DEPRECATED_SINCE, sunset: GET_PET_SUNSET, successor: `${deps.publicBaseUrl}/pets` });
  const deprecatedPath = new RegExp(`^${escapeRegExp(prefix)}/pets/[^/]+$`);
  const admit = admission(deps.admitRequest, deps.clock, options.trustedProxyHops ?? 0);
  const admitUsageQuery = admission(deps.admitUsageQuery, deps.clock, options.trustedProxyHops ?? 0);
  const usagePath = `${prefix}/rate_limit`;
  const allowedOrigins = new Set(options.corsOrigins ?? []);

  const corsMiddleware: Middleware[] =
    allowedOrigins.size === 0
      ? []
      : [
          cors({
            origin: (ctx) => (allowedOrigins.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
            allowMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
            allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'If-None-Match'],
            exposeHeaders: EXPOSED_HEADERS,
            maxAge: 600,
          }),
        ];
  const done = async () => undefined;

  const errorBody = errorResponses(options.onInternalError ?? defaultInternalErrorListener, () => deps.clock.now().getTime());
  const chain = compose([
    // The common headers first, so that error responses carry them too; one layer rather than two.
    function errorBodyAndCommonHeaders(ctx, next) {
      setRequestIdAndCommonHeaders(ctx);
      return errorBody(ctx, next);
    },
    ...corsMiddleware,
    async function admitToOperation(ctx, next) {
      if (deprecatedPath.test(ctx.path)) await markDeprecated(ctx, done);
      // OPTIONS only describes a route (preflight or `Allow`): without credentials it needs no key and consumes no
      // quota; with a key it is counted like any request and carries the rate-limit headers.
      if (ctx.method === 'OPTIONS' && ctx.get('Authorization') === '') return next();
      return ctx.path === usagePath ? admitUsageQuery(ctx, next) : admit(ctx, next);
    },
    routesLookedUpOnce(router),
    routeFallback(router),
  ]);

  return function petsApi(ctx, next) {
    const inScope = ctx.path === prefix || ctx.path.startsWith(`${prefix}/`);
    return inScope ? chain(ctx, done) : next();
  };
}
