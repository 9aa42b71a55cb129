import { eventsOfUpdate } from '../events/PetEvent.js';
import { InvalidTransitionError } from '../errors/InvalidTransitionError.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { PreconditionFailedError } from '../errors/PreconditionFailedError.js';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError.js';
import type { Pet, PetDraft, PetPatch } from '../pet/Pet.js';
import { parsePetId } from '../pet/parsePetId.js';
import { differentPetFields, petFieldsOf } from '../pet/petFields.js';
import { checkedPetPatch } from '../pet/parseNewPet.js';
import { isAllowedTransition, PET_TRANSITIONS } from '../pet/PetTransitions.js';
import type { PetStatus } from '../pet/PetStatus.js';
import type { Clock } from '../ports/Clock.js';
import type { PetRepository } from '../ports/PetRepository.js';

export interface UpdatePetInput {
  /** As a number, or as the decimal text a transport received. */
  petId: number | string;
  /** Checked here unless `parsePetPatch` made it (a transport's parse is not repeated). */
  patch: PetPatch;
  /** The versions the caller allows the change from (If-Match), or `*` for any; absent: whatever the pet is now. */
  ifMatch?: '*' | readonly number[];
  /** The versions the caller refuses the change from (If-None-Match), or `*` for any (an existing pet is always refused). */
  ifNoneMatch?: '*' | readonly number[];
  /** When the request arrived (the transport's reading of the clock); default: when `execute` is called. */
  receivedAt?: Date;
}

/** How many times a change is tried again after another change to the same pet came first. */
const ATTEMPTS = 20;

/**
 * Changes an animal's name, category or status (any of them), by the same rules as a new animal's; a status may
 * only move as the transition rules allow. The change applies to the pet as it is when it is written: it is
 * validated against the stored version and written only if that version is still current, else read again and
 * re-validated. A status change is judged against the status as it was when the request arrived: if another change
 * moved the status after that (while this request was in flight, whether before or after this one first read it),
 * it is refused as an invalid transition rather than applied to a status the caller never saw. Changing nothing is not a change (same version). Throws
 * NotFoundError, PreconditionFailedError (If-Match, If-None-Match), InvalidTransitionError or ValidationError; nothing is stored then.
 */
export class UpdatePet {
  constructor(
    private readonly pets: PetRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ petId, patch, ifMatch, ifNoneMatch, receivedAt = this.clock.now() }: UpdatePetInput): Promise<Pet> {
    const checked = checkedPetPatch(patch);
    const id = parsePetId(petId);
    let refused: Pet | undefined;
    let firstSeen: PetStatus | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = id === null ? null : await this.pets.findById(id);
      if (!current) throw new NotFoundError(`No pet with id ${String(petId)}.`);
      if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(current.version)) throw new PreconditionFailedError(current);
      if (ifNoneMatch !== undefined && (ifNoneMatch === '*' || ifNoneMatch.includes(current.version))) throw new PreconditionFailedError(current);
      const next = { ...petFieldsOf(current), ...checked } as PetDraft;
      firstSeen ??= current.status;
      // Refused at this very version (what refused it was the status, changed after this request arrived), or the
      // status moved since this request first read it: either way another change of the status overtook this one.
      if (next.status !== current.status && (refused?.version === current.version || current.status !== firstSeen)) {
        throw overtaken(current.status, next.status);
      }
      if (!isAllowedTransition(current.status, next.status))
        throw new InvalidTransitionError(current.status, next.status, PET_TRANSITIONS[current.status]);
      if (differentPetFields(next, current).length === 0) return current;
      const timing = { at: this.clock.now().getTime(), requestedAt: receivedAt.getTime() };
      const updated = await this.pets.update(current.id, current.version, next, timing, eventsOfUpdate(current));
      if (updated) return updated;
      refused = current;
    }
    throw new ServiceUnavailableError('database', 1, { cause: new Error(`pet ${String(petId)} changed ${ATTEMPTS} times while being updated`) });
  }
}

function overtaken(current: PetStatus, requested: PetStatus): InvalidTransitionError {
  return new InvalidTransitionError(
    current,
    requested,
    PET_TRANSITIONS[current],
    `Another change set this animal's status to ${current} while this request was in flight`,
  );
}
