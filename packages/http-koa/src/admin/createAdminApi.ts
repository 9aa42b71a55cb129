import type { PetStore } from '@petstore/core';
import type { Context, Middleware } from 'koa';
import type { InternalErrorListener } from '../middleware/errorResponses.js';
import { readJsonBody, type JsonBody } from '../middleware/jsonBody.js';
import { getOpenApiDocument } from '../operations/getOpenApiDocument.js';
import type { AdminOperation } from '../operations/Operation.js';
import { notFound } from '../middleware/notFound.js';
import { assembleApi, type OperationsApi } from '../routing/assembleApi.js';
import { answerMethods, operationRequest, queryOf, unknownQueryParameters } from '../routing/operationRequest.js';
import { ERROR_DESCRIPTIONS } from '../openapi/components.js';
import { ADMIN_SCHEMAS } from './adminSchemas.js';
import { adminTokenCheck } from './adminToken.js';
import { createKey } from './operations/createKey.js';
import { createWebhookEndpoint } from './operations/createWebhookEndpoint.js';
import { deleteWebhookEndpoint } from './operations/deleteWebhookEndpoint.js';
import { getWebhookEndpoint } from './operations/getWebhookEndpoint.js';
import { listEvents } from './operations/listEvents.js';
import { listWebhookDeliveries } from './operations/listWebhookDeliveries.js';
import { listWebhookEndpoints } from './operations/listWebhookEndpoints.js';
import { resendWebhookEvent } from './operations/resendWebhookEvent.js';
import { rotateWebhookSecret } from './operations/rotateWebhookSecret.js';
import { updateWebhookEndpoint } from './operations/updateWebhookEndpoint.js';
import { getKey } from './operations/getKey.js';
import { getOverview } from './operations/getOverview.js';
import type { ServiceOverview } from './overviewSchema.js';
import { getKeyUsage } from './operations/getKeyUsage.js';
import { listAuditEvents } from './operations/listAuditEvents.js';
import { listKeys } from './operations/listKeys.js';
import { revokeKey } from './operations/revokeKey.js';
import { rotateKey } from './operations/rotateKey.js';
import { unbanKey } from './operations/unbanKey.js';
import { updateKey } from './operations/updateKey.js';
import { createPet } from './operations/createPet.js';
import { getPet } from './operations/getPet.js';
import { listPets } from './operations/listPets.js';
import { updatePet } from './operations/updatePet.js';

/** The key-management use cases the admin interface calls (any `PetStore` from core's `createPetStore` has them). */
export type AdminApiDeps = Pick<
  PetStore,
  | 'clock'
  | 'issueApiKey'
  | 'listApiKeys'
  | 'getApiKey'
  | 'updateApiKey'
  | 'rotateApiKey'
  | 'revokeApiKey'
  | 'unbanApiKey'
  | 'getApiKeyUsage'
  | 'listAuditEvents'
  | 'createWebhookEndpoint'
  | 'listWebhookEndpoints'
  | 'getWebhookEndpoint'
  | 'updateWebhookEndpoint'
  | 'deleteWebhookEndpoint'
  | 'rotateWebhookSecret'
  | 'listWebhookDeliveries'
  | 'resendWebhookEvent'
  | 'listEvents'
  | 'listPets'
  | 'getPet'
  | 'adminPetWrites'
> & {
  /** Absolute base URL of the admin interface, ending in its prefix (`http://10.0.0.5:3001/admin/v1`): `Location` and `servers`. */
  adminBaseUrl: string;
  /** Reads the traffic and webhook backlog of `GET /overview` (from the server's metrics); without it that path is 404. */
  readOverview?: () => Promise<ServiceOverview>;
};

export interface AdminApiOptions {
  /** The bearer token every request must send, at least 32 characters. */
  token: string;
  /** Where the interface is mounted; default `/admin/v1`. */
  prefix?: string;
  /** Called with every unexpected error (answered 500); default: written to stderr. */
  onInternalError?: InternalErrorListener;
}

/** The admin interface as the middleware of a @koa/router router, and the OpenAPI document that describes it. */
export type AdminApi = OperationsApi;

/** The operations of the admin interface, each declared once (admin/operations/): the only list to extend. */
function declareOperations(deps: AdminApiDeps, document: () => object): AdminOperation[] {
  return [
    createKey(deps, deps.adminBaseUrl),
    listKeys(deps),
    getKey(deps),
    updateKey(deps),
    rotateKey(deps),
    revokeKey(deps),
    unbanKey(deps),
    getKeyUsage(deps),
    listAuditEvents(deps),
    createWebhookEndpoint(deps, deps.adminBaseUrl),
    listWebhookEndpoints(deps),
    getWebhookEndpoint(deps),
    updateWebhookEndpoint(deps),
    deleteWebhookEndpoint(deps),
    rotateWebhookSecret(deps),
    listWebhookDeliveries(deps),
    resendWebhookEvent(deps),
    listEvents(deps),
    listPets(deps, deps.adminBaseUrl),
    createPet(deps, deps.adminBaseUrl),
    getPet(deps),
    updatePet(deps),
    ...(deps.readOverview ? [getOverview(deps.readOverview)] : []),
    getOpenApiDocument(document, 'admin-token', 'The OpenAPI 3.1 description of the admin interface.'),
  ];
}

/** A body that may be left out is absent when nothing is sent (no `Transfer-Encoding`, no or a zero `Content-Length`). */
const sendsNoBody = (ctx: Context) => ctx.get('Transfer-Encoding') === '' && (ctx.get('Content-Length') === '' || ctx.get('Content-Length') === '0');

/**
 * The admin interface (create, list, get, update, rotate, revoke and unban keys, their usage, the audit trail; webhook
 * endpoints, their delivery log and the events) as
 * a @koa/router router's middleware for `app.use(...)` or `router.use(...)`: requests under `prefix` are answered here, anything else goes on. Every
 * request under the prefix needs `Authorization: Bearer <token>`, unknown paths included. Actions are audited with
 * the actor `admin-api`. Mount it on a listener of its own that only operators reach, never beside the public API.
 */
export function createAdminApi(deps: AdminApiDeps, options: AdminApiOptions): AdminApi {
  const prefix = options.prefix ?? '/admin/v1';
  const checkToken = adminTokenCheck(options.token);

  /** The middleware that answers `operation`, built once. */
  function answerOperation(operation: AdminOperation): Middleware {
    const route = prefix + operation.path;
    return async function answer(ctx: Context): Promise<void> {
      ctx.state['route'] = route;
      const query = queryOf(ctx);
      const unknown = unknownQueryParameters(operation, query);
      if (unknown !== null) throw unknown;
      let body: JsonBody | undefined;
      if (operation.requestBody && !(operation.requestBody.optional && sendsNoBody(ctx)))
        body = await readJsonBody(ctx, operation.requestBody.mediaTypes);
      await operation.run(ctx, operationRequest(ctx, query, body));
    };
  }

  // The token is checked first on every path under the prefix, unknown ones included.
  const token: Middleware = (ctx, next) => {
    checkToken(ctx);
    return next();
  };
  return assembleApi({
    prefix,
    declare: (document) => declareOperations(deps, document),
    document: {
      publicBaseUrl: deps.adminBaseUrl,
      schemas: ADMIN_SCHEMAS,
      credential: 'The admin token (`ADMIN_TOKEN`).',
      routing: 'admin-token',
      errorDescriptions: {
        401: 'The admin token is missing or wrong (`unauthorized`).',
        409:
          `${ERROR_DESCRIPTIONS[409]!.replace(/\.$/, '')}, or an earlier resend of this event to this endpoint is still pending ` +
          '(`resend_pending`).',
      },
      title: 'Animal Adoption Store: admin',
      version: '1.0.0',
      description:
        "Manage the store's API keys from your own backend: create, list, get, update, rotate, revoke, lift a ban, usage " +
        'per day, and the audit trail; and the webhooks that tell other systems of every change to an animal (endpoints, ' +
        'their signing secrets and delivery log, the events); and the animals, as the `/v1` interface serves them. Listens on its own port (`ADMIN_PORT`) only when ' +
        '`ADMIN_TOKEN` is set; every request needs `Authorization: Bearer <ADMIN_TOKEN>`. Errors use the Error body.',
      tags: [
        { name: 'keys', description: 'API keys.' },
        { name: 'audit', description: 'Who changed which key or webhook endpoint, and when.' },
        { name: 'webhooks', description: 'Webhook endpoints, their delivery log, and the events they are sent.' },
        { name: 'overview', description: "The service's traffic and webhook backlog at a glance." },
        { name: 'pets', description: 'The animals, as the `/v1` interface serves them, with the admin token (the operator console uses these).' },
      ],
    },
    onInternalError: options.onInternalError,
    clock: deps.clock,
    handlers: () => ({
      operation: (operation) => [token, answerOperation(operation)],
      methods: (allow) => [token, (ctx) => answerMethods(ctx, allow)],
      none: [token, notFound],
    }),
  });
}
