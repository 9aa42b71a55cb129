import type { FieldProblem } from '../errors/ValidationError.js';
import { LIST_LIMIT } from '../pet/ListPetsRequest.js';
import { decodePositionCursor, type Position } from './PositionCursor.js';

export interface PageQuery {
  limit: number;
  /** Continue past this position (from a decoded cursor); null from the start. */
  after: Position | null;
}

const LIMIT_MESSAGE = `limit must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;
const CURSOR_MESSAGE = 'cursor is invalid: pass the cursor of a previous page of this same listing unchanged';

/**
 * The paging part of an admin listing's query (`limit`, 1 to 100, default 20; `cursor`), as a transport receives it
 * (numbers may still be decimal strings). Parameters other than these and `filters`, and repeated ones, are problems.
 * The cursor must come from `listing` (which names the listing and its filters).
 */
export function parsePageQuery(
  input: Readonly<Record<string, unknown>>,
  listing: string,
  filters: readonly string[] = [],
): { query: PageQuery; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const known = ['limit', 'cursor', ...filters];
  for (const [field, value] of Object.entries(input)) {
    if (!known.includes(field)) problems.push({ field, message: `${field} is not a known query parameter (use ${known.join(', ')})` });
    else if (Array.isArray(value)) problems.push({ field, message: `${field} must be given at most once` });
  }
  const query: PageQuery = { limit: LIST_LIMIT.default, after: null };
  const { limit, cursor } = input;
  if (limit !== undefined && !Array.isArray(limit)) {
    const number = typeof limit === 'string' && /^[0-9]{1,4}$/.test(limit) ? Number(limit) : limit;
    if (typeof number === 'number' && Number.isInteger(number) && number >= LIST_LIMIT.min && number <= LIST_LIMIT.max) query.limit = number;
    else problems.push({ field: 'limit', message: LIMIT_MESSAGE });
  }
  if (cursor !== undefined && !Array.isArray(cursor)) {
    query.after = decodePositionCursor(listing, cursor);
    if (query.after === null) problems.push({ field: 'cursor', message: CURSOR_MESSAGE });
  }
  return { query, problems };
}
