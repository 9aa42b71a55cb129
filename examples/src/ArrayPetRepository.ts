// An adapter of your own: a PetRepository over a plain array. Whatever it stores in, an adapter passes the port's
// contract suite (ArrayPetRepository.spec.ts), the same one every adapter of the project passes.
import {
  petEventOf,
  recordedEventOf,
  type ChangeTiming,
  type EventListRequest,
  type EventLog,
  type Pet,
  type PetChangeEvent,
  type PetDraft,
  type PetEvent,
  type PetListRequest,
  type PetPage,
  type PetRepository,
  type RecordedPetEvent,
} from '@petstore/core';

export class ArrayPetRepository implements PetRepository, EventLog {
  // Every change is visible at once, to every read that starts after it: the port's promise (the contract checks it).
  private readonly pets: Pet[] = [];
  private readonly statusChangedAt = new Map<number, number>();
  // Each change records the events the domain gave it in the same step (in a database: the same transaction).
  private readonly events: RecordedPetEvent[] = [];

  async create(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet> {
    const pet = { id: this.pets.length + 1, ...draft, version: 1 };
    this.pets.push(pet);
    for (const event of events) this.events.push(recordedEventOf(event, pet, new Date()));
    return { ...pet };
  }

  // A compare-and-set on the version (and, for a status change, on when the status last changed), dated as it is
  // written (here, at once; in a database, once it holds the lock), never before `timing.at`.
  async update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | null> {
    const index = this.pets.findIndex((pet) => pet.id === id && pet.version === expectedVersion);
    const current = this.pets[index];
    if (!current) return null;
    const at = Math.max(timing.at, Date.now());
    if (next.status !== current.status) {
      if ((this.statusChangedAt.get(id) ?? 0) > timing.requestedAt) return null;
      this.statusChangedAt.set(id, at);
    }
    const pet = { id, ...next, version: expectedVersion + 1 };
    this.pets[index] = pet;
    for (const event of events) this.events.push(recordedEventOf(event, pet, new Date(at)));
    return { ...pet };
  }

  async findById(id: number): Promise<Pet | null> {
    const pet = this.pets.find((candidate) => candidate.id === id);
    return pet ? { ...pet } : null;
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    const matching = this.pets.filter((pet) => pet.id > after && (status === undefined || pet.status === status));
    const pets = matching.slice(0, limit).map((pet) => ({ ...pet }));
    return matching.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
  }

  // Newest first, by date then id.
  async listEvents({ before, limit }: EventListRequest): Promise<PetEvent[]> {
    const key = (event: { at: Date; id: string }) => `${event.at.getTime().toString().padStart(15, '0')}${event.id}`;
    const older = this.events.filter((event) => !before || key(event) < key(before));
    return older
      .sort((a, b) => (key(a) < key(b) ? 1 : -1))
      .slice(0, limit)
      .map(petEventOf);
  }

  async findEvents(ids: readonly string[]): Promise<PetEvent[]> {
    return this.events.filter((event) => ids.includes(event.id)).map(petEventOf);
  }
}
