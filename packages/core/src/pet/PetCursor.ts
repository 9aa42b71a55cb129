import { hash } from 'node:crypto';
import { MAX_ID } from './Pet.js';
import type { PetStatus } from './PetStatus.js';

/**
 * The opaque keyset cursor: "continue after this id, with this status filter". It carries a checksum so a
 * truncated or edited cursor, or one taken from a listing with another status filter, is refused instead of
 * silently returning the wrong page. It is not a secret: it only names a position a client could reach anyway.
 */
const VERSION = 'c1';

function checksum(after: number, status: PetStatus | undefined): string {
  return hash('sha256', `petstore-cursor|${VERSION}|${after}|${status ?? ''}`, 'base64url').slice(0, 12);
}

/** The cursor of the page after the pet with id `after` (0: the first page) of the listing with this status filter. */
export function encodePetCursor(after: number, status: PetStatus | undefined): string {
  return Buffer.from(`${VERSION}.${after}.${checksum(after, status)}`).toString('base64url');
}

/**
 * Returns the id to continue after, or null for a tampered cursor or one from a listing with another status. Only
 * the exact text `encodePetCursor` writes is accepted: base64url leaves unused bits in a last character, so
 * several texts decode to the same bytes, and an edited cursor must not give the same page.
 */
export function decodePetCursor(cursor: string, status: PetStatus | undefined): number | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [version, afterText, , ...rest] = Buffer.from(cursor, 'base64url').toString('latin1').split('.');
  if (version !== VERSION || rest.length > 0 || afterText === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(afterText)) return null;
  const after = Number(afterText);
  return after <= MAX_ID && encodePetCursor(after, status) === cursor ? after : null;
}
