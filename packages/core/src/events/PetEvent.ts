import type { Pet, PetDraft, PetPatch } from '../pet/Pet.js';
import { generateEventId } from './eventId.js';

export const PET_EVENT_TYPES = ['pet.created', 'pet.updated'] as const;
export type PetEventType = (typeof PET_EVENT_TYPES)[number];

export function isPetEventType(value: unknown): value is PetEventType {
  return (PET_EVENT_TYPES as readonly unknown[]).includes(value);
}

/**
 * A change to an animal, recorded in the same transaction as the change itself: `pet.created` when it was added,
 * `pet.updated` when a change was made to it (`previous` holds the values before it of the fields it changed).
 */
export interface PetEvent {
  /** `evt_` and 28 hex digits (see generateEventId). */
  id: string;
  type: PetEventType;
  at: Date;
  /** The pet as the change left it. */
  pet: Pet;
  /** For `pet.updated`: the fields the change changed, with their values before it. */
  previous?: PetPatch;
}

/** An event as a repository stores it: the pet after the change and, for an update, its fields before. */
export interface RecordedPetEvent {
  id: string;
  type: PetEventType;
  at: Date;
  pet: Pet;
  before: PetDraft | null;
}

/** The event a repository records with a pet it created. */
export function petCreatedEvent(pet: Pet, at: Date): RecordedPetEvent {
  return { id: generateEventId(at), type: 'pet.created', at, pet: { ...pet }, before: null };
}

/** The event a repository records with a change to a pet: its fields before the change, the pet as the change left it. */
export function petUpdatedEvent({ name, categoryId, status }: PetDraft, pet: Pet, at: Date): RecordedPetEvent {
  return { id: generateEventId(at), type: 'pet.updated', at, pet: { ...pet }, before: { name, categoryId, status } };
}

/** The fields of `before` whose values `after` changed, with their values in `before`. */
export function previousValues(before: PetDraft, after: PetDraft): PetPatch {
  const previous: PetPatch = {};
  if (before.name !== after.name) previous.name = before.name;
  if (before.categoryId !== after.categoryId) previous.categoryId = before.categoryId;
  if (before.status !== after.status) previous.status = before.status;
  return previous;
}

export function petEventOf({ before, ...event }: RecordedPetEvent): PetEvent {
  return before ? { ...event, previous: previousValues(before, event.pet) } : event;
}

/** The event's payload as a webhook carries it (Standard Webhooks: `type`, `timestamp`, `data`). */
export interface PetEventPayload {
  type: PetEventType;
  /** ISO 8601, milliseconds, UTC. */
  timestamp: string;
  /** The pet as the change left it; for `pet.updated` also `previous`. */
  data: Pet & { previous?: PetPatch };
}

export function payloadOf(event: PetEvent): PetEventPayload {
  return {
    type: event.type,
    timestamp: event.at.toISOString(),
    data: event.previous ? { ...event.pet, previous: event.previous } : { ...event.pet },
  };
}
