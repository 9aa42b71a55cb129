import type { ListPets } from '@petstore/core';
import { entityTag } from './conditionalRequests.js';
import { serializePets } from './serializers.js';

/** A page of `GET /pets` ready to send: the serialised body, the `Link` value ('' on the last page) and its tag. */
export interface RenderedPage {
  body: string;
  link: string;
  etag: string;
}

export interface FullPageCacheOptions {
  /**
   * Upper bound of what is kept (query strings, bodies, links and tags), in characters: V8 holds ASCII text at one
   * byte a character (two for other text), so this is close to the bytes held. The least recently used page goes
   * first.
   */
  maxBytes: number;
}

/**
 * Renders listing pages, keyed by the request's query string (the response is a function of it alone):
 *
 * - Identical requests that arrive while a read of that page is in flight share that read and its rendering. Each
 *   still gets a snapshot taken no earlier than a read already under way, so this shows nothing a read started a
 *   moment earlier would not have shown; safe on every database.
 * - With `fullPages`, a page that has a successor is kept (bounded, least recently used first) and served without
 *   touching the database or serialising again. Only where a full page can never change: pets are never changed or
 *   deleted, and on SQLite ids become visible in order, so no pet can later appear inside a page that already has
 *   a successor. The last page is never kept, so a new pet shows at once. Not on PostgreSQL, where a lower id can
 *   commit after a higher one is visible.
 */
export class ListingPages {
  private readonly inFlight = new Map<string, Promise<RenderedPage>>();
  private readonly full = new Map<string, RenderedPage>();
  private fullBytes = 0;
  private hits = 0;

  constructor(
    private readonly listPets: ListPets,
    private readonly publicBaseUrl: string,
    private readonly fullPages?: FullPageCacheOptions,
  ) {}

  /** The page for this query string; synchronous when it is a kept full page. */
  page(querystring: string, query: () => Readonly<Record<string, unknown>>): RenderedPage | Promise<RenderedPage> {
    const kept = this.full.get(querystring);
    if (kept !== undefined) {
      this.hits++;
      // Re-inserted so that Map order is least recently used first.
      this.full.delete(querystring);
      this.full.set(querystring, kept);
      return kept;
    }
    let pending = this.inFlight.get(querystring);
    if (pending === undefined) {
      const started = this.render(querystring, query).finally(() => {
        if (this.inFlight.get(querystring) === started) this.inFlight.delete(querystring);
      });
      this.inFlight.set(querystring, started);
      pending = started;
    }
    return pending;
  }

  /**
   * Call when a pet has been added: a request that arrives from now on reads anew rather than joining a read that
   * may have started before the write, so a client always sees the pet it has just been told was created.
   */
  afterWrite(): void {
    this.inFlight.clear();
  }

  /** What the full-page cache holds now, and how many requests it answered (for tests and the benchmark's notes). */
  stats(): { pages: number; bytes: number; hits: number } {
    return { pages: this.full.size, bytes: this.fullBytes, hits: this.hits };
  }

  private async render(querystring: string, query: () => Readonly<Record<string, unknown>>): Promise<RenderedPage> {
    const listing = await this.listPets.execute(query());
    const body = serializePets(listing.pets);
    const link = listing.next ? `<${this.publicBaseUrl}/pets?${new URLSearchParams({ ...listing.next }).toString()}>; rel="next"` : '';
    const page = { body, link, etag: entityTag(body, link) };
    if (listing.next && this.fullPages) this.keep(querystring, page);
    return page;
  }

  private keep(querystring: string, page: RenderedPage): void {
    const size = querystring.length + page.body.length + page.link.length + page.etag.length;
    if (size > this.fullPages!.maxBytes || this.full.has(querystring)) return;
    this.fullBytes += size;
    this.full.set(querystring, page);
    for (const [oldest, old] of this.full) {
      if (this.fullBytes <= this.fullPages!.maxBytes) break;
      this.full.delete(oldest);
      this.fullBytes -= oldest.length + old.body.length + old.link.length + old.etag.length;
    }
  }
}
