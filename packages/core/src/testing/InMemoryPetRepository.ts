import type { Pet, PetDraft } from '../pet/Pet.js';
import type { PetListRequest, PetPage, PetRepository } from '../ports/PetRepository.js';

export class InMemoryPetRepository implements PetRepository {
  /** Ids are assigned and made visible in the same synchronous step. */
  readonly pagesWithSuccessorNeverChange = true;
  private readonly pets: Pet[] = [];
  private lastId = 0;

  create(draft: PetDraft): Promise<Pet> {
    const pet: Pet = { id: ++this.lastId, name: draft.name, categoryId: draft.categoryId, status: draft.status };
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

  /** How many pets are stored, for tests that check a rejected request stored nothing. */
  count(): number {
    return this.pets.length;
  }
}
