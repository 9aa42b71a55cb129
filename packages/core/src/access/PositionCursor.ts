import { hash } from 'node:crypto';

/**
 * The opaque keyset cursor of an admin listing (keys, audit events): "continue past this instant and id", bound to
 * its listing (and filter) by a checksum, so an edited cursor, or one from another listing, is refused instead of
 * silently returning the wrong page. It is not a secret: it only names a position a caller could reach anyway.
 */
const VERSION = 'p1';
const ID_SHAPE = /^[A-Za-z0-9_]{1,64}$/;

export interface Position {
  at: Date;
  id: string;
}

function checksum(listing: string, at: number, id: string): string {
  return hash('sha256', `petstore-position|${VERSION}|${listing}|${at}|${id}`, 'base64url').slice(0, 12);
}

export function encodePositionCursor(listing: string, { at, id }: Position): string {
  const ms = at.getTime();
  return Buffer.from(`${VERSION}.${ms}.${id}.${checksum(listing, ms, id)}`).toString('base64url');
}

/** The position, or null for a malformed or tampered cursor, or one from another listing; only the exact text
 * `encodePositionCursor` writes (base64url's unused bits must not make an edited cursor valid). */
export function decodePositionCursor(listing: string, cursor: unknown): Position | null {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const [version, msText, id, , ...rest] = Buffer.from(cursor, 'base64url').toString('latin1').split('.');
  if (version !== VERSION || rest.length > 0 || msText === undefined || id === undefined || !/^[0-9]{1,15}$/.test(msText) || !ID_SHAPE.test(id)) {
    return null;
  }
  const position = { at: new Date(Number(msText)), id };
  return encodePositionCursor(listing, position) === cursor ? position : null;
}
