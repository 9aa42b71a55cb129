import type { KeyView } from '../access/KeyView.js';
import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor, type Position } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import { codePointCount, displayedTextProblem } from '../input/displayedText.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { KeyViews } from './KeyViews.js';

export interface KeyListing {
  keys: KeyView[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/** The longest text a key's name is searched for: a name is at most 100 characters. */
const NAME_FILTER_MAX = 100;

/** A cursor continues the listing it came from: the search is part of it. */
const listingOf = (name: string | undefined) => (name === undefined ? 'keys' : `keys|${name}`);

/**
 * Keys oldest first, revoked ones included, a page at a time (`limit`, `cursor`), optionally only those whose name
 * contains `name` (ASCII letters in either case); never a secret.
 */
export class ListApiKeys {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
  ) {}

  /** The cursor of the page after the key created at `position`, in the listing of the keys whose name contains `name` (or of all). */
  static cursorAt(position: Position, name?: string): string {
    return encodePositionCursor(listingOf(name), position);
  }

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<KeyListing> {
    const { name } = input;
    const { query, problems } = parsePageQuery(input, listingOf(typeof name === 'string' ? name : undefined), ['name']);
    if (name !== undefined && !Array.isArray(name)) {
      const problem =
        typeof name !== 'string' || name.length === 0 || codePointCount(name) > NAME_FILTER_MAX
          ? `name must be text of 1 to ${NAME_FILTER_MAX} characters to look for in the keys' names`
          : displayedTextProblem('name', name);
      if (problem !== null) problems.push({ field: 'name', message: problem });
    }
    if (problems.length > 0) throw new ValidationError(problems);
    const after = query.after && { createdAt: query.after.at, id: query.after.id };
    const found = await this.keys.list({ after, limit: query.limit + 1, ...(typeof name === 'string' && { nameContains: name }) });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      keys: await this.views.of(page),
      nextCursor:
        found.length > query.limit && last
          ? ListApiKeys.cursorAt({ at: last.createdAt, id: last.id }, typeof name === 'string' ? name : undefined)
          : null,
    };
  }
}
