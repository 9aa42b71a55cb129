import { describe, expect, it } from '@jest/globals';
import { aPetDraft } from '../testing/builders.js';
import { generateEventId, isEventId } from './eventId.js';
import { eventsOfCreate, eventsOfUpdate, payloadOf, petEventOf, previousValues, recordedEventOf } from './PetEvent.js';

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

  it('are decided by the domain: pet.created for a new pet, pet.updated with the fields a changed pet had before', () => {
    expect(eventsOfCreate()).toEqual([{ type: 'pet.created', before: null }]);
    const before = { ...rex, status: 'available' as const, version: 1 };
    expect(eventsOfUpdate(before)).toEqual([{ type: 'pet.updated', before: { name: 'Rex', categoryId: 2, status: 'available' } }]);
  });

  it('are recorded with an id of their date and a copy of the pet as the change left it', () => {
    const [created] = eventsOfCreate().map((event) => recordedEventOf(event, rex, at));
    expect(created).toEqual({ id: expect.stringMatching(/^evt_[0-9a-f]{28}$/), type: 'pet.created', at, pet: rex, before: null });
    expect(created!.pet).not.toBe(rex);
    expect(created!.id.slice(4, 16)).toBe(at.getTime().toString(16).padStart(12, '0'));
    const [updated] = eventsOfUpdate({ ...rex, status: 'available' }).map((event) => recordedEventOf(event, rex, at));
    expect(updated).toEqual({
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
