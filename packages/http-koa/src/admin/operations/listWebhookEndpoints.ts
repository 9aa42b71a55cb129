import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { PAGE_PARAMETERS, sendJson } from '../adminParameters.js';
import { WebhookEndpointsSchema } from '../webhookSchemas.js';

/** `GET /webhook-endpoints`: every endpoint, oldest first. */
export function listWebhookEndpoints(store: Pick<PetStore, 'listWebhookEndpoints'>): AdminOperation {
  return defineOperation({
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/webhook-endpoints',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'List webhook endpoints',
    description: 'Every webhook endpoint, oldest first, disabled ones included. Never a secret.',
    parameters: PAGE_PARAMETERS,
    responses: [{ status: 200, description: 'A page of endpoints.', body: WebhookEndpointsSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listWebhookEndpoints.execute(query));
    },
  });
}
