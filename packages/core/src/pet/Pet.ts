import type { PetStatus } from './PetStatus.js';

/** An animal as the service returns it. `id` is assigned by the service and is a safe integer (int64 range up to 2^53-1). */
export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
  /** 1 when created, one more with each change: what an entity tag and a conditional change are made of. */
  version: number;
}

/** What a client sends to add an animal. */
export interface NewPet {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** A validated NewPet with its default applied: what a repository stores. */
export type PetDraft = Omit<Pet, 'id' | 'version'>;

/** A change to an animal (RFC 7396 JSON Merge Patch of its fields): only the fields given change. */
export type PetPatch = Partial<PetDraft>;

/** Largest id and categoryId: JSON numbers beyond it lose precision in JavaScript clients. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
