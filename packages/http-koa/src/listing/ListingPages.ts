import { LIST_LIMIT, type ListPets, type ListPetsRequest, type Pet } from '@petstore/core';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SeenTwice } from './SeenTwice.js';

/** A page of `GET /pets` ready to send: the serialised body, the `Link` value ('' on the last page) and its tag. */
export interface RenderedPage {
  body: string;
  link: string;
  etag: string;
}

export interface FullPageCacheOptions {
  /**
   * Upper bound of what is kept (bodies, links and tags), in characters: V8 holds ASCII text at one byte a character
   * (two for other text), so this is close to the bytes held. The least recently used page goes first.
   */
  maxBytes: number;
}

/** 4 MiB: about 2,800 pages of 20 pets. */
export const DEFAULT_FULL_PAGE_CACHE: FullPageCacheOptions = { maxBytes: 4 * 1024 * 1024 };

/** The JSON shape of a pet in a page: change it when the serialised body changes, so that old tags stop matching. */
const REPRESENTATION = 'pets-v1';

/** Pages kept are about this long (20 pets): the cache holds about `maxBytes / TYPICAL_PAGE` of them. */
const TYPICAL_PAGE = 1_500;

/**
 * Renders listing pages: the body, the `Link` to the next page and the entity tag. When the repository promises
 * that a page with a successor never changes (`listPets.pagesWithSuccessorNeverChange`) and `fullPages` is given,
 * such pages are kept (bounded, least recently used first) and served without a read or a rendering. A page is
 * kept when it is asked for again within about as many requests as the cache holds pages: a page asked for less
 * often would be dropped before its next use anyway, and keeping it would only churn the cache and the garbage
 * collector (spread-out loads cost a third more with every page kept, docs/performance.md). Nothing else is ever
 * kept: the last page of a listing is read every time, so a new pet shows at once, and nothing kept needs to be
 * forgotten when pets are added.
 */
export class ListingPages {
  private readonly full: LRUCache<string, RenderedPage> | undefined;
  private readonly seenTwice: SeenTwice | undefined;
  /** Tells apart the tags of servers whose `Link` differs (another public base URL) or whose JSON may differ. */
  private readonly tagSuffix: string;
  private hits = 0;

  constructor(
    private readonly listPets: ListPets,
    private readonly serializePets: (pets: Pet[]) => string,
    private readonly nextPageBase: string,
    fullPages?: FullPageCacheOptions,
  ) {
    this.tagSuffix = createHash('sha256').update(`${REPRESENTATION}\n${nextPageBase}`).digest('base64url').slice(0, 8);
    if (listPets.pagesWithSuccessorNeverChange && fullPages && fullPages.maxBytes > 0) {
      this.full = new LRUCache({
        maxSize: fullPages.maxBytes,
        sizeCalculation: (page, key) => key.length + page.body.length + page.link.length + page.etag.length,
      });
      this.seenTwice = new SeenTwice(Math.max(64, Math.ceil(fullPages.maxBytes / TYPICAL_PAGE)));
    }
  }

  /** The page for this request; synchronous when it is a kept full page. */
  page(request: ListPetsRequest): RenderedPage | Promise<RenderedPage> {
    if (this.full === undefined) return this.render(request, '');
    const key = `${request.status ?? ''}|${request.limit ?? LIST_LIMIT.default}|${request.cursor ?? ''}`;
    const kept = this.full.get(key);
    if (kept === undefined) return this.render(request, key);
    this.hits++;
    return kept;
  }

  /** What the full-page cache holds now, and how many requests it answered (for tests and the benchmark's notes). */
  stats(): { pages: number; bytes: number; hits: number } {
    return { pages: this.full?.size ?? 0, bytes: this.full?.calculatedSize ?? 0, hits: this.hits };
  }

  /**
   * The page's tag, named from what it holds rather than hashed from its text (a hash of every body was a tenth of
   * a random page's CPU). Pets never change and only ever appear, so a page of one filter holding `count` pets from
   * `first` to `last` holds the same pets whenever it is read: the ids, the count, the filter, the limit and whether
   * a next page exists determine the body and the `Link`.
   */
  private entityTag(request: ListPetsRequest, pets: readonly Pet[], hasNext: boolean): string {
    const filter = `${request.status ?? '*'}${request.limit ?? LIST_LIMIT.default}`;
    const span = pets.length === 0 ? '0' : `${pets[0]!.id.toString(36)}-${pets.at(-1)!.id.toString(36)}-${pets.length}`;
    return `"${filter}.${span}${hasNext ? '.n' : ''}.${this.tagSuffix}"`;
  }

  private async render(request: ListPetsRequest, key: string): Promise<RenderedPage> {
    const { pets, next } = await this.listPets.execute(request);
    const body = this.serializePets(pets);
    // status, limit and cursor are URL-safe as they are: an enum, digits, base64url.
    const link = next
      ? `<${this.nextPageBase}?${next.status ? `status=${next.status}&` : ''}limit=${next.limit}&cursor=${next.cursor}>; rel="next"`
      : '';
    const page = { body, link, etag: this.entityTag(request, pets, next !== undefined) };
    if (next && this.full && this.seenTwice!.check(key)) this.full.set(key, page);
    return page;
  }
}
