import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeySchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

/** `POST /keys/{keyId}/revoke`: revokes a key for good. */
export function revokeKey(store: Pick<PetStore, 'revokeApiKey'>): AdminOperation {
  return defineOperation({
    operationId: 'revokeKey',
    method: 'POST',
    path: '/keys/{keyId}/revoke',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Revoke a key',
    description:
      'Revokes a key for good (both secrets during a rotation): it gets 401 on every instance within the key cache TTL. ' +
      'Revoking it again changes nothing and answers the same (`revokedAt` stays the first time). Audited as `key.revoked`.',
    parameters: [KEY_ID],
    responses: [{ status: 200, description: 'The revoked key.', body: ApiKeySchema }],
    errors: ['not_found'],
    input: ({ params }) => params['keyId']!,
    async handle(ctx, id) {
      sendJson(ctx, (await store.revokeApiKey.execute(id, 'admin-api')).key);
    },
  });
}
