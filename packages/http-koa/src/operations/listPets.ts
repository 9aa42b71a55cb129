import { encodePetCursor, LIST_LIMIT, PET_STATUSES, readListPetsQuery, type Pet, type PetStore } from '@petstore/core';
import { sendWithEntityTag } from '../conditionalRequests.js';
import { ListingPages } from '../listing/ListingPages.js';
import { PetsSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { IF_NONE_MATCH } from './conditionalParameters.js';
import { defineOperation, type PetsOperation } from './Operation.js';

/** `GET /pets`: one page of animals, ascending by id, optionally of one status. */
export function listPets(store: Pick<PetStore, 'listPets'>, publicBaseUrl: string): PetsOperation {
  const pages = new ListingPages(store.listPets, serializerFor<Pet[]>(PetsSchema), `${publicBaseUrl}/pets`);
  return defineOperation({
    operationId: 'listPets',
    method: 'GET',
    path: '/pets',
    admission: 'counted',
    scope: 'pets:read',
    tag: 'pets',
    summary: 'List animals',
    description:
      'One page of animals, ascending by id, optionally of one status. When another page exists, `Link` points to it ' +
      '(`rel="next"`, with an opaque cursor): follow it rather than building URLs. Unknown or repeated query ' +
      'parameters are refused (400), so a typo never returns an unfiltered list. A page always shows the animals as they are ' +
      'when it is read, on every instance; its `ETag` changes whenever any animal on it changes, so `If-None-Match` ' +
      'answers 304 only while the page is unchanged. A cursor stays valid across changes: it continues after an id.',
    parameters: [
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'How many animals at most.',
        schema: { type: 'integer', minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default },
        example: 20,
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        description: 'Only animals with this status.',
        schema: { type: 'string', enum: [...PET_STATUSES] },
        example: 'available',
      },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description:
          'Opaque; from the `Link: rel="next"` of the previous page, with the same `status` (the example is the start of the `available` listing).',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,200}$' },
        example: encodePetCursor(0, 'available'),
      },
      IF_NONE_MATCH,
    ],
    responses: [
      { status: 200, description: 'One page of animals.', headers: ['ETag', 'Link'], body: PetsSchema },
      { status: 304, description: 'Not modified: the `If-None-Match` tag is current. No body.', headers: ['ETag', 'Link'] },
    ],
    errors: ['validation_error'],
    input: ({ query }) => readListPetsQuery(query),
    async handle(ctx, request) {
      const page = await pages.page(request);
      if (page.link !== '') ctx.set('Link', page.link);
      sendWithEntityTag(ctx, page.body, page.etag);
    },
  });
}
