import type { IssueApiKeyInput, PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { IssuedApiKeySchema, NewApiKeySchema } from '../adminSchemas.js';
import { sendJson } from '../adminParameters.js';

/** `POST /keys`: creates a key and answers its secret, once. */
export function createKey(store: Pick<PetStore, 'issueApiKey'>, baseUrl: string): AdminOperation {
  return defineOperation({
    operationId: 'createKey',
    method: 'POST',
    path: '/keys',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'Create a key',
    description:
      'Creates a key with a plan, optional per-minute and per-day limits, scopes (default: all) and expiry. The answer is ' +
      'the only one that shows its secret, as `key`: hand it to its user now; only its hash is stored. Audited as ' +
      '`key.created` (actor `admin-api`).',
    requestBody: { schema: NewApiKeySchema, description: 'The new key.' },
    responses: [{ status: 201, description: 'The key, and its secret as `key`.', headers: ['Location'], body: IssuedApiKeySchema }],
    errors: ['validation_error'],
    input: ({ body, numberLiterals }) => ({ settings: body as IssueApiKeyInput, numberLiterals }),
    async handle(ctx, { settings, numberLiterals }) {
      const { key, secret } = await store.issueApiKey.execute(settings, 'admin-api', numberLiterals);
      ctx.set('Location', `${baseUrl}/keys/${key.id}`);
      sendJson(ctx, { ...key, key: secret }, 201);
    },
  });
}
