import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { sendJson } from '../adminParameters.js';
import { IssuedWebhookEndpointSchema, NewWebhookEndpointSchema } from '../webhookSchemas.js';

/** `POST /webhook-endpoints`: creates an endpoint and answers its signing secret, once. */
export function createWebhookEndpoint(store: Pick<PetStore, 'createWebhookEndpoint'>, baseUrl: string): AdminOperation {
  return defineOperation({
    operationId: 'createWebhookEndpoint',
    method: 'POST',
    path: '/webhook-endpoints',
    admission: 'admin-token',
    tag: 'webhooks',
    summary: 'Create a webhook endpoint',
    description:
      'Registers a URL to receive the events of the given types (default: all) as signed POSTs (Standard Webhooks). The ' +
      'URL must be `https` and must not resolve to a loopback, private, link-local or metadata address. The answer is ' +
      'the only one that shows the signing secret, as `secret`. Audited as `webhook.created`.',
    requestBody: { schema: NewWebhookEndpointSchema, description: 'The new endpoint.' },
    responses: [{ status: 201, description: 'The endpoint, and its secret as `secret`.', headers: ['Location'], body: IssuedWebhookEndpointSchema }],
    errors: ['validation_error'],
    input: ({ body }) => body,
    async handle(ctx, body) {
      const { endpoint, secret } = await store.createWebhookEndpoint.execute(body, 'admin-api');
      ctx.set('Location', `${baseUrl}/webhook-endpoints/${endpoint.id}`);
      sendJson(ctx, { ...endpoint, secret }, 201);
    },
  });
}
