import { DEFAULT_GRACE_PERIOD_SECONDS, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { IssuedApiKeySchema, RotationSchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

/** `POST /keys/{keyId}/rotate`: a new secret for the same key; the old one works for a grace period. */
export function rotateKey(store: Pick<PetStore, 'rotateApiKey'>): AdminOperation {
  return defineOperation({
    operationId: 'rotateKey',
    method: 'POST',
    path: '/keys/{keyId}/rotate',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Rotate a key',
    description:
      'Issues a new secret for the same key id (same plan, scopes, quota and ban state). The replaced secret keeps ' +
      `working for \`gracePeriodSeconds\` (default ${DEFAULT_GRACE_PERIOD_SECONDS}, 24 hours; 0: it stops at once), ` +
      'and both count against the one quota meanwhile; a secret replaced by an earlier rotation stops at once. The ' +
      'answer is the only one that shows the new secret, as `key`. Audited as `key.rotated`.',
    parameters: [KEY_ID],
    requestBody: {
      schema: RotationSchema,
      description: 'The grace period; the body may be left out.',
      optional: true,
    },
    responses: [{ status: 200, description: 'The key, and its new secret as `key`.', body: IssuedApiKeySchema }],
    errors: ['validation_error', 'not_found'],
    input: ({ params, body }) => ({ id: params['keyId']!, options: body ?? {} }),
    async handle(ctx, { id, options }) {
      const { key, secret } = await store.rotateApiKey.execute(id, options, 'admin-api');
      sendJson(ctx, { ...key, key: secret });
    },
  });
}
