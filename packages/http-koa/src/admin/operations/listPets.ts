import type { PetStore } from '@petstore/core';
import { listPets as listPetsWithKey } from '../../operations/listPets.js';
import type { AdminOperation } from '../../operations/Operation.js';
import { asAdminOperation } from './asAdminOperation.js';

/** `GET /pets` of the admin API: `GET /v1/pets` with the admin token (its `Link` leads to the admin API's next page). */
export function listPets(store: Pick<PetStore, 'clock' | 'listPets'>, adminBaseUrl: string): AdminOperation {
  return asAdminOperation(
    listPetsWithKey(store, adminBaseUrl),
    store.clock,
    'One page of animals, ascending by id, optionally of one status, exactly as `GET /v1/pets` answers it (same ' +
      'parameters, `Link` to the next page, `ETag`), with the admin token instead of an API key: no quota is counted.',
  );
}
