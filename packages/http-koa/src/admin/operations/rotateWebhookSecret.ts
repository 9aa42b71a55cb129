import { WEBHOOK_SECRET_GRACE_SECONDS, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ENDPOINT_ID, sendJson } from '../adminParameters.js';
import { IssuedWebhookEndpointSchema } from '../webhookSchemas.js';

/** `POST /webhook-endpoints/{endpointId}/rotate-secret`: a new signing secret; the old one signs too for 24 hours. */
export function rotateWebhookSecret(store: Pick<PetStore, 'rotateWebhookSecret'>): AdminOperation {
  return defineOperation({
    operationId: 'rotateWebhookSecret',
    method: 'POST',
    path: '/webhook-endpoints/{endpointId}/rotate-secret',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Rotate the signing secret of a webhook endpoint',
    description:
      `Issues a new signing secret. For ${WEBHOOK_SECRET_GRACE_SECONDS / 3600} hours every delivery carries two ` +
      'signatures in `webhook-signature`, one per secret, so the receiver can switch to the new one at its own pace; a ' +
      'secret replaced by an earlier rotation stops at once. The answer is the only one that shows the new secret. ' +
      'Audited as `webhook.secret_rotated` (without either secret).',
    parameters: [ENDPOINT_ID],
    responses: [{ status: 200, description: 'The endpoint, and its new secret as `secret`.', body: IssuedWebhookEndpointSchema }],
    errors: ['not_found'],
    input: ({ params }) => params['endpointId']!,
    async handle(ctx, id) {
      const { endpoint, secret } = await store.rotateWebhookSecret.execute(id, 'admin-api');
      sendJson(ctx, { ...endpoint, secret });
    },
  });
}
