import { beforeEach, describe, expect, it } from '@jest/globals';
import type { Pet, PetDraft } from '../pet/Pet.js';
import { FakeClock } from '../testing/FakeClock.js';
import { aPetDraft } from '../testing/builders.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { UpdatePet } from './UpdatePet.js';
import { eventsOfCreate, eventsOfUpdate } from '../events/PetEvent.js';

/** The in-memory repository, with a hook that runs just before an update is written (another writer's change). */
class RacedRepository extends InMemoryPetRepository {
  beforeUpdate: (() => Promise<void>) | undefined;
  updates = 0;

  override async update(...args: Parameters<InMemoryPetRepository['update']>): Promise<Pet | null> {
    this.updates++;
    const race = this.beforeUpdate;
    this.beforeUpdate = undefined;
    await race?.();
    return super.update(...args);
  }
}

describe('UpdatePet', () => {
  let pets: RacedRepository;
  let clock: FakeClock;
  let updatePet: UpdatePet;
  let rex: Pet;
  /** Another request's change, made now (a millisecond after anything before it). */
  const meanwhile = async (id: number, version: number, next: PetDraft) => {
    clock.advance(1);
    const now = clock.now().getTime();
    return pets.update(id, version, next, { at: now, requestedAt: now }, eventsOfUpdate((await pets.findById(id)) ?? next));
  };

  beforeEach(async () => {
    clock = new FakeClock('2026-06-01T12:00:00Z');
    pets = new RacedRepository(clock);
    updatePet = new UpdatePet(pets, clock);
    rex = await pets.create(aPetDraft({ name: 'Rex', categoryId: 1, status: 'available' }), eventsOfCreate());
  });

  it('changes the fields given, keeps the others and counts one more version', async () => {
    const changed = await updatePet.execute({ petId: String(rex.id), patch: { name: 'Rex II' } });
    expect(changed).toEqual({ ...rex, name: 'Rex II', version: 2 });
    expect(await pets.findById(rex.id)).toEqual(changed);
  });

  it.each([
    ['available', 'pending'],
    ['available', 'sold'],
    ['pending', 'available'],
    ['pending', 'sold'],
  ] as const)('moves %s to %s', async (from, to) => {
    const pet = await pets.create(aPetDraft({ status: from }), eventsOfCreate());
    expect(await updatePet.execute({ petId: pet.id, patch: { status: to } })).toMatchObject({ status: to, version: 2 });
  });

  it.each(['available', 'pending'] as const)('refuses sold -> %s with invalid_transition naming the current status, changing nothing', async (to) => {
    const sold = await pets.create(aPetDraft({ status: 'sold' }), eventsOfCreate());
    await expect(updatePet.execute({ petId: sold.id, patch: { status: to, name: 'Other' } })).rejects.toMatchObject({
      code: 'invalid_transition',
      current: 'sold',
      allowed: [],
      message: expect.stringContaining('its status is sold; sold is final'),
    });
    expect(await pets.findById(sold.id)).toEqual(sold);
  });

  it('names the allowed next statuses in a refusal', async () => {
    const sold = await pets.create(aPetDraft({ status: 'sold' }), eventsOfCreate());
    await updatePet.execute({ petId: rex.id, patch: { status: 'pending' } });
    await expect(updatePet.execute({ petId: sold.id, patch: { status: 'pending' } })).rejects.toMatchObject({ code: 'invalid_transition' });
    const error = await updatePet.execute({ petId: sold.id, patch: { status: 'available' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ current: 'sold', requested: 'available' });
  });

  it('changes nothing, same version, when the status (or every field) is set to what it is', async () => {
    const sold = await pets.create(aPetDraft({ status: 'sold' }), eventsOfCreate());
    expect(await updatePet.execute({ petId: sold.id, patch: { status: 'sold' } })).toEqual(sold);
    expect(await updatePet.execute({ petId: rex.id, patch: { name: 'Rex', categoryId: 1 } })).toEqual(rex);
    expect(await updatePet.execute({ petId: rex.id, patch: {} })).toEqual(rex);
    expect(pets.updates).toBe(0);
  });

  it('answers not_found for an unknown pet and validation_error for a bad id or patch', async () => {
    await expect(updatePet.execute({ petId: '999', patch: { status: 'sold' } })).rejects.toMatchObject({ code: 'not_found' });
    await expect(updatePet.execute({ petId: 'abc', patch: { status: 'sold' } })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(updatePet.execute({ petId: rex.id, patch: { name: '' } })).rejects.toMatchObject({ code: 'validation_error' });
    expect(await pets.findById(rex.id)).toEqual(rex);
  });

  it('honours If-Match: a listed version or * changes the pet, another is precondition_failed with the current pet', async () => {
    await expect(updatePet.execute({ petId: rex.id, patch: { name: 'A' }, ifMatch: [7, 9] })).rejects.toMatchObject({
      code: 'precondition_failed',
      current: rex,
    });
    expect(await updatePet.execute({ petId: rex.id, patch: { name: 'A' }, ifMatch: [9, 1] })).toMatchObject({ name: 'A', version: 2 });
    expect(await updatePet.execute({ petId: rex.id, patch: { name: 'B' }, ifMatch: '*' })).toMatchObject({ name: 'B', version: 3 });
    await expect(updatePet.execute({ petId: 999, patch: { name: 'B' }, ifMatch: '*' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('honours If-None-Match: * or the current version is precondition_failed, another version changes the pet', async () => {
    for (const ifNoneMatch of ['*', [rex.version]] as const) {
      await expect(updatePet.execute({ petId: rex.id, patch: { name: 'A' }, ifNoneMatch })).rejects.toMatchObject({
        code: 'precondition_failed',
        current: rex,
      });
    }
    expect(await pets.findById(rex.id)).toEqual(rex);
    expect(await updatePet.execute({ petId: rex.id, patch: { name: 'A' }, ifNoneMatch: [9] })).toMatchObject({ name: 'A', version: 2 });
  });

  it('with If-Match, a change that lands between the read and the write is precondition_failed', async () => {
    pets.beforeUpdate = async () => void (await meanwhile(rex.id, 1, { ...aPetDraft(), name: 'Meanwhile' }));
    await expect(updatePet.execute({ petId: rex.id, patch: { categoryId: 5 }, ifMatch: [1] })).rejects.toMatchObject({
      code: 'precondition_failed',
      current: { name: 'Meanwhile', version: 2 },
    });
  });

  it('without If-Match, applies a change of other fields after a concurrent one: both land', async () => {
    pets.beforeUpdate = async () => void (await meanwhile(rex.id, 1, { ...aPetDraft(), name: 'Meanwhile' }));
    expect(await updatePet.execute({ petId: rex.id, patch: { categoryId: 5 } })).toEqual({ ...rex, name: 'Meanwhile', categoryId: 5, version: 3 });
  });

  it('refuses a status change when another change moved the status first, even to a status it could reach', async () => {
    const pending = await pets.create(aPetDraft({ status: 'pending' }), eventsOfCreate());
    pets.beforeUpdate = async () => void (await meanwhile(pending.id, 1, { ...aPetDraft(), status: 'available' }));
    await expect(updatePet.execute({ petId: pending.id, patch: { status: 'sold' } })).rejects.toMatchObject({
      code: 'invalid_transition',
      current: 'available',
      message: expect.stringContaining("Another change set this animal's status to available while this request was in flight"),
    });
    expect(await pets.findById(pending.id)).toMatchObject({ status: 'available', version: 2 });
  });

  it('refuses a status change that arrived before another change of the status was made, even one read after it', async () => {
    const pending = await pets.create(aPetDraft({ status: 'pending' }), eventsOfCreate());
    const receivedAt = clock.now();
    await meanwhile(pending.id, 1, { ...aPetDraft(), status: 'available' });
    await expect(updatePet.execute({ petId: pending.id, patch: { status: 'sold' }, receivedAt })).rejects.toMatchObject({
      code: 'invalid_transition',
      current: 'available',
    });
    // A change of other fields is not judged by when the status changed; a request that arrives later may change it.
    expect(await updatePet.execute({ petId: pending.id, patch: { name: 'Mia' }, receivedAt })).toMatchObject({ name: 'Mia', version: 3 });
    expect(await updatePet.execute({ petId: pending.id, patch: { status: 'sold' } })).toMatchObject({ status: 'sold', version: 4 });
  });

  it('of pending -> sold and pending -> available sent together, exactly one wins', async () => {
    for (let round = 0; round < 20; round++) {
      const pending = await pets.create(aPetDraft({ status: 'pending' }), eventsOfCreate());
      // Either may be written first.
      const [first, second] = round % 2 ? (['sold', 'available'] as const) : (['available', 'sold'] as const);
      const results = await Promise.allSettled([
        updatePet.execute({ petId: pending.id, patch: { status: first } }),
        updatePet.execute({ petId: pending.id, patch: { status: second } }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'invalid_transition' } });
    }
  });
});
