import { describe, expect, it } from '@jest/globals';
import { ListPets, type PetListRequest, type PetPage } from '@petstore/core';
import { InMemoryPetRepository } from '@petstore/core/testing';
import { ListingPages, type RenderedPage } from './listingPages.js';

/** The in-memory repository, counting its reads and optionally holding them until released. */
class CountingRepository extends InMemoryPetRepository {
  reads = 0;
  private held: (() => void)[] | null = null;

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const go of held) go();
  }

  override async list(request: PetListRequest): Promise<PetPage> {
    this.reads++;
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    return super.list(request);
  }
}

const BASE = 'https://api.example.com/v1';

async function withPets(count: number, status: (i: number) => 'available' | 'sold' = () => 'available') {
  const repository = new CountingRepository();
  for (let i = 1; i <= count; i++) await repository.create({ name: `pet ${i}`, categoryId: 1, status: status(i) });
  return repository;
}

const query = (querystring: string) => () => Object.fromEntries(new URLSearchParams(querystring));
const pageOf = (pages: ListingPages, querystring: string) => Promise.resolve(pages.page(querystring, query(querystring)));
const idsOf = (page: RenderedPage) => (JSON.parse(page.body) as { id: number }[]).map((p) => p.id);
const cursorOf = (page: RenderedPage) => new URL(/<([^>]+)>/.exec(page.link)![1]!).searchParams.get('cursor')!;

describe('ListingPages', () => {
  it('serves a full page from memory after its first read: same body, Link and tag, no further read', async () => {
    const repository = await withPets(3);
    const pages = new ListingPages(new ListPets(repository), BASE, { maxBytes: 1_000_000 });
    const first = await pageOf(pages, 'limit=2');
    const again = pages.page('limit=2', query('limit=2'));
    expect(again).toEqual(first);
    expect(again).not.toBeInstanceOf(Promise);
    expect(repository.reads).toBe(1);
    expect(pages.stats()).toMatchObject({ pages: 1, hits: 1 });
  });

  it('never keeps the last page, so a pet added later shows on the next read', async () => {
    const repository = await withPets(3);
    const pages = new ListingPages(new ListPets(repository), BASE, { maxBytes: 1_000_000 });
    const first = await pageOf(pages, 'limit=2');
    const lastQuery = `limit=2&cursor=${cursorOf(first)}`;
    expect(idsOf(await pageOf(pages, lastQuery))).toEqual([3]);
    expect(idsOf(await pageOf(pages, 'limit=10'))).toEqual([1, 2, 3]);

    await repository.create({ name: 'pet 4', categoryId: 1, status: 'available' });
    const last = await pageOf(pages, lastQuery);
    expect(idsOf(last)).toEqual([3, 4]);
    expect(last.link).toBe('');
    expect(idsOf(await pageOf(pages, 'limit=10'))).toEqual([1, 2, 3, 4]);
    expect(pages.stats().pages).toBe(1);
  });

  it('keys pages by the whole query: no page of one status or limit is served for another', async () => {
    const repository = await withPets(12, (i) => (i % 2 ? 'available' : 'sold'));
    const pages = new ListingPages(new ListPets(repository), BASE, { maxBytes: 1_000_000 });
    expect(idsOf(await pageOf(pages, 'status=available&limit=2'))).toEqual([1, 3]);
    expect(idsOf(await pageOf(pages, 'status=sold&limit=2'))).toEqual([2, 4]);
    expect(idsOf(await pageOf(pages, 'limit=2'))).toEqual([1, 2]);
    expect(idsOf(await pageOf(pages, 'limit=3'))).toEqual([1, 2, 3]);
    expect(idsOf(await pageOf(pages, 'status=available&limit=2'))).toEqual([1, 3]);
    expect(idsOf(await pageOf(pages, 'status=sold&limit=2'))).toEqual([2, 4]);
    expect(pages.stats()).toMatchObject({ pages: 4, hits: 2 });
  });

  it('does not keep a refused query', async () => {
    const pages = new ListingPages(new ListPets(await withPets(3)), BASE, { maxBytes: 1_000_000 });
    await expect(pageOf(pages, 'limit=0')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(pageOf(pages, 'limit=0')).rejects.toMatchObject({ code: 'validation_error' });
    expect(pages.stats().pages).toBe(0);
  });

  it('stays within its byte bound, dropping the least recently used page first', async () => {
    const repository = await withPets(50);
    const sizeOf = async (querystring: string) => {
      const probe = new ListingPages(new ListPets(repository), BASE, { maxBytes: 1_000_000 });
      await pageOf(probe, querystring);
      return probe.stats().bytes;
    };
    const bound = (await sizeOf('limit=3')) + (await sizeOf('limit=4')) + (await sizeOf('limit=5'));
    const pages = new ListingPages(new ListPets(repository), BASE, { maxBytes: bound });

    await pageOf(pages, 'limit=3');
    await pageOf(pages, 'limit=4');
    await pageOf(pages, 'limit=5');
    await pageOf(pages, 'limit=3'); // now the most recently used
    expect(pages.stats()).toMatchObject({ pages: 3, bytes: bound });
    await pageOf(pages, 'limit=6');
    expect(pages.stats().bytes).toBeLessThanOrEqual(bound);

    const reads = repository.reads;
    await pageOf(pages, 'limit=3');
    expect(repository.reads).toBe(reads);
    await pageOf(pages, 'limit=4');
    expect(repository.reads).toBe(reads + 1);
    for (let limit = 1; limit <= 40; limit++) {
      await pageOf(pages, `limit=${limit}`);
      expect(pages.stats().bytes).toBeLessThanOrEqual(bound);
    }
  });

  it('without the full-page cache (PostgreSQL) keeps nothing: every request after a read reads again', async () => {
    const repository = await withPets(3);
    const pages = new ListingPages(new ListPets(repository), BASE);
    await pageOf(pages, 'limit=2');
    await pageOf(pages, 'limit=2');
    expect(repository.reads).toBe(2);
    expect(pages.stats()).toEqual({ pages: 0, bytes: 0, hits: 0 });
  });

  it('lets identical requests share a read already in flight, and reads anew once it has answered', async () => {
    const repository = await withPets(3);
    const pages = new ListingPages(new ListPets(repository), BASE);
    repository.hold();
    const [a, b] = [pageOf(pages, 'limit=2'), pageOf(pages, 'limit=2')];
    const other = pageOf(pages, 'limit=1');
    repository.release();
    expect(await a).toEqual(await b);
    await other;
    expect(repository.reads).toBe(2);
    await pageOf(pages, 'limit=2');
    expect(repository.reads).toBe(3);
  });

  it('does not let a request that arrives after a write join a read that started before it', async () => {
    const repository = await withPets(3);
    const pages = new ListingPages(new ListPets(repository), BASE);
    repository.hold();
    const before = pageOf(pages, 'limit=10');
    await repository.create({ name: 'just created', categoryId: 1, status: 'available' });
    pages.afterWrite();
    const after = pageOf(pages, 'limit=10');
    const joined = pageOf(pages, 'limit=10');
    repository.release();
    await before;
    expect(idsOf(await after)).toEqual([1, 2, 3, 4]);
    expect(await joined).toEqual(await after);
    expect(repository.reads).toBe(2);
  });
});
