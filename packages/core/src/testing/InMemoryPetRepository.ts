import { SystemClock } from '../adapters/SystemClock.js';
import { petEventOf, recordedEventOf, type PetChangeEvent, type PetEvent, type RecordedPetEvent } from '../events/PetEvent.js';
import type { Pet, PetDraft } from '../pet/Pet.js';
import { petFieldsOf } from '../pet/petFields.js';
import type { Clock } from '../ports/Clock.js';
import type { EventListRequest, EventLog } from '../ports/EventLog.js';
import type { ChangeTiming, PetListRequest, PetPage, PetRepository } from '../ports/PetRepository.js';

const newestFirst = (a: RecordedPetEvent, b: RecordedPetEvent) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Every change is made and visible in one synchronous step, with its event: a read that starts after it always sees
 * both. Also the EventLog of those events; creates are dated by `clock`.
 */
export class InMemoryPetRepository implements PetRepository, EventLog {
  private readonly pets: Pet[] = [];
  private events: RecordedPetEvent[] = [];
  /** When each pet's status last changed (epoch ms; 0: never since it was created). */
  private readonly statusChangedAt = new Map<number, number>();
  private lastId = 0;

  constructor(private readonly clock: Clock = new SystemClock()) {}

  create(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet> {
    const pet: Pet = { id: ++this.lastId, ...petFieldsOf(draft), version: 1 } as Pet;
    this.pets.push(pet);
    const at = this.clock.now();
    for (const event of events) this.events.push(recordedEventOf(event, pet, at));
    return Promise.resolve({ ...pet });
  }

  findById(id: number): Promise<Pet | null> {
    const pet = this.pets.find((p) => p.id === id);
    return Promise.resolve(pet ? { ...pet } : null);
  }

  list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    const matching = this.pets.filter((p) => p.id > after && (status === undefined || p.status === status)).slice(0, limit + 1);
    const pets = matching.slice(0, limit).map((p) => ({ ...p }));
    const page: PetPage = matching.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
    return Promise.resolve(page);
  }

  update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | null> {
    const index = this.pets.findIndex((p) => p.id === id && p.version === expectedVersion);
    const current = this.pets[index];
    if (!current) return Promise.resolve(null);
    const { requestedAt } = timing;
    const at = Math.max(timing.at, this.clock.now().getTime());
    const statusChanges = next.status !== current.status;
    if (statusChanges && (this.statusChangedAt.get(id) ?? 0) > requestedAt) return Promise.resolve(null);
    if (statusChanges) this.statusChangedAt.set(id, at);
    const pet: Pet = { id, ...petFieldsOf(next), version: expectedVersion + 1 } as Pet;
    this.pets[index] = pet;
    for (const event of events) this.events.push(recordedEventOf(event, pet, new Date(at)));
    return Promise.resolve({ ...pet });
  }

  listEvents({ before, limit }: EventListRequest): Promise<PetEvent[]> {
    const older = (e: RecordedPetEvent) => !before || e.at < before.at || (e.at.getTime() === before.at.getTime() && e.id < before.id);
    return Promise.resolve([...this.events].sort(newestFirst).filter(older).slice(0, limit).map(petEventOf));
  }

  findEvents(ids: readonly string[]): Promise<PetEvent[]> {
    return Promise.resolve(this.events.filter((e) => ids.includes(e.id)).map(petEventOf));
  }

  /** Deletes these events (InMemoryWebhookStore's purge, which knows which of them are still owed). */
  forgetEvents(ids: ReadonlySet<string>): void {
    this.events = this.events.filter((e) => !ids.has(e.id));
  }

  /** How many pets are stored, for tests that check a rejected request stored nothing. */
  count(): number {
    return this.pets.length;
  }
}
