import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import { decodePetCursor } from './PetCursor.js';
import { isPetStatus, PET_STATUSES, type PetStatus } from './PetStatus.js';

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** A page request as an embedder writes it; `cursor` comes from the `next` of a previous page. */
export interface ListPetsRequest {
  limit?: number;
  status?: PetStatus;
  cursor?: string;
}

/** A checked page request: the limit with its default applied, the cursor decoded to the id to continue after. */
export interface ListPetsQuery {
  limit: number;
  status?: PetStatus;
  after?: number;
}

const KNOWN = new Set(['limit', 'status', 'cursor']);
const CURSOR_MESSAGE = 'cursor is invalid: pass the cursor of a previous page of this same listing unchanged';
const LIMIT_MESSAGE = `limit must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;
const STATUS_MESSAGE = `status must be one of ${PET_STATUSES.join(', ')}`;

function isValidLimit(limit: unknown): limit is number {
  return typeof limit === 'number' && Number.isInteger(limit) && limit >= LIST_LIMIT.min && limit <= LIST_LIMIT.max;
}

/**
 * Checks a page request and decodes its cursor; throws a ValidationError that lists every problem. A cursor is
 * bound to its status filter, so it is checked only once the status is known to be valid.
 */
export function checkListPetsRequest(request: ListPetsRequest): ListPetsQuery {
  const problems: FieldProblem[] = [];
  const { limit = LIST_LIMIT.default, status, cursor } = request;
  if (!isValidLimit(limit)) problems.push({ field: 'limit', message: LIMIT_MESSAGE });
  if (status !== undefined && !isPetStatus(status)) problems.push({ field: 'status', message: STATUS_MESSAGE });
  let after: number | undefined;
  if (cursor !== undefined && problems.every((p) => p.field !== 'status')) {
    const decoded = typeof cursor === 'string' ? decodePetCursor(cursor, status) : null;
    if (decoded === null) problems.push({ field: 'cursor', message: CURSOR_MESSAGE });
    else after = decoded;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  const query: ListPetsQuery = { limit };
  if (status !== undefined) query.status = status;
  if (after !== undefined) query.after = after;
  return query;
}

/**
 * Reads a listing query as a transport receives it (values are text, names are the client's) into a page request.
 * Unknown and repeated parameters are rejected rather than ignored, so a typo such as `?staus=sold` fails loudly
 * instead of returning an unfiltered list; `limit` must be decimal digits. Every problem is listed at once.
 */
export function readListPetsQuery(query: Readonly<Record<string, unknown>>): ListPetsRequest {
  const problems: FieldProblem[] = [];
  const request: ListPetsRequest = {};
  for (const field of Object.keys(query)) {
    const value = query[field];
    if (!KNOWN.has(field)) problems.push({ field, message: `${field} is not a known query parameter (use limit, status or cursor)` });
    else if (typeof value !== 'string') problems.push({ field, message: `${field} must be given at most once` });
    else if (field === 'limit') {
      const limit = /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
      if (isValidLimit(limit)) request.limit = limit;
      else problems.push({ field, message: LIMIT_MESSAGE });
    } else if (field === 'status') {
      if (isPetStatus(value)) request.status = value;
      else problems.push({ field, message: STATUS_MESSAGE });
    } else request.cursor = value;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return request;
}
