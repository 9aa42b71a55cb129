import { InvalidTransitionError } from '../errors/InvalidTransitionError.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { PreconditionFailedError } from '../errors/PreconditionFailedError.js';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError.js';
import type { Pet, PetDraft, PetPatch } from '../pet/Pet.js';
import { parsePetId } from '../pet/parsePetId.js';
import { parsePetPatch } from '../pet/parseNewPet.js';
import { isAllowedTransition, PET_TRANSITIONS } from '../pet/PetTransitions.js';
import type { PetStatus } from '../pet/PetStatus.js';
import type { PetRepository } from '../ports/PetRepository.js';

export interface UpdatePetInput {
  /** As a number, or as the decimal text a transport received. */
  petId: number | string;
  patch: PetPatch;
  /** The versions the caller allows the change from (If-Match), or `*` for any; absent: whatever the pet is now. */
  ifMatch?: '*' | readonly number[];
}

/** How many times a change is tried again after another change to the same pet came first. */
const ATTEMPTS = 20;

/**
 * Changes an animal's name, category or status (any of them), by the same rules as a new animal's; a status may
 * only move as the transition rules allow. The change applies to the pet as it is when it is written: it is
 * validated against the stored version and written only if that version is still current, else read again and
 * re-validated. A status change is judged against the status the caller was shown: if another change moved the
 * status meanwhile, it is refused as an invalid transition rather than applied to a status the caller never saw.
 * Changing nothing is not a change (same version). Throws NotFoundError, PreconditionFailedError (If-Match),
 * InvalidTransitionError or ValidationError; nothing is stored then.
 */
export class UpdatePet {
  constructor(private readonly pets: PetRepository) {}

  async execute({ petId, patch, ifMatch }: UpdatePetInput): Promise<Pet> {
    const checked = parsePetPatch(patch);
    const id = parsePetId(petId);
    let firstStatus: PetStatus | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = id === null ? null : await this.pets.findById(id);
      if (!current) throw new NotFoundError(`No pet with id ${String(petId)}.`);
      if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(current.version)) throw new PreconditionFailedError(current);
      firstStatus ??= current.status;
      const next: PetDraft = { name: current.name, categoryId: current.categoryId, status: current.status, ...checked };
      checkTransition(current.status, next.status, firstStatus);
      if (next.name === current.name && next.categoryId === current.categoryId && next.status === current.status) return current;
      const updated = await this.pets.update(current.id, current.version, next);
      if (updated) return updated;
    }
    throw new ServiceUnavailableError('database', 1, { cause: new Error(`pet ${String(petId)} changed ${ATTEMPTS} times while being updated`) });
  }
}

function checkTransition(current: PetStatus, requested: PetStatus, shown: PetStatus): void {
  if (requested === current) return;
  if (current !== shown) {
    throw new InvalidTransitionError(
      current,
      requested,
      PET_TRANSITIONS[current],
      `Another change moved this animal from ${shown} to ${current} first`,
    );
  }
  if (!isAllowedTransition(current, requested)) throw new InvalidTransitionError(current, requested, PET_TRANSITIONS[current]);
}
