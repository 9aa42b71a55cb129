import { randomBytes } from 'node:crypto';

/** `key_` and letters or digits: the shape of every id `generateApiKeyId` writes, with room for ids of other origins. */
const KEY_ID_SHAPE = /^key_[0-9A-Za-z]{1,60}$/;

export function generateApiKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/**
 * True for a text that could be a key's id. Ids read from a caller (a path, a query, a command line) are checked
 * here before they reach a store: a NUL byte or a control character is no key's id, and PostgreSQL refuses NUL.
 */
export function isKeyId(value: unknown): value is string {
  return typeof value === 'string' && KEY_ID_SHAPE.test(value);
}
