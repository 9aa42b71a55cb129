import { checkedPetPatch } from '../pet/parseNewPet.js';
import { parsePetId } from '../pet/parsePetId.js';
import type { Clock } from '../ports/Clock.js';
import type { IdempotencyStore } from '../ports/IdempotencyStore.js';
import { checkIdempotencyKey, IdempotentWrites, type IdempotencyOptions, type IdempotentResult } from './IdempotentWrites.js';
import type { UpdatePet, UpdatePetInput } from './UpdatePet.js';

export interface IdempotentUpdateInput extends UpdatePetInput {
  /** The API key id the idempotency key belongs to. */
  scope: string;
  idempotencyKey: string;
}

/**
 * UpdatePet made safe to retry (IdempotentWrites): a retry with the same key, pet, change and If-Match gets the
 * pet as the first request left it, and changes nothing again. A refused change stores nothing under the key.
 */
export class UpdatePetIdempotently {
  private readonly writes: IdempotentWrites;

  constructor(
    private readonly updatePet: UpdatePet,
    store: IdempotencyStore,
    clock: Clock,
    options?: IdempotencyOptions,
  ) {
    this.writes = new IdempotentWrites(store, clock, options);
  }

  async execute({ scope, idempotencyKey, ...input }: IdempotentUpdateInput): Promise<IdempotentResult> {
    checkIdempotencyKey(idempotencyKey);
    const patch = checkedPetPatch(input.patch);
    const request = {
      updatePet: parsePetId(input.petId),
      patch,
      ifMatch: input.ifMatch ?? null,
      ...(input.ifNoneMatch !== undefined && { ifNoneMatch: input.ifNoneMatch }),
    };
    return this.writes.run(scope, idempotencyKey, request, () => this.updatePet.execute({ ...input, patch }));
  }
}
