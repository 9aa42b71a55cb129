import type { PetStore } from '@petstore/core';
import type { AdminOperation } from '../../operations/Operation.js';
import { updatePet as updatePetWithKey } from '../../operations/updatePet.js';
import { asAdminOperation } from './asAdminOperation.js';

/** `PATCH /pets/{petId}` of the admin API: `PATCH /v1/pets/{petId}` with the admin token. */
export function updatePet(store: Pick<PetStore, 'clock' | 'adminPetWrites'>): AdminOperation {
  return asAdminOperation(
    updatePetWithKey(store.adminPetWrites),
    store.clock,
    "Changes an animal's name, category or status exactly as `PATCH /v1/pets/{petId}` does, with the admin token: " +
      'statuses move `available` -> `pending` or `sold`, `pending` -> `available` or `sold`, and `sold` is final (409 ' +
      '`invalid_transition` names the current status and those allowed next). With `If-Match`, the change is made only ' +
      'if the animal still has that tag, else 412 with its current `ETag`. Recorded in the event log and sent to the ' +
      'webhook endpoints like any other change, and audited as `pet.updated` (actor `admin-api`) with each field it ' +
      'changed, before and after; a change that changes nothing is not audited.',
  );
}
