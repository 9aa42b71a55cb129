import { beforeEach, describe, expect, it } from '@jest/globals';
import { MAX_ID, type Pet } from '../../pet/Pet.js';
import type { PetListRequest, PetPage, PetRepository } from '../../ports/PetRepository.js';
import { openHarness, type Closable } from './harness.js';
import { aPetDraft } from '../builders.js';

export type PetRepositoryHarness = { repository: PetRepository } & Closable;

/** Runs the behaviour every PetRepository must have against `open()`, which returns an empty repository. */
export function describePetRepositoryContract(name: string, open: () => Promise<PetRepositoryHarness>): void {
  describe(`${name} satisfies the PetRepository contract`, () => {
    const harness = openHarness(open, 'each');
    let repository: PetRepository;
    beforeEach(() => {
      repository = harness().repository;
    });

    async function createMany(count: number, status: (i: number) => Pet['status'] = () => 'available'): Promise<Pet[]> {
      const pets: Pet[] = [];
      for (let i = 0; i < count; i++) pets.push(await repository.create(aPetDraft({ name: `pet ${i}`, status: status(i) })));
      return pets;
    }

    it('creates a pet with a service-assigned id and finds it again', async () => {
      const created = await repository.create(aPetDraft({ name: 'Rex', categoryId: 7, status: 'pending' }));
      expect(created).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 7, status: 'pending' });
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
      expect(await repository.list({ limit: 20 })).toEqual({ pets: [] });
    });

    it('lists pages in ascending id order, with `next` only while more follow', async () => {
      const pets = await createMany(5);
      const first = await repository.list({ limit: 2 });
      expect(first).toEqual({ pets: pets.slice(0, 2), next: pets[1]!.id });
      const second = await repository.list({ limit: 2, after: first.next! });
      expect(second).toEqual({ pets: pets.slice(2, 4), next: pets[3]!.id });
      expect(await repository.list({ limit: 2, after: second.next! })).toEqual({ pets: pets.slice(4) });
      expect(await repository.list({ limit: 5 })).toEqual({ pets });
    });

    it('filters by status, combined with keyset paging', async () => {
      const pets = await createMany(9, (i) => (['available', 'pending', 'sold'] as const)[i % 3]!);
      const sold = pets.filter((p) => p.status === 'sold');
      const first = await repository.list({ status: 'sold', limit: 2 });
      expect(first).toEqual({ pets: sold.slice(0, 2), next: sold[1]!.id });
      expect(await repository.list({ status: 'sold', limit: 2, after: first.next! })).toEqual({ pets: sold.slice(2) });
    });

    it('round-trips names with emoji, quotes and SQL metacharacters, and the largest categoryId, exactly', async () => {
      const names = [`🐶 Rex "the" O'Brien`, "Robert'); DROP TABLE pets;--", '%_\\ LIKE * ? $1 :name @p', 'ñandú Łódź 犬 👩‍👩‍👧 ❤️', '🐕'.repeat(100)];
      for (const name of names) {
        const created = await repository.create(aPetDraft({ name, categoryId: MAX_ID }));
        expect(created.name).toBe(name);
        expect(await repository.findById(created.id)).toEqual({ id: created.id, name, categoryId: MAX_ID, status: 'available' });
      }
    });

    it('gives 200 concurrent creates 200 distinct ids and stores all of them', async () => {
      const created = await Promise.all(Array.from({ length: 200 }, (_, i) => repository.create(aPetDraft({ name: `concurrent ${i}` }))));
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

    it('keeps what it declares in pagesWithSuccessorNeverChange: while creates run, a page with `next` never changes', async () => {
      expect(typeof repository.pagesWithSuccessorNeverChange).toBe('boolean');
      // A repository that makes no promise has nothing more to check.
      if (!repository.pagesWithSuccessorNeverChange) return;
      await createMany(12, (i) => (i % 2 ? 'sold' : 'available'));
      const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
      const requests: PetListRequest[] = [{ limit: 3 }, { limit: 2, status: 'sold' }];
      const firstSeen = new Map<string, { request: PetListRequest; page: PetPage }>();
      // 100 creates, started in waves of 10 between passes over the pages, which go on until every create is done:
      // reads and writes interleave however the adapter schedules them.
      const creates: Promise<Pet>[] = [];
      let settled = false;
      do {
        for (let i = 0; i < 10 && creates.length < 100; i++) {
          creates.push(repository.create(aPetDraft({ name: `racing ${creates.length}`, status: i % 2 ? 'sold' : 'available' })));
          if (creates.length === 100) void Promise.allSettled(creates).then(() => (settled = true));
        }
        for (const first of requests) {
          let request: PetListRequest | undefined = first;
          while (request) {
            const page = await repository.list(request);
            const key = JSON.stringify(request);
            if (page.next !== undefined && !firstSeen.has(key)) firstSeen.set(key, { request, page });
            request = page.next === undefined ? undefined : { ...request, after: page.next };
          }
        }
        await nextTurn();
      } while (!settled);
      await Promise.all(creates);
      expect(firstSeen.size).toBeGreaterThan(4);
      for (const { request, page } of firstSeen.values()) expect({ request, page: await repository.list(request) }).toEqual({ request, page });
      // Hundreds of reads between waves of creates: more than a unit test's 5 s on a loaded machine.
    }, 60_000);
  });
}
