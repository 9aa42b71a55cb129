import { ValidationError } from '../errors/ValidationError.js';
import { MAX_ID } from './Pet.js';

/**
 * Reads a pet id given as a number or as decimal digits. Returns null for a well-formed id that no pet can
 * have (0 or beyond 2^53-1, however many digits), so callers answer "not found" rather than failing on a big
 * number. (The length of a path is bounded by the HTTP server's header limit.)
 */
export function parsePetId(value: unknown): number | null {
  const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^[0-9]+$/.test(text)) {
    throw ValidationError.of('petId', 'petId must be a positive decimal integer');
  }
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : null;
}
