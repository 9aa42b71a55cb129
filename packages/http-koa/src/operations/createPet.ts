import { parseNewPet, type Pet, type PetStore } from '@petstore/core';
import { NewPetSchema, PetSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { defineOperation, type PetsOperation } from './Operation.js';
import { IDEMPOTENCY_KEY } from './petParameters.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';
import { petEntityTag } from '../entityTags.js';

/** `POST /pets`: adds an animal; safe to retry with an `Idempotency-Key`. */
export function createPet(store: Pick<PetStore, 'createPet' | 'createPetIdempotently'>, publicBaseUrl: string): PetsOperation {
  const serializePet = serializerFor<Pet>(PetSchema);
  return defineOperation({
    operationId: 'createPet',
    method: 'POST',
    path: '/pets',
    admission: 'counted',
    scope: 'pets:write',
    tag: 'pets',
    summary: 'Add an animal',
    description:
      'Adds an animal; the service assigns its id and answers with it, and with its URL in `Location`. With an ' +
      '`Idempotency-Key`, a retry of the same request (same key, same body) gets the first answer again instead of ' +
      'adding the animal twice.',
    parameters: [IDEMPOTENCY_KEY],
    requestBody: { schema: NewPetSchema, description: 'The animal to add.' },
    responses: [
      {
        status: 201,
        description: 'The animal, with its service-assigned id.',
        headers: ['Location', 'ETag', 'Idempotent-Replayed'],
        body: PetSchema,
      },
    ],
    errors: ['validation_error', 'idempotency_in_progress', 'idempotency_key_reused'],
    input: ({ body, numberLiterals, header }) => ({ newPet: parseNewPet(body, numberLiterals), idempotencyKey: header('idempotency-key') }),
    async handle(ctx, { newPet, idempotencyKey }) {
      let pet: Pet;
      if (idempotencyKey === undefined) {
        pet = await store.createPet.execute(newPet);
      } else {
        const result = await store.createPetIdempotently.execute({ newPet, scope: String(ctx.state['keyId']), idempotencyKey });
        pet = result.pet;
        if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
      }
      ctx.status = 201;
      ctx.set('Location', `${publicBaseUrl}/pets/${pet.id}`);
      ctx.set('ETag', petEntityTag(pet));
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = serializePet(pet);
    },
  });
}
