import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID, sendJson } from '../adminParameters.js';
import { WebhookEndpointSchema, WebhookEndpointUpdateSchema } from '../webhookSchemas.js';

/** `PATCH /webhook-endpoints/{endpointId}`: changes an endpoint's settings. */
export function updateWebhookEndpoint(store: Pick<PetStore, 'updateWebhookEndpoint'>): AdminOperation {
  return defineOperation({
    operationId: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: '/webhook-endpoints/{endpointId}',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Update a webhook endpoint',
    description:
      "Changes an endpoint's URL (checked like a new one's), event types, description or `disabled`; the fields not sent " +
      'stay as they are. Enabling an endpoint clears why it was disabled; deliveries that failed meanwhile can be sent ' +
      'again with resendWebhookEvent. Audited as `webhook.updated` with each changed field.',
    parameters: [ENDPOINT_ID],
    requestBody: { schema: WebhookEndpointUpdateSchema, description: 'The settings to change.' },
    responses: [{ status: 200, description: 'The endpoint as changed.', body: WebhookEndpointSchema }],
    errors: ['validation_error', 'not_found'],
    input: ({ params, body }) => ({ id: params['endpointId']!, body }),
    async handle(ctx, { id, body }) {
      sendJson(ctx, await store.updateWebhookEndpoint.execute(id, body, 'admin-api'));
    },
  });
}
