// An adapter of your own: a PetRepository over a plain array. Whatever it stores in, an adapter passes the port's
// contract suite (ArrayPetRepository.spec.ts), the same one every adapter of the project passes.
import type { Pet, PetDraft, PetListRequest, PetPage, PetRepository } from '@petstore/core';

export class ArrayPetRepository implements PetRepository {
  // Ids are assigned in order and visible at once: a page that has a successor never changes (the contract checks it).
  readonly pagesWithSuccessorNeverChange = true;
  private readonly pets: Pet[] = [];

  async create(draft: PetDraft): Promise<Pet> {
    const pet = { id: this.pets.length + 1, ...draft };
    this.pets.push(pet);
    return pet;
  }

  async findById(id: number): Promise<Pet | null> {
    return this.pets.find((pet) => pet.id === id) ?? null;
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    const matching = this.pets.filter((pet) => pet.id > after && (status === undefined || pet.status === status));
    const pets = matching.slice(0, limit);
    return matching.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
  }
}
