import type { Pet, PetStore } from '@petstore/core';
import { sendWithEntityTag } from '../conditionalRequests.js';
import { petEntityTag } from '../entityTags.js';
import { PetSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { IF_NONE_MATCH } from './conditionalParameters.js';
import { defineOperation, type PetsOperation } from './Operation.js';
import { PET_ID } from './petParameters.js';

/** When `GET /pets/{petId}` was deprecated (sent as `Deprecation: @<unix seconds>`). */
export const GET_PET_DEPRECATED_SINCE = new Date('2026-01-01T00:00:00Z');

/** When `GET /pets/{petId}` is removed: from this instant on it answers `410 gone`. */
export const GET_PET_SUNSET = new Date('2030-12-05T00:00:00Z');

/** `GET /pets/{petId}`, deprecated: one animal by id. */
export function getPet(store: Pick<PetStore, 'getPet'>): PetsOperation {
  const serializePet = serializerFor<Pet>(PetSchema);
  const sunset = GET_PET_SUNSET.toISOString().slice(0, 10);
  return defineOperation({
    operationId: 'getPet',
    method: 'GET',
    path: '/pets/{petId}',
    admission: 'counted',
    scope: 'pets:read',
    deprecated: {
      since: GET_PET_DEPRECATED_SINCE,
      sunset: GET_PET_SUNSET,
      successor: '/pets',
      advice: 'use GET /pets with the status filter instead.',
    },
    tag: 'pets',
    summary: 'Get an animal (deprecated)',
    description:
      `Deprecated. Sunset: ${GET_PET_SUNSET.toUTCString()} (${sunset}); from then on it answers 410 \`gone\`. Use ` +
      '`GET /pets` with the `status` filter instead. Every answer carries `Deprecation`, `Sunset` and a `Link` to the successor.',
    parameters: [PET_ID, IF_NONE_MATCH],
    responses: [
      { status: 200, description: 'The animal.', headers: ['ETag'], body: PetSchema },
      { status: 304, description: 'Not modified: the `If-None-Match` tag is current. No body.', headers: ['ETag'] },
    ],
    errors: ['validation_error', 'not_found', 'gone'],
    input: ({ params }) => params['petId']!,
    async handle(ctx, petId) {
      const pet = await store.getPet.execute(petId);
      sendWithEntityTag(ctx, serializePet(pet), petEntityTag(pet));
    },
  });
}
