import { describe, expect, it } from '@jest/globals';
import { aPetDraft } from '../testing/builders.js';
import { generateEventId, isEventId } from './eventId.js';
import { payloadOf, petCreatedEvent, petEventOf, petUpdatedEvent, previousValues } from './PetEvent.js';

describe('pet events', () => {
  const rex = { id: 7, name: 'Rex', categoryId: 2, status: 'pending' as const, version: 2 };
  const at = new Date('2026-06-01T12:00:00.123Z');

  it('keep, of an update, the previous values of the fields it changed only', () => {
    expect(previousValues(aPetDraft({ name: 'Rex', categoryId: 2, status: 'available' }), rex)).toEqual({ status: 'available' });
    expect(previousValues(aPetDraft({ name: 'Max', categoryId: 1, status: 'pending' }), rex)).toEqual({ name: 'Max', categoryId: 1 });
    expect(previousValues(rex, rex)).toEqual({});
  });

  it('carry the pet as data, and for an update its previous values, with an ISO 8601 timestamp', () => {
    const created = petEventOf({ id: 'evt_1', type: 'pet.created', at, pet: rex, before: null });
    expect(payloadOf(created)).toEqual({ type: 'pet.created', timestamp: '2026-06-01T12:00:00.123Z', data: rex });
    const updated = petEventOf({ id: 'evt_2', type: 'pet.updated', at, pet: rex, before: { ...rex, status: 'available' } });
    expect(updated.previous).toEqual({ status: 'available' });
    expect(payloadOf(updated)).toEqual({
      type: 'pet.updated',
      timestamp: '2026-06-01T12:00:00.123Z',
      data: { ...rex, previous: { status: 'available' } },
    });
  });

  it('are recorded as a copy of the pet, an update with the fields it had before (never its id or version)', () => {
    const created = petCreatedEvent(rex, at);
    expect(created).toEqual({ id: expect.stringMatching(/^evt_[0-9a-f]{28}$/), type: 'pet.created', at, pet: rex, before: null });
    expect(created.pet).not.toBe(rex);
    const before = { ...rex, status: 'available' as const, version: 1 };
    expect(petUpdatedEvent(before, rex, at)).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{28}$/),
      type: 'pet.updated',
      at,
      pet: rex,
      before: { name: 'Rex', categoryId: 2, status: 'available' },
    });
  });

  it('have ids that sort by their instant', () => {
    const ids = [generateEventId(at), generateEventId(new Date(at.getTime() + 1)), generateEventId(new Date(at.getTime() + 1000))];
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every(isEventId)).toBe(true);
    expect(isEventId('evt_xyz')).toBe(false);
  });
});
