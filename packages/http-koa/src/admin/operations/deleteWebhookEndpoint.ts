import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID } from '../adminParameters.js';

/** `DELETE /webhook-endpoints/{endpointId}`: deletes an endpoint. */
export function deleteWebhookEndpoint(store: Pick<PetStore, 'deleteWebhookEndpoint'>): AdminOperation {
  return defineOperation({
    operationId: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: '/webhook-endpoints/{endpointId}',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'Deletes an endpoint; its pending deliveries are dropped (its delivery log is kept). Audited as `webhook.deleted`.',
    parameters: [ENDPOINT_ID],
    responses: [{ status: 204, description: 'Deleted.' }],
    errors: ['not_found'],
    input: ({ params }) => params['endpointId']!,
    async handle(ctx, id) {
      await store.deleteWebhookEndpoint.execute(id, 'admin-api');
      ctx.status = 204;
    },
  });
}
