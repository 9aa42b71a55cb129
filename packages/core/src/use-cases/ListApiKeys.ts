import type { KeyView } from '../access/KeyView.js';
import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { KeyViews } from './KeyViews.js';

export interface KeyListing {
  keys: KeyView[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

const LISTING = 'keys';

/** Keys oldest first, revoked ones included, a page at a time (`limit`, `cursor`); never a secret. */
export class ListApiKeys {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
  ) {}

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<KeyListing> {
    const { query, problems } = parsePageQuery(input, LISTING);
    if (problems.length > 0) throw new ValidationError(problems);
    const after = query.after && { createdAt: query.after.at, id: query.after.id };
    const found = await this.keys.list({ after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      keys: await this.views.of(page),
      nextCursor: found.length > query.limit && last ? encodePositionCursor(LISTING, { at: last.createdAt, id: last.id }) : null,
    };
  }
}
