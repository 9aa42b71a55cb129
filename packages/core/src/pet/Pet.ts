import type { PetStatus } from './PetStatus.js';

/** An animal as the service returns it. `id` is assigned by the service and is a safe integer (int64 range up to 2^53-1). */
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
}

/** What a client sends to add an animal. */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** A validated NewPet with its default applied: what a repository stores. */
export type PetDraft = Omit<Pet, 'id'>;

/** Largest id and categoryId: JSON numbers beyond it lose precision in JavaScript clients. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
