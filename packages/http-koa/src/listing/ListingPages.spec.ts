import { describe, expect, it } from '@jest/globals';
import { ListPets, readListPetsQuery, type PetListRequest, type PetPage } from '@petstore/core';
import { InMemoryPetRepository } from '@petstore/core/testing';
import { PetsSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { ListingPages, type RenderedPage } from './ListingPages.js';

/** The in-memory repository, counting its reads; `stable` is what it declares about pages with a successor. */
class CountingRepository extends InMemoryPetRepository {
  reads = 0;

  constructor(stable = true) {
    super();
    Object.defineProperty(this, 'pagesWithSuccessorNeverChange', { value: stable });
  }

  override async list(request: PetListRequest): Promise<PetPage> {
    this.reads++;
    return super.list(request);
  }
}

const BASE = 'https://api.example.com/v1';

async function withPets(count: number, status: (i: number) => 'available' | 'sold' = () => 'available', stable = true) {
  const repository = new CountingRepository(stable);
  for (let i = 1; i <= count; i++) await repository.create({ name: `pet ${i}`, categoryId: 1, status: status(i) });
  return repository;
}

const listingPages = (repository: CountingRepository, maxBytes?: number) =>
  new ListingPages(new ListPets(repository), serializerFor(PetsSchema), `${BASE}/pets`, maxBytes === undefined ? undefined : { maxBytes });
const pageOf = (pages: ListingPages, querystring: string) =>
  Promise.resolve(pages.page(readListPetsQuery(Object.fromEntries(new URLSearchParams(querystring)))));
const idsOf = (page: RenderedPage) => (JSON.parse(page.body) as { id: number }[]).map((p) => p.id);
const cursorOf = (page: RenderedPage) => new URL(/<([^>]+)>/.exec(page.link)![1]!).searchParams.get('cursor')!;

/** Asks twice, as a page is kept the second time it is asked for. */
const pageTwice = async (pages: ListingPages, querystring: string) => {
  await pageOf(pages, querystring);
  return pageOf(pages, querystring);
};

describe('ListingPages', () => {
  it('keeps a full page asked for a second time, and serves it from memory from then on: same body, Link and tag', async () => {
    const repository = await withPets(3);
    const pages = listingPages(repository, 1_000_000);
    const first = await pageOf(pages, 'limit=2');
    expect(pages.stats().pages).toBe(0);
    expect(await pageOf(pages, 'limit=2')).toEqual(first);
    expect(pages.stats().pages).toBe(1);
    const again = pages.page({ limit: 2 });
    expect(again).toEqual(first);
    expect(again).not.toBeInstanceOf(Promise);
    expect(first.link).toBe(`<${BASE}/pets?limit=2&cursor=${cursorOf(first)}>; rel="next"`);
    expect(repository.reads).toBe(2);
    expect(pages.stats()).toMatchObject({ pages: 1, hits: 1 });
  });

  it('does not keep a page asked for again only after more other pages than it can hold', async () => {
    const repository = await withPets(200);
    const pages = listingPages(repository, 3_000);
    await pageOf(pages, 'limit=1');
    for (let limit = 2; limit <= 99; limit++) await pageOf(pages, `limit=${limit}`);
    await pageOf(pages, 'limit=1');
    expect(pages.stats().pages).toBe(0);
  });

  it('never keeps the last page, so a pet added later shows on the next read', async () => {
    const repository = await withPets(3);
    const pages = listingPages(repository, 1_000_000);
    const first = await pageTwice(pages, 'limit=2');
    const lastQuery = `limit=2&cursor=${cursorOf(first)}`;
    expect(idsOf(await pageTwice(pages, lastQuery))).toEqual([3]);
    expect(idsOf(await pageTwice(pages, 'limit=10'))).toEqual([1, 2, 3]);

    await repository.create({ name: 'pet 4', categoryId: 1, status: 'available' });
    const last = await pageOf(pages, lastQuery);
    expect(idsOf(last)).toEqual([3, 4]);
    expect(last.link).toBe('');
    expect(idsOf(await pageOf(pages, 'limit=10'))).toEqual([1, 2, 3, 4]);
    expect(pages.stats().pages).toBe(1);
  });

  it('keys pages by the whole request: no page of one status or limit is served for another; the default limit is 20', async () => {
    const repository = await withPets(30, (i) => (i % 2 ? 'available' : 'sold'));
    const pages = listingPages(repository, 1_000_000);
    expect(idsOf(await pageTwice(pages, 'status=available&limit=2'))).toEqual([1, 3]);
    expect(idsOf(await pageTwice(pages, 'status=sold&limit=2'))).toEqual([2, 4]);
    expect(idsOf(await pageTwice(pages, 'limit=2'))).toEqual([1, 2]);
    expect(idsOf(await pageTwice(pages, 'limit=3'))).toEqual([1, 2, 3]);
    expect(idsOf(await pageOf(pages, 'status=available&limit=2'))).toEqual([1, 3]);
    expect(idsOf(await pageOf(pages, 'status=sold&limit=2'))).toEqual([2, 4]);
    expect(await pageTwice(pages, '')).toEqual(await pageOf(pages, 'limit=20'));
    expect(pages.stats()).toMatchObject({ pages: 5, hits: 3 });
  });

  it('does not keep a refused request', async () => {
    const pages = listingPages(await withPets(3), 1_000_000);
    for (let i = 0; i < 2; i++) await expect(Promise.resolve(pages.page({ limit: 0 }))).rejects.toMatchObject({ code: 'validation_error' });
    expect(pages.stats().pages).toBe(0);
  });

  it('stays within its byte bound, dropping the least recently used page first', async () => {
    const repository = await withPets(50);
    const sizeOf = async (querystring: string) => {
      const probe = listingPages(repository, 1_000_000);
      await pageTwice(probe, querystring);
      return probe.stats().bytes;
    };
    const bound = (await sizeOf('limit=3')) + (await sizeOf('limit=4')) + (await sizeOf('limit=5'));
    const pages = listingPages(repository, bound);

    await pageTwice(pages, 'limit=3');
    await pageTwice(pages, 'limit=4');
    await pageTwice(pages, 'limit=5');
    await pageOf(pages, 'limit=3'); // now the most recently used
    expect(pages.stats()).toMatchObject({ pages: 3, bytes: bound });
    await pageTwice(pages, 'limit=6');
    expect(pages.stats().bytes).toBeLessThanOrEqual(bound);

    const reads = repository.reads;
    await pageOf(pages, 'limit=3');
    expect(repository.reads).toBe(reads);
    await pageOf(pages, 'limit=4');
    expect(repository.reads).toBe(reads + 1);
    for (let limit = 1; limit <= 40; limit++) {
      await pageTwice(pages, `limit=${limit}`);
      expect(pages.stats().bytes).toBeLessThanOrEqual(bound);
    }
  });

  it('keeps nothing when the repository does not promise that full pages never change, whatever it is given', async () => {
    const repository = await withPets(3, () => 'available', false);
    const pages = listingPages(repository, 1_000_000);
    for (let i = 0; i < 3; i++) await pageOf(pages, 'limit=2');
    expect(repository.reads).toBe(3);
    expect(pages.stats()).toEqual({ pages: 0, bytes: 0, hits: 0 });
  });

  it('keeps nothing without a bound', async () => {
    const repository = await withPets(3);
    const pages = listingPages(repository);
    for (let i = 0; i < 3; i++) await pageOf(pages, 'limit=2');
    expect(repository.reads).toBe(3);
  });
});
