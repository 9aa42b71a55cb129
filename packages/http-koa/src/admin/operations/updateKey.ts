import type { ApiKeyUpdate, PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeySchema, ApiKeyUpdateSchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

/** `PATCH /keys/{keyId}`: changes a key's settings. */
export function updateKey(store: Pick<PetStore, 'updateApiKey'>): AdminOperation {
  return defineOperation({
    operationId: 'updateKey',
    method: 'PATCH',
    path: '/keys/{keyId}',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Update a key',
    description:
      "Changes a key's name, plan, limits (null: back to the plan's), scopes, expiry (null: none) or disabled flag; the " +
      'fields not sent stay as they are. Every instance applies the change within the key cache TTL (2 s by default). ' +
      'A revoked key cannot be changed. Concurrent changes to one key apply one at a time, each checked against the key ' +
      'as the others left it: none is lost, and one the rules refuse on the key as it now is answers 400. ' +
      'Audited as `key.updated` with each changed field before and after.',
    parameters: [KEY_ID],
    requestBody: { schema: ApiKeyUpdateSchema, description: 'The settings to change.' },
    responses: [{ status: 200, description: 'The key as changed.', body: ApiKeySchema }],
    errors: ['validation_error', 'not_found'],
    input: ({ params, body, numberLiterals }) => ({ id: params['keyId']!, update: body as ApiKeyUpdate, numberLiterals }),
    async handle(ctx, { id, update, numberLiterals }) {
      sendJson(ctx, await store.updateApiKey.execute(id, update, 'admin-api', numberLiterals));
    },
  });
}
