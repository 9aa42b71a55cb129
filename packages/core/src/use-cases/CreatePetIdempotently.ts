import { eventsOfCreate } from '../events/PetEvent.js';
import type { NewPet } from '../pet/Pet.js';
import { checkedNewPet, draftOf } from '../pet/parseNewPet.js';
import type { Clock } from '../ports/Clock.js';
import type { IdempotencyStore } from '../ports/IdempotencyStore.js';
import type { PetRepository } from '../ports/PetRepository.js';
import { checkIdempotencyKey, IdempotentWrites, type IdempotencyOptions, type IdempotentResult } from './IdempotentWrites.js';

export interface IdempotentCreateInput {
  newPet: NewPet;
  /** The API key id the idempotency key belongs to. */
  scope: string;
  idempotencyKey: string;
}

export type IdempotentCreateResult = IdempotentResult;

/**
 * CreatePet made safe to retry (IdempotentWrites): a retry with the same key and the same body gets the stored pet
 * back and creates nothing. Invalid bodies are rejected before anything is stored under the key.
 */
export class CreatePetIdempotently {
  private readonly writes: IdempotentWrites;

  constructor(
    private readonly pets: PetRepository,
    store: IdempotencyStore,
    clock: Clock,
    options?: IdempotencyOptions,
  ) {
    this.writes = new IdempotentWrites(store, clock, options);
  }

  async execute({ newPet, scope, idempotencyKey }: IdempotentCreateInput): Promise<IdempotentCreateResult> {
    checkIdempotencyKey(idempotencyKey);
    const checked = checkedNewPet(newPet);
    return this.writes.run(scope, idempotencyKey, checked, () => this.pets.create(draftOf(checked), eventsOfCreate()));
  }
}
