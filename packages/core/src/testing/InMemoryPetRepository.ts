import type { Pet, PetDraft } from '../pet/Pet.js';
import type { ChangeTiming, PetListRequest, PetPage, PetRepository } from '../ports/PetRepository.js';

/** Every change is made and visible in one synchronous step: a read that starts after it always sees it. */
export class InMemoryPetRepository implements PetRepository {
  private readonly pets: Pet[] = [];
  /** When each pet's status last changed (epoch ms; 0: never since it was created). */
  private readonly statusChangedAt = new Map<number, number>();
  private lastId = 0;

  create(draft: PetDraft): Promise<Pet> {
    const pet: Pet = { id: ++this.lastId, name: draft.name, categoryId: draft.categoryId, status: draft.status, version: 1 };
    this.pets.push(pet);
    return Promise.resolve({ ...pet });
  }

  findById(id: number): Promise<Pet | null> {
    const pet = this.pets.find((p) => p.id === id);
    return Promise.resolve(pet ? { ...pet } : null);
  }

  list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    const matching = this.pets.filter((p) => p.id > after && (status === undefined || p.status === status)).slice(0, limit + 1);
    const pets = matching.slice(0, limit).map((p) => ({ ...p }));
    return Promise.resolve(matching.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets });
  }

  update(id: number, expectedVersion: number, next: PetDraft, { at, requestedAt }: ChangeTiming): Promise<Pet | null> {
    const index = this.pets.findIndex((p) => p.id === id && p.version === expectedVersion);
    const current = this.pets[index];
    if (!current) return Promise.resolve(null);
    const statusChanges = next.status !== current.status;
    if (statusChanges && (this.statusChangedAt.get(id) ?? 0) > requestedAt) return Promise.resolve(null);
    if (statusChanges) this.statusChangedAt.set(id, at);
    const pet: Pet = { id, name: next.name, categoryId: next.categoryId, status: next.status, version: expectedVersion + 1 };
    this.pets[index] = pet;
    return Promise.resolve({ ...pet });
  }

  /** How many pets are stored, for tests that check a rejected request stored nothing. */
  count(): number {
    return this.pets.length;
  }
}
