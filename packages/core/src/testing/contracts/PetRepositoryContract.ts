import { beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate, eventsOfUpdate } from '../../events/PetEvent.js';
import { MAX_ID, type Pet, type PetDraft } from '../../pet/Pet.js';
import type { EventLog } from '../../ports/EventLog.js';
import type { ChangeTiming, PetPage, PetRepository } from '../../ports/PetRepository.js';
import { openHarness, type Closable } from './harness.js';
import { aPetDraft } from '../builders.js';

/** A repository and the EventLog of the events its changes record. */
export type PetRepositoryHarness = { repository: PetRepository; events: EventLog } & Closable;

/** Runs the behaviour every PetRepository (and its EventLog) must have against `open()`, which returns an empty repository. */
export function describePetRepositoryContract(name: string, open: () => Promise<PetRepositoryHarness>): void {
  describe(`${name} satisfies the PetRepository contract`, () => {
    const harness = openHarness(open, 'each');
    let repository: PetRepository;
    let events: EventLog;
    beforeEach(() => {
      ({ repository, events } = harness());
    });

    // Instants of changes and requests (the machine's clock, which a database may read as it writes), each later
    // than the last: a request that arrives after every change before it.
    let instant = 0;
    const tick = () => {
      instant = Math.max(instant + 1, Date.now());
      return { at: instant, requestedAt: instant };
    };
    const afterNow = async () => {
      const now = Date.now();
      while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
    };

    /** A change as UpdatePet makes it: with the events the domain decides for a change to the pet as stored. */
    const change = async (id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming) =>
      repository.update(id, expectedVersion, next, timing, eventsOfUpdate((await repository.findById(id)) ?? next));

    /** A page as the tests compare it. */
    const shown = ({ pets, next }: PetPage): PetPage => (next === undefined ? { pets } : { pets, next });

    async function readAll(from: PetRepository, status?: Pet['status']): Promise<Pet[]> {
      let all: Pet[] = [];
      let after: number | undefined;
      do {
        const page = await from.list({ limit: 5, ...(status !== undefined && { status }), ...(after !== undefined && { after }) });
        all = all.concat(page.pets);
        after = page.next;
      } while (after !== undefined);
      return all;
    }

    async function createMany(count: number, status: (i: number) => Pet['status'] = () => 'available'): Promise<Pet[]> {
      const pets: Pet[] = [];
      for (let i = 0; i < count; i++) pets.push(await repository.create(aPetDraft({ name: `pet ${i}`, status: status(i) }), eventsOfCreate()));
      return pets;
    }

    it('creates a pet with a service-assigned id and finds it again', async () => {
      const created = await repository.create(aPetDraft({ name: 'Rex', categoryId: 7, status: 'pending' }), eventsOfCreate());
      expect(created).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'pending', version: 1 });
      expect(Number.isSafeInteger(created.id) && created.id >= 1).toBe(true);
      expect(await repository.findById(created.id)).toEqual(created);
    });

    it('assigns ascending, distinct ids', async () => {
      const ids = (await createMany(5)).map((p) => p.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(new Set(ids).size).toBe(5);
    });

    it('answers null for an id no pet has', async () => {
      const [pet] = await createMany(1);
      expect(await repository.findById(pet!.id + 1000)).toBeNull();
      expect(await repository.findById(MAX_ID)).toBeNull();
    });

    it('lists nothing, with no next page, when empty', async () => {
      expect(shown(await repository.list({ limit: 20 }))).toEqual({ pets: [] });
    });

    it('lists pages in ascending id order, with `next` only while more follow', async () => {
      const pets = await createMany(5);
      const first = await repository.list({ limit: 2 });
      expect(shown(first)).toEqual({ pets: pets.slice(0, 2), next: pets[1]!.id });
      const second = await repository.list({ limit: 2, after: first.next! });
      expect(shown(second)).toEqual({ pets: pets.slice(2, 4), next: pets[3]!.id });
      expect(shown(await repository.list({ limit: 2, after: second.next! }))).toEqual({ pets: pets.slice(4) });
      expect(shown(await repository.list({ limit: 5 }))).toEqual({ pets });
    });

    it('filters by status, combined with keyset paging', async () => {
      const pets = await createMany(9, (i) => (['available', 'pending', 'sold'] as const)[i % 3]!);
      const sold = pets.filter((p) => p.status === 'sold');
      const first = await repository.list({ status: 'sold', limit: 2 });
      expect(shown(first)).toEqual({ pets: sold.slice(0, 2), next: sold[1]!.id });
      expect(shown(await repository.list({ status: 'sold', limit: 2, after: first.next! }))).toEqual({ pets: sold.slice(2) });
    });

    it('round-trips names with emoji, quotes and SQL metacharacters, and the largest categoryId, exactly', async () => {
      const names = [`🐶 Rex "the" O'Brien`, "Robert'); DROP TABLE pets;--", '%_\\ LIKE * ? $1 :name @p', 'ñandú Łódź 犬 👩‍👩‍👧 ❤️', '🐕'.repeat(100)];
      for (const name of names) {
        const created = await repository.create(aPetDraft({ name, categoryId: MAX_ID }), eventsOfCreate());
        expect(created.name).toBe(name);
        expect(await repository.findById(created.id)).toEqual({ id: created.id, name, categoryId: MAX_ID, status: 'available', version: 1 });
      }
    });

    it('gives 200 concurrent creates 200 distinct ids and stores all of them', async () => {
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) => repository.create(aPetDraft({ name: `concurrent ${i}` }), eventsOfCreate())),
      );
      expect(new Set(created.map((p) => p.id)).size).toBe(200);
      let all: Pet[] = [];
      let after: number | undefined;
      do {
        const page = await repository.list({ limit: 100, ...(after !== undefined && { after }) });
        all = all.concat(page.pets);
        after = page.next;
      } while (after !== undefined);
      expect(all.map((p) => p.id).sort((a, b) => a - b)).toEqual(created.map((p) => p.id).sort((a, b) => a - b));
    });

    it('updates a pet from its current version: the fields given, the version one more, seen by every read', async () => {
      const [rex, other] = await createMany(2);
      const updated = await change(rex!.id, 1, { name: 'Rex II', categoryId: 9, status: 'pending' }, tick());
      expect(updated).toEqual({ id: rex!.id, name: 'Rex II', categoryId: 9, status: 'pending', version: 2 });
      expect(await repository.findById(rex!.id)).toEqual(updated);
      expect(shown(await repository.list({ limit: 10 }))).toEqual({ pets: [updated, other] });
      expect(shown(await repository.list({ limit: 10, status: 'pending' }))).toEqual({ pets: [updated] });
      expect(shown(await repository.list({ limit: 10, status: 'available' }))).toEqual({ pets: [other] });
      expect(await change(rex!.id, 2, { name: 'Rex II', categoryId: 9, status: 'sold' }, tick())).toMatchObject({
        status: 'sold',
        version: 3,
      });
    });

    it('refuses an update from a version that is no longer current, or of a pet that does not exist, changing nothing', async () => {
      const [rex] = await createMany(1);
      await change(rex!.id, 1, { ...aPetDraft(), name: 'first' }, tick());
      expect(await change(rex!.id, 1, { ...aPetDraft(), name: 'stale' }, tick())).toBeNull();
      expect(await change(rex!.id + 1000, 1, aPetDraft(), tick())).toBeNull();
      expect(await repository.findById(rex!.id)).toMatchObject({ name: 'first', version: 2 });
    });

    it('refuses a status change when the status changed after the request arrived, but not a change of other fields', async () => {
      const [rex] = await createMany(1);
      const arrived = tick().requestedAt;
      await afterNow();
      await change(rex!.id, 1, { ...aPetDraft(), status: 'pending' }, tick());
      const late = { at: tick().at, requestedAt: arrived };
      expect(await change(rex!.id, 2, { ...aPetDraft(), status: 'sold' }, late)).toBeNull();
      expect(await change(rex!.id, 2, { ...aPetDraft(), status: 'pending', name: 'renamed' }, late)).toMatchObject({ version: 3 });
      // A request that arrived after the status changed may change it.
      expect(await change(rex!.id, 3, { ...aPetDraft(), status: 'sold' }, tick())).toMatchObject({ status: 'sold', version: 4 });
    });

    it('dates a status change as it is written, not as it was decided: a request that arrived in between is refused', async () => {
      const [rex] = await createMany(1);
      const decided = Date.now();
      await afterNow();
      const arrived = Date.now();
      await afterNow();
      // Decided before the second request arrived, written after it (it waited for a lock meanwhile).
      expect(await change(rex!.id, 1, { ...aPetDraft(), status: 'pending' }, { at: decided, requestedAt: decided })).toMatchObject({
        version: 2,
      });
      const [event] = await events.listEvents({ before: null, limit: 1 });
      expect(event!.at.getTime()).toBeGreaterThan(arrived);
      expect(await change(rex!.id, 2, { ...aPetDraft(), status: 'sold' }, { at: Date.now(), requestedAt: arrived })).toBeNull();
    });

    it('lets exactly one of concurrent updates from the same version succeed', async () => {
      const [rex] = await createMany(1);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => change(rex!.id, 1, { ...aPetDraft(), name: `racer ${i}`, status: i % 2 ? 'sold' : 'pending' }, tick())),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      expect(await repository.findById(rex!.id)).toEqual(winners[0]);
    });

    it('shows every resolved change to a read that starts after it, and keeps keyset positions valid across changes', async () => {
      const pets = await createMany(12, (i) => (i % 2 ? 'pending' : 'available'));
      const firstPage = await repository.list({ limit: 3, status: 'pending' });
      let current = new Map(pets.map((p) => [p.id, p]));
      for (let round = 0; round < 30; round++) {
        const pet = pets[(round * 5) % pets.length]!;
        const before = current.get(pet.id)!;
        const status = before.status === 'available' ? 'pending' : 'available';
        const changed = await change(pet.id, before.version, { name: before.name, categoryId: before.categoryId, status }, tick());
        expect(changed).not.toBeNull();
        current = new Map(current).set(pet.id, changed!);
        // Reads started after the update resolved: the pet as changed, in the listing of its new status only.
        expect(await repository.findById(pet.id)).toEqual(changed);
        const byStatus = await readAll(repository, status);
        expect(byStatus.find((p) => p.id === pet.id)).toEqual(changed);
        expect((await readAll(repository, before.status)).some((p) => p.id === pet.id)).toBe(false);
        expect(await readAll(repository)).toEqual([...current.values()].sort((a, b) => a.id - b.id));
      }
      // A position taken before the changes still continues after the same id.
      const after = await repository.list({ limit: 3, status: 'pending', after: firstPage.next! });
      expect(after.pets.every((p) => p.id > firstPage.next! && p.status === 'pending')).toBe(true);
    }, 60_000);

    describe('events, recorded with each change', () => {
      const everyEvent = () => events.listEvents({ before: null, limit: 1000 });

      it('records pet.created with the pet as created, dated as it is written, found by its id', async () => {
        const before = Date.now();
        const rex = await repository.create(aPetDraft({ name: 'Rex', categoryId: 7, status: 'pending' }), eventsOfCreate());
        const [event, ...others] = await everyEvent();
        expect(others).toEqual([]);
        expect(event).toEqual({ id: expect.stringMatching(/^evt_[0-9a-f]{28}$/), type: 'pet.created', at: expect.any(Date), pet: rex });
        expect(event!.id.slice(4, 16)).toBe(event!.at.getTime().toString(16).padStart(12, '0'));
        expect(event!.at.getTime()).toBeGreaterThanOrEqual(before - 1000);
        expect(event!.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
        expect(await events.findEvents([event!.id, 'evt_0000000000000000000000000000'])).toEqual([event]);
        expect(await events.findEvents([])).toEqual([]);
      });

      it('records pet.updated with the pet after the change and the previous values of the fields it changed', async () => {
        const rex = await repository.create(aPetDraft({ name: 'Rex', categoryId: 7, status: 'available' }), eventsOfCreate());
        const timing = tick();
        const updated = await change(rex.id, 1, { name: 'Rex', categoryId: 8, status: 'pending' }, timing);
        const [event] = await everyEvent();
        expect(event).toEqual({
          id: expect.stringMatching(/^evt_[0-9a-f]{28}$/),
          type: 'pet.updated',
          at: expect.any(Date),
          pet: updated,
          previous: { categoryId: 7, status: 'available' },
        });
        // Dated as it was written: not before the time it was decided, and by now.
        expect(event!.at.getTime()).toBeGreaterThanOrEqual(timing.at);
        expect(event!.at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
        expect(event!.id.slice(4, 16)).toBe(event!.at.getTime().toString(16).padStart(12, '0'));
      });

      it('stores the events it is given, as given, each with the pet as the change left it', async () => {
        const rex = await repository.create(aPetDraft({ name: 'Rex', status: 'available' }), eventsOfCreate());
        const said = { name: 'as the domain said', categoryId: 3, status: 'pending' as const };
        const two = [...eventsOfUpdate(said), { type: 'pet.updated' as const, before: null }];
        const updated = await repository.update(rex.id, 1, { ...aPetDraft(), name: 'Rex II' }, tick(), two);
        const recorded = (await everyEvent()).filter((e) => e.type === 'pet.updated');
        expect(recorded.map(({ pet, previous }) => ({ pet, previous }))).toEqual(
          expect.arrayContaining([
            { pet: updated, previous: { name: 'as the domain said', categoryId: 3, status: 'pending' } },
            { pet: updated, previous: undefined },
          ]),
        );
        expect(recorded).toHaveLength(2);
        expect(new Set(recorded.map((e) => e.id)).size).toBe(2);
        const none = await repository.create(aPetDraft({ name: 'Quiet' }), []);
        expect((await everyEvent()).some((e) => e.pet.id === none.id)).toBe(false);
      });

      it('records nothing for a refused update: a stale version, an unknown pet, a status changed in flight', async () => {
        const [rex] = await createMany(1);
        const arrived = tick().requestedAt;
        await afterNow();
        await change(rex!.id, 1, { ...aPetDraft(), status: 'pending' }, tick());
        const recorded = await everyEvent();
        expect(await change(rex!.id, 1, { ...aPetDraft(), name: 'stale' }, tick())).toBeNull();
        expect(await change(rex!.id + 1000, 1, aPetDraft(), tick())).toBeNull();
        expect(await change(rex!.id, 2, { ...aPetDraft(), status: 'sold' }, { at: tick().at, requestedAt: arrived })).toBeNull();
        expect(await everyEvent()).toEqual(recorded);
      });

      it('records exactly one event per committed change, under concurrency', async () => {
        const created = await Promise.all(
          Array.from({ length: 50 }, (_, i) => repository.create(aPetDraft({ name: `concurrent ${i}` }), eventsOfCreate())),
        );
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => change(created[0]!.id, 1, { ...aPetDraft(), name: `racer ${i}` }, tick())),
        );
        const winner = results.find((r) => r !== null)!;
        const all = await everyEvent();
        expect(
          all
            .filter((e) => e.type === 'pet.created')
            .map((e) => e.pet.id)
            .sort((a, b) => a - b),
        ).toEqual(created.map((p) => p.id).sort((a, b) => a - b));
        expect(all.filter((e) => e.type === 'pet.updated').map((e) => e.pet)).toEqual([winner]);
        expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
      });

      it('lists events newest first (by date, then id), a page at a time from a position', async () => {
        const [rex] = await createMany(1);
        for (let i = 1; i <= 4; i++) await change(rex!.id, i, { ...aPetDraft(), name: `name ${i}` }, tick());
        const all = await everyEvent();
        expect(all).toHaveLength(5);
        const order = [...all].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
        expect(all).toEqual(order);
        expect(all.at(-1)!.type).toBe('pet.created');
        const first = await events.listEvents({ before: null, limit: 2 });
        expect(first).toEqual(all.slice(0, 2));
        expect(await events.listEvents({ before: first[1]!, limit: 10 })).toEqual(all.slice(2));
      });
    });
  });
}
