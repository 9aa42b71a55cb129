import type { PetStore } from '@petstore/core';
import { createPet as createPetWithKey } from '../../operations/createPet.js';
import type { AdminOperation } from '../../operations/Operation.js';
import { asAdminOperation } from './asAdminOperation.js';

/** `POST /pets` of the admin API: `POST /v1/pets` with the admin token. */
export function createPet(store: Pick<PetStore, 'clock' | 'adminPetWrites'>, adminBaseUrl: string): AdminOperation {
  return asAdminOperation(
    createPetWithKey(store.adminPetWrites, adminBaseUrl),
    store.clock,
    'Adds an animal exactly as `POST /v1/pets` does (same rules, same validation errors, `Location` and `ETag`), with ' +
      'the admin token instead of an API key. Recorded in the event log (`pet.created`) and sent to the webhook ' +
      'endpoints like any other change, and audited as `pet.created` (actor `admin-api`) with its fields. An ' +
      '`Idempotency-Key` is scoped to the admin API.',
  );
}
