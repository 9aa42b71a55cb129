import { describe, expect, it } from '@jest/globals';
import { ListPets, readListPetsQuery, ServiceUnavailableError, type Pet, type PetRepository, eventsOfCreate, eventsOfUpdate } from '@petstore/core';
import { InMemoryPetRepository } from '@petstore/core/testing';
import { PetsSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { ListingPages, type RenderedPage } from './ListingPages.js';

const BASE = 'https://api.example.com/v1';

async function withPets(count: number) {
  const repository = new InMemoryPetRepository();
  const pets: Pet[] = [];
  for (let i = 1; i <= count; i++)
    pets.push(await repository.create({ name: `pet ${i}`, categoryId: 1, status: i % 2 ? 'available' : 'pending' }, eventsOfCreate()));
  return { repository, pets, pages: new ListingPages(new ListPets(repository), serializerFor(PetsSchema), `${BASE}/pets`) };
}

/** The repository's reads counted (a mock at the port), and pages kept under what `revision()` says at each call. */
function counting(repository: PetRepository, revision: () => number | undefined) {
  const reads = { count: 0 };
  const counted: PetRepository = {
    create: (...args) => repository.create(...args),
    findById: (id) => repository.findById(id),
    update: (...args) => repository.update(...args),
    list: (request) => {
      reads.count++;
      return repository.list(request);
    },
  };
  return { reads, pages: new ListingPages(new ListPets(counted), serializerFor(PetsSchema), `${BASE}/pets`, async () => revision()) };
}

const pageOf = (pages: ListingPages, querystring: string) => pages.page(readListPetsQuery(Object.fromEntries(new URLSearchParams(querystring))));
const idsOf = (page: RenderedPage) => (JSON.parse(page.body) as { id: number }[]).map((p) => p.id);

describe('ListingPages', () => {
  it('renders the body, the Link to the next page and a tag that is the same while nothing changes', async () => {
    const { pages } = await withPets(3);
    const first = await pageOf(pages, 'limit=2');
    expect(idsOf(first)).toEqual([1, 2]);
    expect(first.link).toMatch(new RegExp(`^<${BASE}/pets\\?limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$`));
    expect(await pageOf(pages, 'limit=2')).toEqual(first);
    expect((await pageOf(pages, 'limit=3')).etag).not.toBe(first.etag);
  });

  it('changes the tag of a page when a pet on it changes, or leaves or joins its filter', async () => {
    const { repository, pets, pages } = await withPets(6);
    const before = await pageOf(pages, 'status=available&limit=2');
    expect(idsOf(before)).toEqual([1, 3]);

    await repository.update(3, 1, { name: 'renamed', categoryId: 1, status: 'available' }, { at: 1, requestedAt: 1 }, eventsOfUpdate(pets[2]!));
    const renamed = await pageOf(pages, 'status=available&limit=2');
    expect(renamed.body).toContain('renamed');
    expect(renamed.etag).not.toBe(before.etag);

    await repository.update(1, 1, { ...pets[0]!, status: 'sold' }, { at: 1, requestedAt: 1 }, eventsOfUpdate(pets[0]!));
    const left = await pageOf(pages, 'status=available&limit=2');
    expect(idsOf(left)).toEqual([3, 5]);
    expect(left.etag).not.toBe(renamed.etag);

    await repository.update(2, 1, { ...pets[1]!, status: 'available' }, { at: 1, requestedAt: 1 }, eventsOfUpdate(pets[1]!));
    const joined = await pageOf(pages, 'status=available&limit=2');
    expect(idsOf(joined)).toEqual([2, 3]);
    expect(joined.etag).not.toBe(left.etag);
  });

  it('shows a pet added after the last page was read, with a new tag', async () => {
    const { repository, pages } = await withPets(2);
    const last = await pageOf(pages, 'limit=5');
    await repository.create({ name: 'new', categoryId: 1, status: 'available' }, eventsOfCreate());
    const again = await pageOf(pages, 'limit=5');
    expect(idsOf(again)).toEqual([1, 2, 3]);
    expect(again.etag).not.toBe(last.etag);
  });

  it('tells apart the tags of servers with another public base', async () => {
    const { repository } = await withPets(2);
    const here = new ListingPages(new ListPets(repository), serializerFor(PetsSchema), `${BASE}/pets`);
    const there = new ListingPages(new ListPets(repository), serializerFor(PetsSchema), 'https://other.example.com/v1/pets');
    expect((await pageOf(here, 'limit=1')).etag).not.toBe((await pageOf(there, 'limit=1')).etag);
  });

  describe('pages kept while the listing revision holds', () => {
    it('keeps a page from its second request and serves it again without a read while the revision holds', async () => {
      const { repository } = await withPets(5);
      const { reads, pages } = counting(repository, () => 7);
      const first = await pageOf(pages, 'limit=2');
      expect(await pageOf(pages, 'limit=2')).toEqual(first);
      expect(reads.count).toBe(2);
      for (let i = 0; i < 10; i++) expect(await pageOf(pages, 'limit=2')).toEqual(first);
      expect(reads.count).toBe(2);
      // Another request is another page.
      expect(idsOf(await pageOf(pages, 'limit=2&status=pending'))).toEqual([2, 4]);
      expect(reads.count).toBe(3);
    });

    it('reads a kept page again once the revision moved, and shows the change', async () => {
      const { repository, pets } = await withPets(5);
      let revision = 1;
      const { reads, pages } = counting(repository, () => revision);
      await pageOf(pages, 'status=available&limit=2');
      const kept = await pageOf(pages, 'status=available&limit=2');
      await pageOf(pages, 'status=available&limit=2');
      expect(reads.count).toBe(2);
      await repository.update(1, 1, { ...pets[0]!, status: 'sold' }, { at: 1, requestedAt: 1 }, eventsOfUpdate(pets[0]!));
      revision++;
      const after = await pageOf(pages, 'status=available&limit=2');
      expect(reads.count).toBe(3);
      expect(idsOf(after)).toEqual([3, 5]);
      expect(after.etag).not.toBe(kept.etag);
      // Kept again at the new revision.
      expect(await pageOf(pages, 'status=available&limit=2')).toEqual(after);
      expect(reads.count).toBe(3);
    });

    it('keeps nothing read while the revision moved, nor anything when no revision is told', async () => {
      const { repository } = await withPets(3);
      let revision = 0;
      const moving = counting(repository, () => revision++);
      for (let i = 0; i < 5; i++) await pageOf(moving.pages, 'limit=2');
      expect(moving.reads.count).toBe(5);
      const none = counting(repository, () => undefined);
      for (let i = 0; i < 5; i++) await pageOf(none.pages, 'limit=2');
      expect(none.reads.count).toBe(5);
    });

    it('never answers a refused request with a kept page that looks like it (an empty cursor is not no cursor)', async () => {
      const { repository } = await withPets(3);
      const { pages } = counting(repository, () => 1);
      for (let i = 0; i < 3; i++) await pageOf(pages, 'limit=2');
      await expect(pages.page({ limit: 2, cursor: '' })).rejects.toMatchObject({ code: 'validation_error' });
    });

    it('reads the page when the revision cannot be had, so a bad request is still refused as such', async () => {
      const { repository } = await withPets(3);
      const failing = counting(repository, () => {
        throw new ServiceUnavailableError('database');
      });
      await expect(failing.pages.page({ limit: 0 })).rejects.toMatchObject({ code: 'validation_error' });
    });

    it('never keeps a refused request', async () => {
      const { repository } = await withPets(1);
      const { pages } = counting(repository, () => 1);
      for (let i = 0; i < 3; i++) await expect(pages.page({ limit: 0 })).rejects.toMatchObject({ code: 'validation_error' });
    });
  });

  it('refuses a bad request', async () => {
    const { pages } = await withPets(1);
    await expect(pages.page({ limit: 0 })).rejects.toMatchObject({ code: 'validation_error' });
  });
});
