import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeySchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

/** `POST /keys/{keyId}/unban`: lifts a key's rate-limit ban. */
export function unbanKey(store: Pick<PetStore, 'unbanApiKey'>): AdminOperation {
  return defineOperation({
    operationId: 'unbanKey',
    method: 'POST',
    path: '/keys/{keyId}/unban',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Lift a ban',
    description:
      "Lifts a key's temporary ban and forgets its strikes, on every instance at once; its counts stay, so a full " +
      'window still answers 429. A key that was not banned is answered the same. Audited as `key.unbanned`.',
    parameters: [KEY_ID],
    responses: [{ status: 200, description: 'The key, `bannedUntil` null.', body: ApiKeySchema }],
    errors: ['not_found'],
    input: ({ params }) => params['keyId']!,
    async handle(ctx, id) {
      sendJson(ctx, (await store.unbanApiKey.execute(id, 'admin-api')).key);
    },
  });
}
