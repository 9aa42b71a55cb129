import { LIST_LIMIT, type ListPets, type ListPetsRequest, type Pet } from '@petstore/core';
import { entityTag } from '../conditionalRequests.js';

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

const sizeOf = (page: RenderedPage) => page.body.length + page.link.length + page.etag.length;

/**
 * Renders listing pages: the body, the `Link` to the next page and the entity tag. When the repository promises
 * that a page with a successor never changes (`listPets.pagesWithSuccessorNeverChange`) and `fullPages` is given,
 * such pages are kept (bounded, least recently used first) and served without a read or a rendering. Nothing else
 * is ever kept: the last page of a listing is read every time, so a new pet shows at once, and nothing kept needs
 * to be forgotten when pets are added.
 */
export class ListingPages {
  private readonly full = new Map<string, RenderedPage>();
  private readonly fullPages: FullPageCacheOptions | undefined;
  private fullBytes = 0;
  private hits = 0;

  constructor(
    private readonly listPets: ListPets,
    private readonly serializePets: (pets: Pet[]) => string,
    private readonly nextPageBase: string,
    fullPages?: FullPageCacheOptions,
  ) {
    this.fullPages = listPets.pagesWithSuccessorNeverChange ? fullPages : undefined;
  }

  /** The page for this request; synchronous when it is a kept full page. */
  page(request: ListPetsRequest): RenderedPage | Promise<RenderedPage> {
    if (this.fullPages === undefined) return this.render(request, '');
    const key = `${request.status ?? ''}|${request.limit ?? LIST_LIMIT.default}|${request.cursor ?? ''}`;
    const kept = this.full.get(key);
    if (kept === undefined) return this.render(request, key);
    this.hits++;
    // Re-inserted so that Map order is least recently used first.
    this.full.delete(key);
    this.full.set(key, kept);
    return kept;
  }

  /** What the full-page cache holds now, and how many requests it answered (for tests and the benchmark's notes). */
  stats(): { pages: number; bytes: number; hits: number } {
    return { pages: this.full.size, bytes: this.fullBytes, hits: this.hits };
  }

  private async render(request: ListPetsRequest, key: string): Promise<RenderedPage> {
    const { pets, next } = await this.listPets.execute(request);
    const body = this.serializePets(pets);
    // status, limit and cursor are URL-safe as they are: an enum, digits, base64url.
    const link = next ? `<${this.nextPageBase}?${next.status ? `status=${next.status}&` : ''}limit=${next.limit}&cursor=${next.cursor}>; rel="next"` : '';
    const page = { body, link, etag: entityTag(body, link) };
    if (next && this.fullPages) this.keep(key, page);
    return page;
  }

  private keep(key: string, page: RenderedPage): void {
    const size = sizeOf(page);
    if (size > this.fullPages!.maxBytes || this.full.has(key)) return;
    this.fullBytes += size;
    this.full.set(key, page);
    for (const [oldest, old] of this.full) {
      if (this.fullBytes <= this.fullPages!.maxBytes) break;
      this.full.delete(oldest);
      this.fullBytes -= sizeOf(old);
    }
  }
}
