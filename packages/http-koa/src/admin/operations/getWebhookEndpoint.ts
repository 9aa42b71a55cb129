import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID, sendJson } from '../adminParameters.js';
import { WebhookEndpointSchema } from '../webhookSchemas.js';

/** `GET /webhook-endpoints/{endpointId}`: one endpoint. */
export function getWebhookEndpoint(store: Pick<PetStore, 'getWebhookEndpoint'>): AdminOperation {
  return defineOperation({
    operationId: 'getWebhookEndpoint',
    method: 'GET',
    path: '/webhook-endpoints/{endpointId}',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Get a webhook endpoint',
    description: 'One endpoint, with why it is disabled if it is. Never its secret.',
    parameters: [ENDPOINT_ID],
    responses: [{ status: 200, description: 'The endpoint.', body: WebhookEndpointSchema }],
    errors: ['not_found'],
    input: ({ params }) => params['endpointId']!,
    async handle(ctx, id) {
      sendJson(ctx, await store.getWebhookEndpoint.execute(id));
    },
  });
}
