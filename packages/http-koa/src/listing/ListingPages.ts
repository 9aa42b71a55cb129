import { LIST_LIMIT, type ListPets, type ListPetsRequest, type Pet } from '@petstore/core';
import { LRUCache } from 'lru-cache';
import { entityTag } from '../conditionalRequests.js';
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
  private hits = 0;

  constructor(
    private readonly listPets: ListPets,
    private readonly serializePets: (pets: Pet[]) => string,
    private readonly nextPageBase: string,
    fullPages?: FullPageCacheOptions,
  ) {
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

  private async render(request: ListPetsRequest, key: string): Promise<RenderedPage> {
    const { pets, next } = await this.listPets.execute(request);
    const body = this.serializePets(pets);
    // status, limit and cursor are URL-safe as they are: an enum, digits, base64url.
    const link = next
      ? `<${this.nextPageBase}?${next.status ? `status=${next.status}&` : ''}limit=${next.limit}&cursor=${next.cursor}>; rel="next"`
      : '';
    const page = { body, link, etag: entityTag(body, link) };
    if (next && this.full && this.seenTwice!.check(key)) this.full.set(key, page);
    return page;
  }
}
