import { MAX_USAGE_RANGE_DAYS, type PetStore } from '@petstore/core';
import { defineOperation, type AdminOperation } from '../../operations/Operation.js';
import { KeyUsageSchema } from '../adminSchemas.js';
import { KEY_ID, sendJson } from '../adminParameters.js';

const day = (name: 'from' | 'to', description: string, example: string) => ({
  name,
  in: 'query' as const,
  required: false,
  description,
  schema: { type: 'string', format: 'date' },
  example,
});

/** `GET /keys/{keyId}/usage`: a key's requests per UTC day. */
export function getKeyUsage(store: Pick<PetStore, 'getApiKeyUsage'>): AdminOperation {
  return defineOperation({
    operationId: 'getKeyUsage',
    method: 'GET',
    path: '/keys/{keyId}/usage',
    admission: 'admin-token',
    tag: 'keys',
    summary: "A key's usage per day",
    description:
      "The key's requests per UTC day, those admitted and those its rate limit refused (`429`), every day of the range " +
      `(at most ${MAX_USAGE_RANGE_DAYS} days; days are kept at least 90), and its last use; every instance flushes its ` +
      'counts at least once a minute.',
    parameters: [
      KEY_ID,
      day('from', 'First day (UTC, `YYYY-MM-DD`), included; default 29 days before `to`.', '2026-11-01'),
      day('to', 'Last day (UTC, `YYYY-MM-DD`), included; default today.', '2026-11-25'),
    ],
    responses: [{ status: 200, description: 'The usage.', body: KeyUsageSchema }],
    errors: ['validation_error', 'not_found'],
    input: ({ params, query }) => ({ id: params['keyId']!, range: query }),
    async handle(ctx, { id, range }) {
      sendJson(ctx, await store.getApiKeyUsage.execute(id, range));
    },
  });
}
