import { parsePetPatch, type Pet, type PetStore } from '@petstore/core';
import { petEntityTag, versionsNamed } from '../entityTags.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';
import { PetPatchSchema, PetSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { defineOperation, type PetsOperation } from './Operation.js';
import { IDEMPOTENCY_KEY, IF_MATCH, IF_NONE_MATCH_ON_CHANGE, PET_ID } from './petParameters.js';

/** `PATCH /pets/{petId}`: changes an animal's name, category or status; conditional with `If-Match`, safe to retry with an `Idempotency-Key`. */
export function updatePet(store: Pick<PetStore, 'updatePet' | 'updatePetIdempotently'>): PetsOperation {
  const serializePet = serializerFor<Pet>(PetSchema);
  return defineOperation({
    operationId: 'updatePet',
    method: 'PATCH',
    path: '/pets/{petId}',
    admission: 'counted',
    scope: 'pets:write',
    tag: 'pets',
    summary: 'Change an animal',
    description:
      'Changes any of an animal\'s name, category and status, with a JSON Merge Patch (RFC 7396): `{"status": "pending"}` ' +
      'records an adoption under way. Statuses move `available` -> `pending` or `sold`, `pending` -> `available` or ' +
      '`sold`; `sold` is final: another change is 409 `invalid_transition`, naming the current status and those allowed ' +
      'next. Setting what is already there changes nothing (200, same `ETag`): `{}` answers the animal as it is and its ' +
      'current tag, to send in `If-Match` (a safe read-modify-write without the deprecated `GET`). With `If-Match`, the change is made only ' +
      'if the animal still has one of those tags (else 412 with its current `ETag`); without it, the change applies to ' +
      'the animal as it is when written, and a status change overtaken in flight by another change of the status is 409. ' +
      '`If-None-Match` with `*`, or with a tag the animal has, is 412 and changes nothing. With an ' +
      '`Idempotency-Key`, a retry of the same request gets the first answer again.',
    // Its own example key: a tool replaying the document's examples must not reuse createPet's key for another request.
    parameters: [PET_ID, IF_MATCH, IF_NONE_MATCH_ON_CHANGE, { ...IDEMPOTENCY_KEY, example: 'adoption-7f3a2c' }],
    requestBody: {
      schema: PetPatchSchema,
      description: 'The fields to change.',
      mediaTypes: ['application/merge-patch+json', 'application/json'],
    },
    responses: [{ status: 200, description: 'The animal as changed, with its new tag.', headers: ['ETag', 'Idempotent-Replayed'], body: PetSchema }],
    errors: ['validation_error', 'not_found', 'invalid_transition', 'precondition_failed', 'idempotency_in_progress', 'idempotency_key_reused'],
    input: ({ params, body, numberLiterals, header }) => {
      const petId = params['petId']!;
      const [ifMatch, ifNoneMatch] = [header('if-match'), header('if-none-match')];
      // Any decimal form of the id (leading zeros too) is the pet's; an id that is not one (checked by the use case) matches no tag.
      const id = /^[0-9]+$/.test(petId) ? Number(petId) : 0;
      return {
        petId,
        patch: parsePetPatch(body, numberLiterals),
        ...(ifMatch !== undefined && { ifMatch: versionsNamed(ifMatch, id, 'strong') }),
        ...(ifNoneMatch !== undefined && { ifNoneMatch: versionsNamed(ifNoneMatch, id, 'weak') }),
        idempotencyKey: header('idempotency-key'),
      };
    },
    async handle(ctx, { idempotencyKey, ...request }) {
      const input = { ...request, receivedAt: ctx.state['receivedAt'] as Date };
      let pet: Pet;
      if (idempotencyKey === undefined) {
        pet = await store.updatePet.execute(input);
      } else {
        const result = await store.updatePetIdempotently.execute({ ...input, scope: String(ctx.state['keyId']), idempotencyKey });
        pet = result.pet;
        if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      }
      ctx.set('ETag', petEntityTag(pet));
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = serializePet(pet);
    },
  });
}
