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
    description:
      'Every key, oldest first, revoked ones included, or only those whose name contains `name`; `nextCursor` leads ' +
      'to the next page of the same listing. Never a secret.',
    parameters: [
      ...PAGE_PARAMETERS,
      {
        name: 'name',
        in: 'query',
        required: false,
        description:
          'Only keys whose name contains this text (1 to 100 characters): ASCII letters match in either case, every other character exactly.',
        schema: { type: 'string', minLength: 1, maxLength: 100 },
        example: 'acme',
      },
    ],
    responses: [{ status: 200, description: 'A page of keys.', body: ApiKeysSchema }],
    errors: ['validation_error'],
    input: ({ query }) => query,
    async handle(ctx, query) {
      sendJson(ctx, await store.listApiKeys.execute(query));
    },
  });
}
