import type { Pet, PetDraft, PetPatch } from '../pet/Pet.js';
import { differentPetFields, petFieldsOf } from '../pet/petFields.js';
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

/**
 * An event as the domain decides a change produces it, and as a PetRepository is given it with the change: what
 * happened and, for an update, the pet's fields before. The repository stores it in the change's transaction with
 * the pet as the change left it, dated as the change is written (PetRepository).
 */
export interface PetChangeEvent {
  type: PetEventType;
  before: PetDraft | null;
}

const CREATED: readonly PetChangeEvent[] = Object.freeze([Object.freeze({ type: 'pet.created', before: null })]);

/** The events of adding a pet: `pet.created`. */
export function eventsOfCreate(): readonly PetChangeEvent[] {
  return CREATED;
}

/** The events of a change to a pet that was `before` (as stored): `pet.updated`, with the fields it had then. */
export function eventsOfUpdate(before: PetDraft): readonly PetChangeEvent[] {
  return [{ type: 'pet.updated', before: petFieldsOf(before) as PetDraft }];
}

/** A change's event as recorded: with its id, its date and the pet as the change left it (a copy). */
export function recordedEventOf({ type, before }: PetChangeEvent, pet: Pet, at: Date): RecordedPetEvent {
  return { id: generateEventId(at), type, at, pet: { ...pet }, before: before && { ...before } };
}

/** The fields of `before` whose values `after` changed, with their values in `before`. */
export function previousValues(before: PetDraft, after: PetDraft): PetPatch {
  const previous: Record<string, unknown> = {};
  for (const name of differentPetFields(before, after)) if (before[name] !== undefined) previous[name] = before[name];
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
