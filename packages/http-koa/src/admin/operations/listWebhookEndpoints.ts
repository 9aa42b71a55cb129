import { ListWebhookEndpoints, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { pageParameters, sendJson } from '../adminParameters.js';
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
    parameters: pageParameters(ListWebhookEndpoints.cursorAt({ at: new Date('2026-11-25T10:00:00.000Z'), id: 'we_5c2a9e0b7d1f4a36' })),
    responses: [{ status: 200, description: 'A page of endpoints.', body: WebhookEndpointsSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listWebhookEndpoints.execute(query));
    },
  });
}
