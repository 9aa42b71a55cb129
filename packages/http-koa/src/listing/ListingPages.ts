import { LIST_LIMIT, type ListPets, type ListPetsRequest, type Pet, type PetListing } from '@petstore/core';
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { pageEntityTag } from '../entityTags.js';
import { SeenTwice } from './SeenTwice.js';

/** A page of `GET /pets` ready to send: the serialised body, the `Link` value ('' on the last page) and its tag. */
export interface RenderedPage {
  body: string;
  link: string;
  etag: string;
}

interface KeptPage {
  /** The listing revision read before the page: it is the page for as long as that revision is current. */
  revision: number;
  page: RenderedPage;
}

/**
 * Upper bound of the rendered pages kept, in characters (V8 holds ASCII text at one byte a character): 4 MiB, about
 * 2,800 pages of 20 pets.
 */
const KEPT_CHARACTERS = 4 * 1024 * 1024;

/** Pages kept are about this long (20 pets): the cache holds about `KEPT_CHARACTERS / TYPICAL_PAGE` of them. */
const TYPICAL_PAGE = 1_500;

/**
 * A number that stays the same only while no pet is created or changed, in this process or in any other sharing the
 * storage, and never comes back to an earlier value; undefined when it cannot be told. Each answer is current at
 * some moment after the call. The SQLite adapter tells one (`TypeOrmPetRepository.listingRevision`).
 */
export type ListingRevision = () => Promise<number | undefined>;

/**
 * Renders listing pages: the body, the `Link` to the next page and the entity tag, made of the ids and versions of
 * the pets it shows. Given a `listingRevision`, a rendered page is kept with the revision read before it, and sent
 * again without a read or a rendering while that revision is current; a change moves the revision, and every kept
 * page is read again at its next request. A page is kept on its second request within about as many requests as
 * the cache holds pages (SeenTwice): pages asked for once in a while would be dropped before their next use anyway,
 * and keeping them would only churn the cache and the garbage collector. Without one (PostgreSQL), every page is read.
 */
export class ListingPages {
  private readonly kept = new LRUCache<string, KeptPage>({
    maxSize: KEPT_CHARACTERS,
    sizeCalculation: ({ page }, key) => key.length + page.body.length + page.link.length + page.etag.length,
  });
  private readonly seenTwice = new SeenTwice(Math.ceil(KEPT_CHARACTERS / TYPICAL_PAGE));
  /** Tells apart the tags of servers whose `Link` differs (another public base URL). */
  private readonly tagScope: string;

  constructor(
    private readonly listPets: Pick<ListPets, 'execute'>,
    private readonly serializePets: (pets: Pet[]) => string,
    private readonly nextPageBase: string,
    private readonly listingRevision: ListingRevision = () => Promise.resolve(undefined),
  ) {
    this.tagScope = createHash('sha256').update(nextPageBase).digest('base64url').slice(0, 8);
  }

  async page(request: ListPetsRequest): Promise<RenderedPage> {
    // A revision that cannot be had is one that cannot be told: the page is read, and a bad request refused.
    const revision = await this.listingRevision().catch(() => undefined);
    if (revision === undefined) return this.render(request, await this.listPets.execute(request));
    // Status and limit arrive checked; the cursor as sent, so an empty one (refused) is kept apart from none.
    const key = `${request.status ?? ''}|${request.limit ?? LIST_LIMIT.default}|${request.cursor === undefined ? '' : `~${request.cursor}`}`;
    const kept = this.kept.get(key);
    if (kept?.revision === revision) return kept.page;
    // Read after the revision, the page is at least as new as it: kept under it, it is read again once it moves.
    const page = this.render(request, await this.listPets.execute(request));
    if (this.seenTwice.check(key)) this.kept.set(key, { revision, page });
    return page;
  }

  private render(request: ListPetsRequest, { pets, next }: PetListing): RenderedPage {
    const body = this.serializePets(pets);
    // status, limit and cursor are URL-safe as they are: an enum, digits, base64url.
    const link = next
      ? `<${this.nextPageBase}?${next.status ? `status=${next.status}&` : ''}limit=${next.limit}&cursor=${next.cursor}>; rel="next"`
      : '';
    const scope = `${this.tagScope}|${request.status ?? '*'}|${request.limit ?? LIST_LIMIT.default}`;
    return { body, link, etag: pageEntityTag(scope, pets, next !== undefined) };
  }
}
