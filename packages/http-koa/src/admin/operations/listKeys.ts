import type { PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeysSchema } from '../adminSchemas.js';
import { PAGE_PARAMETERS, sendJson } from '../adminParameters.js';

/** `GET /keys`: every key, oldest first, a page at a time. */
export function listKeys(store: Pick<PetStore, 'listApiKeys'>): AdminOperation {
  return defineOperation({
    operationId: 'listKeys',
    method: 'GET',
    path: '/keys',
    admission: 'admin-token',
    tag: 'keys',
    summary: 'List keys',
    description: 'Every key, oldest first, revoked ones included; `nextCursor` leads to the next page. Never a secret.',
    parameters: PAGE_PARAMETERS,
    responses: [{ status: 200, description: 'A page of keys.', body: ApiKeysSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listApiKeys.execute(query));
    },
  });
}
