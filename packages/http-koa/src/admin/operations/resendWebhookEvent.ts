import { ValidationError, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID, sendJson } from '../adminParameters.js';
import { ResendAcceptedSchema, ResendSchema } from '../webhookSchemas.js';

function eventIdOf(body: unknown): string {
  const { eventId, ...others } = (body ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(others);
  if (unknown.length > 0) throw ValidationError.of(unknown[0]!, `${unknown[0]!} is not a field of a resend (use eventId)`);
  if (typeof eventId !== 'string') throw ValidationError.of('eventId', 'eventId is required: an event id (evt_...)');
  return eventId;
}

/** `POST /webhook-endpoints/{endpointId}/resend`: one event to one endpoint again. */
export function resendWebhookEvent(store: Pick<PetStore, 'resendWebhookEvent'>): AdminOperation {
  return defineOperation({
    operationId: 'resendWebhookEvent',
    method: 'POST',
    path: '/webhook-endpoints/{endpointId}/resend',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Send an event to a webhook endpoint again',
    description:
      'Queues a new delivery of one recorded event to this endpoint, attempted at once and retried like any other, with ' +
      'the same `webhook-id` as before (a receiver that already has it can drop it). The endpoint must be enabled. ' +
      'One resend of an event to an endpoint is pending at a time: while one is (queued, or retrying), another is 409 ' +
      '`resend_pending` and queues nothing, so any number of resends at once send one copy. The first delivery of the ' +
      'event, if it is still retrying, goes on beside it.',
    parameters: [ENDPOINT_ID],
    requestBody: { schema: ResendSchema, description: 'The event to send again.' },
    responses: [{ status: 202, description: 'The delivery, queued.', body: ResendAcceptedSchema }],
    errors: ['validation_error', 'not_found', 'resend_pending'],
    input: ({ params, body }) => ({ id: params['endpointId']!, eventId: eventIdOf(body) }),
    async handle(ctx, { id, eventId }) {
      const delivery = await store.resendWebhookEvent.execute(id, eventId);
      sendJson(ctx, { deliveryId: delivery.id, eventId: delivery.eventId, endpointId: delivery.endpointId }, 202);
    },
  });
}
