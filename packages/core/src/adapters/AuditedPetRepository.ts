import { auditedPetFields, changesBetween, type AuditActor, type PetAuditAction } from '../access/AuditEvent.js';
import { generateEventId } from '../events/eventId.js';
import type { PetChangeEvent } from '../events/PetEvent.js';
import type { Pet, PetDraft } from '../pet/Pet.js';
import type { AuditLog } from '../ports/AuditLog.js';
import type { Clock } from '../ports/Clock.js';
import type { ChangeTiming, PetListRequest, PetPage, PetRepository } from '../ports/PetRepository.js';

/**
 * A PetRepository whose changes are each appended to the audit log, as made by `actor`, once committed: `pet.created`
 * with the new animal's fields, `pet.updated` with the fields the change changed (before and after). The admin API's
 * animal operations write through it; changes made with an API key are recorded in the event log only. The audit
 * event is appended after the change commits: should that append fail, the change stands and the caller gets the
 * error. An update's fields before are those its `pet.updated` event carries (`eventsOfUpdate(before)`, the pet at
 * `expectedVersion`); given no such event, it is audited with every field's value after and none before.
 */
export class AuditedPetRepository implements PetRepository {
  constructor(
    private readonly pets: PetRepository,
    private readonly log: AuditLog,
    private readonly actor: AuditActor,
    private readonly clock: Clock,
  ) {}

  findById(id: number): Promise<Pet | null> {
    return this.pets.findById(id);
  }

  list(request: PetListRequest): Promise<PetPage> {
    return this.pets.list(request);
  }

  async create(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet> {
    const pet = await this.pets.create(draft, events);
    await this.record(this.clock.now(), 'pet.created', null, pet);
    return pet;
  }

  async update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | null> {
    const updated = await this.pets.update(id, expectedVersion, next, timing, events);
    if (updated) await this.record(new Date(timing.at), 'pet.updated', events.find((event) => event.before)?.before ?? null, updated);
    return updated;
  }

  private record(at: Date, action: PetAuditAction, before: PetDraft | null, after: Pet): Promise<void> {
    const changes = changesBetween(before ? auditedPetFields(before) : {}, auditedPetFields(after));
    return this.log.append({ id: generateEventId(at), at, actor: this.actor, action, petId: after.id, changes });
  }
}
