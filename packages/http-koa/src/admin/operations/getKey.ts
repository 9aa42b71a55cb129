import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeySchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

/** `GET /keys/{keyId}`: one key, with its last use and any ban in force. */
export function getKey(store: Pick<PetStore, 'getApiKey'>): AdminOperation {
  return defineOperation({
    operationId: 'getKey',
    method: 'GET',
    path: '/keys/{keyId}',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Get a key',
    description: 'One key, with its last use (at most a minute behind) and any ban in force. Never its secret.',
    parameters: [KEY_ID],
    responses: [{ status: 200, description: 'The key.', body: ApiKeySchema }],
    errors: ['not_found'],
    input: ({ params }) => params['keyId']!,
    async handle(ctx, id) {
      sendJson(ctx, await store.getApiKey.execute(id));
    },
  });
}
