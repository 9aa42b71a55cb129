import { nextLink } from '@petstore/test-support';

/** How many distinct pages the random-pages scenarios cycle through. */
const RANDOM_PAGE_COUNT = 20_000;

const FILTERS = [undefined, 'available', 'pending', 'sold'] as const;
type Filter = (typeof FILTERS)[number];

/** A position in one listing: its filter, the id it continues after, and the product's cursor for it. */
interface Position {
  status: Filter;
  after: number;
  cursor: string | null;
}

/** One page, as the product and as the peers (whose cursor is a plain `after` id) ask for it. */
export interface RandomPage {
  product: string;
  peer: string;
}

/** A small seeded generator (mulberry32), so every run and every peer gets the same pages in the same order. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Every fifth position of one listing, with the product's real cursor for it (walked 5 pets at a time). */
async function positionsOf(port: number, key: string, status: Filter): Promise<Position[]> {
  const positions: Position[] = [{ status, after: 0, cursor: null }];
  let url: string | null = `http://127.0.0.1:${port}/v1/pets?${status ? `status=${status}&` : ''}limit=5`;
  while (url) {
    const response: Response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    const pets = (await response.json()) as { id: number }[];
    const link = nextLink(response.headers.get('link'));
    if (!link) break;
    const next = new URL(link);
    positions.push({ status, after: pets[pets.length - 1]!.id, cursor: next.searchParams.get('cursor') });
    url = `http://127.0.0.1:${port}/v1/pets${next.search}`;
  }
  return positions;
}

/**
 * RANDOM_PAGE_COUNT distinct pages, as real clients read them: a random position in one of the four listings
 * (all pets, or one status), with a random `limit` from 1 to 100. Cursors are the product's own, found by walking
 * each listing; the peers get the same pages as `after` ids. The order is random but the same on every run.
 */
export async function randomPages(port: number, key: string): Promise<RandomPage[]> {
  const positions = (await Promise.all(FILTERS.map((status) => positionsOf(port, key, status)))).flat();
  const random = seeded(23);
  const pages = new Map<string, RandomPage>();
  while (pages.size < RANDOM_PAGE_COUNT) {
    const { status, after, cursor } = positions[Math.floor(random() * positions.length)]!;
    const limit = 1 + Math.floor(random() * 100);
    const filter = status ? `status=${status}&` : '';
    const product = `/v1/pets?${filter}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    pages.set(product, { product, peer: `/v1/pets?${filter}limit=${limit}&after=${after}` });
  }
  return [...pages.values()];
}
