import { ListApiKeys, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { ApiKeysSchema } from '../adminSchemas.js';
import { pageParameters, sendJson } from '../adminParameters.js';

const NAME_EXAMPLE = 'acme';

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
      // The cursor example continues the listing the `name` example asks for: tools send the examples together.
      ...pageParameters(ListApiKeys.cursorAt({ at: new Date('2026-11-25T10:00:00.000Z'), id: 'key_3f0c9a5e1b2d4c6f' }, NAME_EXAMPLE)),
      {
        name: 'name',
        in: 'query',
        required: false,
        description:
          'Only keys whose name contains this text (1 to 100 characters): ASCII letters match in either case, every other character exactly.',
        schema: { type: 'string', minLength: 1, maxLength: 100 },
        example: NAME_EXAMPLE,
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
