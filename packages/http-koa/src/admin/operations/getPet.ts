import type { PetStore } from '@petstore/core';
import { getPet as getPetWithKey } from '../../operations/getPet.js';
import type { AdminOperation } from '../../operations/Operation.js';
import { asAdminOperation } from './asAdminOperation.js';

/** `GET /pets/{petId}` of the admin API: one animal and its `ETag`, with the admin token (not deprecated here). */
export function getPet(store: Pick<PetStore, 'clock' | 'getPet'>): AdminOperation {
  return asAdminOperation(
    getPetWithKey(store),
    store.clock,
    'One animal by id, with its `ETag` (the tag `PATCH /pets/{petId}` takes in `If-Match`); `If-None-Match` answers ' + '304 while it is unchanged.',
  );
}
