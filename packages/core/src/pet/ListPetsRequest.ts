import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import { decodePetCursor } from './PetCursor.js';
import { isPetStatus, PET_STATUSES, type PetStatus } from './PetStatus.js';

export const LIST_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** A listing query as a transport receives it: numbers may still be decimal strings. */
export interface ListPetsInput {
  limit?: unknown;
  status?: unknown;
  cursor?: unknown;
}

export interface ListPetsQuery {
  limit: number;
  status?: PetStatus;
  /** Continue after this id (from a decoded cursor). */
  after?: number;
}

const KNOWN = new Set(['limit', 'status', 'cursor']);
const CURSOR_MESSAGE = 'cursor is invalid: pass the cursor of a previous page of this same listing unchanged';
const LIMIT_MESSAGE = `limit must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`;

function parseLimit(value: unknown): number | FieldProblem {
  if (value === undefined) return LIST_LIMIT.default;
  const number = typeof value === 'string' && /^[0-9]{1,4}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < LIST_LIMIT.min || number > LIST_LIMIT.max) {
    return { field: 'limit', message: LIMIT_MESSAGE };
  }
  return number;
}

/**
 * Validates a listing query. Unknown parameters and repeated parameters (arrays) are rejected rather than
 * ignored, so a typo such as `?staus=sold` fails loudly instead of returning an unfiltered list.
 */
export function parseListPetsQuery(input: Readonly<Record<string, unknown>>): ListPetsQuery {
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (!KNOWN.has(field)) problems.push({ field, message: `${field} is not a known query parameter (use limit, status or cursor)` });
    else if (Array.isArray(value)) problems.push({ field, message: `${field} must be given at most once` });
  }
  const { limit: rawLimit, status: rawStatus, cursor: rawCursor } = input as ListPetsInput;
  const limit = Array.isArray(rawLimit) ? LIST_LIMIT.default : parseLimit(rawLimit);
  if (typeof limit !== 'number') problems.push(limit);

  let status: PetStatus | undefined;
  if (rawStatus !== undefined && !Array.isArray(rawStatus)) {
    if (isPetStatus(rawStatus)) status = rawStatus;
    else problems.push({ field: 'status', message: `status must be one of ${PET_STATUSES.join(', ')}` });
  }

  let after: number | undefined;
  // A cursor is bound to its status filter, so it is checked only once the status is known to be valid.
  if (rawCursor !== undefined && !Array.isArray(rawCursor) && !problems.some((p) => p.field === 'status')) {
    const decoded = typeof rawCursor === 'string' ? decodePetCursor(rawCursor, status) : null;
    if (decoded === null) problems.push({ field: 'cursor', message: CURSOR_MESSAGE });
    else after = decoded;
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { limit: limit as number, ...(status && { status }), ...(after !== undefined && { after }) };
}
