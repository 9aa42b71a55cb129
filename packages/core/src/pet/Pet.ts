import type { NewPetFieldValues, PetFieldValues } from './petFields.js';

/**
 * An animal as the service returns it: its id, its fields (PET_FIELDS: `name`, `categoryId`, `status`) and its
 * version. `id` is assigned by the service and is a safe integer (int64 range up to 2^53-1); `version` is 1 when
 * created, one more with each change: what an entity tag and a conditional change are made of.
 */
export type Pet = { id: number } & PetFieldValues & { version: number };

/** What a client sends to add an animal: its fields, those with a default (`status`) optional. */
export type NewPet = NewPetFieldValues;

/** A validated NewPet with its default applied: what a repository stores. */
export type PetDraft = PetFieldValues;

/** A change to an animal (RFC 7396 JSON Merge Patch of its fields): only the fields given change. */
export type PetPatch = Partial<PetDraft>;

/** Largest id and categoryId: JSON numbers beyond it lose precision in JavaScript clients. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
