import cors from '@koa/cors';
import { DomainError, type PetStore } from '@petstore/core';
import type { Context, Middleware } from 'koa';
import { admission } from './middleware/admission.js';
import { deprecationHeaders, refuseAfterSunset } from './middleware/deprecation.js';
import type { InternalErrorListener } from './middleware/errorResponses.js';
import { readJsonBody, type JsonBody } from './middleware/jsonBody.js';
import { HEADERS } from './openapi/components.js';
import { SCHEMAS } from './openapi/schemas.js';
import { createPet } from './operations/createPet.js';
import { getOpenApiDocument } from './operations/getOpenApiDocument.js';
import { getPet } from './operations/getPet.js';
import { getRateLimit } from './operations/getRateLimit.js';
import { listPets } from './operations/listPets.js';
import type { ListingRevision } from './listing/ListingPages.js';
import { updatePet } from './operations/updatePet.js';
import type { PetsOperation } from './operations/Operation.js';
import { notFound } from './middleware/notFound.js';
import { assembleApi, type OperationsApi } from './routing/assembleApi.js';
import { answerMethods, operationRequest, queryOf, unknownQueryParameters } from './routing/operationRequest.js';

/** The use cases the interface calls (a `PetStore` from core's `createPetStore`), and its public base. */
export type PetsApiDeps = PetStore & {
  /** Absolute base URL clients use, ending in the version (`https://api.example.com/v1`): used in Location and Link. */
  publicBaseUrl: string;
  /**
   * Where the storage can tell it without a round trip (`TypeOrmPetRepository.listingRevision` on SQLite): rendered
   * listing pages are kept, and sent again while it holds (ListingPages).
   */
  listingRevision?: ListingRevision;
};

export interface PetsApiOptions {
  /**
   * The path of the interface; default `/v1`. Mounted in a router at a path (`router.use('/api', api)`), that path
   * comes first (`/api/v1`); `''` leaves the whole path to it. Matching is exact: case-sensitive, no trailing slash.
   */
  prefix?: string;
  /** Browser origins allowed by CORS (exact `scheme://host[:port]`); default none. */
  corsOrigins?: readonly string[];
  /**
   * How many reverse proxies in front of the service append to `X-Forwarded-For` (default 0: the socket's peer is
   * the client). The client address is the entry that many places from the right, if it is an IP address.
   */
  trustedProxyHops?: number;
  /** Called with every unexpected error (answered 500); default: written to stderr. */
  onInternalError?: InternalErrorListener;
}

/**
 * The `/v1` interface as the middleware of a @koa/router router (`router.routes()`), for `app.use(api)` or
 * `router.use(api)`, and the OpenAPI document that describes it.
 */
export type PetsApi = OperationsApi;

/** The response headers a browser page may read (CORS): every header the document describes. */
export const EXPOSED_HEADERS: readonly string[] = Object.keys(HEADERS);

/** The operations of the interface, each declared once (operations/): the only list to extend. */
function declareOperations(deps: PetsApiDeps, document: () => object): PetsOperation[] {
  return [
    listPets(deps, deps.publicBaseUrl, deps.listingRevision),
    createPet(deps, deps.publicBaseUrl),
    getPet(deps),
    updatePet(deps),
    getRateLimit(deps),
    getOpenApiDocument(document, 'counted', 'The OpenAPI 3.1 description of this interface (also served without a key at `/docs/openapi.json`).'),
  ];
}

/**
 * The whole `/v1` interface as a @koa/router router's middleware, for `app.use(api)` in any Koa app or
 * `router.use(api)` / `router.use('/path', api)` in the app's own router: requests under `prefix` are answered here
 * (errors as the Error body, authentication, rate limits and their headers, CORS, the operations and the OpenAPI
 * document), anything else goes on to the next middleware. Everything is derived from the operations'
 * declarations: the routes, `405` and `Allow`, `OPTIONS`, the deprecation headers, CORS methods, the document.
 */
export function createPetsApi(deps: PetsApiDeps, options: PetsApiOptions = {}): PetsApi {
  const prefix = options.prefix ?? '/v1';
  const { admit, confirm, refund } = admission(deps, options.trustedProxyHops ?? 0);

  /** The middleware that answers `operation`, built once: its route, its deprecation headers. */
  function answerOperation(operation: PetsOperation): Middleware {
    const route = prefix + operation.path;
    const markDeprecated = operation.deprecated ? deprecationHeaders(operation.deprecated, deps.publicBaseUrl) : undefined;
    const refuseGone = operation.deprecated ? refuseAfterSunset(operation, operation.deprecated) : undefined;
    return async function answer(ctx: Context): Promise<void> {
      ctx.state['route'] = route;
      // A write is judged against the state when it arrived (a status change overtaken in flight is refused).
      if (operation.requestBody) ctx.state['receivedAt'] = deps.clock.now();
      const query = queryOf(ctx);
      const unknown = unknownQueryParameters(operation, query);
      markDeprecated?.(ctx);
      const admitted = operation.admission === 'none' ? undefined : await admit(ctx, operation.admission, operation.scope);
      try {
        // After admission, like every other invalid request: counted, and answered with the key's quota.
        refuseGone?.(deps.clock.now().getTime());
        if (unknown !== null) throw unknown;
        let body: JsonBody | undefined;
        if (operation.requestBody) {
          body = await readJsonBody(ctx, operation.requestBody.mediaTypes);
          // The body may have taken long to arrive: the key is checked again before anything is stored.
          if (admitted) await confirm(ctx, operation.scope, admitted);
        }
        await operation.run(ctx, operationRequest(ctx, query, body));
      } catch (error) {
        // Refused because a dependency is down: the quota is given back before the client sees the 503.
        if (admitted && DomainError.is(error) && error.code === 'service_unavailable') await refund(ctx, admitted);
        throw error;
      }
    };
  }

  // OPTIONS only describes a path (preflight or `Allow`): without credentials it needs no key and consumes no quota;
  // with a key it is counted like any request and carries the rate-limit headers. So is a request with no route.
  const admitWithoutOperation = async (ctx: Context) => {
    if (!(ctx.method === 'OPTIONS' && ctx.get('Authorization') === '')) await admit(ctx, 'counted', undefined);
  };
  const answerOtherMethods =
    (allow: string): Middleware =>
    async (ctx) => {
      await admitWithoutOperation(ctx);
      answerMethods(ctx, allow);
    };
  const answerNoRoute: Middleware = async (ctx, next) => {
    await admitWithoutOperation(ctx);
    return notFound(ctx, next);
  };

  const allowedOrigins = new Set(options.corsOrigins ?? []);
  const corsAnswers = (operations: readonly PetsOperation[]): Middleware[] =>
    allowedOrigins.size === 0
      ? []
      : [
          cors({
            origin: (ctx) => (allowedOrigins.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
            allowMethods: [...new Set(operations.flatMap((op) => (op.method === 'GET' ? ['GET', 'HEAD'] : [op.method]))), 'OPTIONS'],
            allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'If-None-Match', 'If-Match'],
            exposeHeaders: [...EXPOSED_HEADERS],
            maxAge: 600,
          }),
        ];
  // @koa/cors answers a preflight itself, naming every method of the interface: a known path's preflight gets its
  // `Allow`, as on every OPTIONS, and names only the methods that path answers.
  const allowOnPreflight =
    (allow: string): Middleware =>
    async (ctx, next) => {
      if (ctx.method !== 'OPTIONS') return next();
      ctx.set('Allow', allow);
      await next();
      if (ctx.response.get('Access-Control-Allow-Methods') !== '') ctx.set('Access-Control-Allow-Methods', allow.replaceAll(' ', ''));
    };

  return assembleApi({
    prefix,
    declare: (document) => declareOperations(deps, document),
    document: {
      publicBaseUrl: deps.publicBaseUrl,
      schemas: SCHEMAS,
      credential: 'An API key, `pst_...`.',
      routing: 'counted',
      title: 'Animal Adoption Store',
      version: '1.0.0',
      description:
        'Browse, add and change animals available for adoption. Every operation needs `Authorization: Bearer <API_KEY>`; every ' +
        'answer carries the rate-limit headers. Unknown paths answer 404 and known paths with another method 405 (with ' +
        '`Allow`), both with the Error body.',
      tags: [
        { name: 'pets', description: 'The animals.' },
        { name: 'rate limits', description: "The calling key's quota." },
      ],
    },
    onInternalError: options.onInternalError,
    clock: deps.clock,
    handlers: (operations) => {
      const corsFirst = corsAnswers(operations);
      return {
        operation: (operation) => [...corsFirst, answerOperation(operation)],
        methods: (allow) => [...(corsFirst.length === 0 ? [] : [allowOnPreflight(allow), ...corsFirst]), answerOtherMethods(allow)],
        none: [...corsFirst, answerNoRoute],
      };
    },
  });
}
