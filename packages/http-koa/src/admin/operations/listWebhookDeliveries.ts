import { ListWebhookDeliveries, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID, pageParameters, sendJson } from '../adminParameters.js';
import { DeliveryAttemptsSchema } from '../webhookSchemas.js';

/** `GET /webhook-endpoints/{endpointId}/deliveries`: the endpoint's delivery log. */
export function listWebhookDeliveries(store: Pick<PetStore, 'listWebhookDeliveries'>): AdminOperation {
  return defineOperation({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhook-endpoints/{endpointId}/deliveries',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'List the delivery attempts of a webhook endpoint',
    description:
      'Every attempt to deliver an event to the endpoint, newest first: when, the status code, how long, why it failed, the start of the answer.',
    parameters: [
      ENDPOINT_ID,
      ...pageParameters(
        ListWebhookDeliveries.cursorAt(ENDPOINT_ID.example as string, { at: new Date('2026-11-25T10:00:00.000Z'), id: '000000000000043_001' }),
      ),
    ],
    responses: [{ status: 200, description: 'A page of attempts.', body: DeliveryAttemptsSchema }],
    errors: ['validation_error', 'not_found'],
    input: ({ params, query }) => ({ id: params['endpointId']!, query }),
    async handle(ctx, { id, query }) {
      sendJson(ctx, await store.listWebhookDeliveries.execute(id, query));
    },
  });
}
