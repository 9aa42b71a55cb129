import { LIST_LIMIT, type ListPets, type ListPetsRequest, type Pet } from '@petstore/core';
import { createHash } from 'node:crypto';
import { pageEntityTag } from '../entityTags.js';

/** A page of `GET /pets` ready to send: the serialised body, the `Link` value ('' on the last page) and its tag. */
export interface RenderedPage {
  body: string;
  link: string;
  etag: string;
}

/**
 * Renders listing pages: the body, the `Link` to the next page and the entity tag. Every page is read from the
 * repository, which shows every change that has resolved, and nothing is kept: a page is as true as the database
 * on whichever instance answers, and its tag (made of the ids and versions it holds) changes with any change to it.
 */
export class ListingPages {
  /** Tells apart the tags of servers whose `Link` differs (another public base URL). */
  private readonly tagScope: string;

  constructor(
    private readonly listPets: ListPets,
    private readonly serializePets: (pets: Pet[]) => string,
    private readonly nextPageBase: string,
  ) {
    this.tagScope = createHash('sha256').update(nextPageBase).digest('base64url').slice(0, 8);
  }

  async page(request: ListPetsRequest): Promise<RenderedPage> {
    const { pets, next } = await this.listPets.execute(request);
    const body = this.serializePets(pets);
    // status, limit and cursor are URL-safe as they are: an enum, digits, base64url.
    const link = next
      ? `<${this.nextPageBase}?${next.status ? `status=${next.status}&` : ''}limit=${next.limit}&cursor=${next.cursor}>; rel="next"`
      : '';
    const scope = `${this.tagScope}|${request.status ?? '*'}|${request.limit ?? LIST_LIMIT.default}`;
    return { body, link, etag: pageEntityTag(scope, pets, next !== undefined) };
  }
}
