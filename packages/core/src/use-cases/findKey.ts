import type { ApiKey } from '../access/ApiKey.js';
import { isKeyId } from '../access/KeyId.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { KeyStore } from '../ports/KeyStore.js';

/** The key with this id, or NotFoundError (without asking the store when no key can have this id). */
export async function findKey(keys: KeyStore, id: string): Promise<ApiKey> {
  const key = isKeyId(id) ? await keys.findById(id) : null;
  if (!key) throw new NotFoundError(`No API key with id ${isKeyId(id) ? id : JSON.stringify(id)}.`);
  return key;
}

/** The key with this id, or NotFoundError; a ValidationError (on `id`) when it is revoked: revocation is final. */
export async function findKeyToChange(keys: KeyStore, id: string): Promise<ApiKey> {
  const key = await findKey(keys, id);
  if (key.revokedAt !== null) throw ValidationError.of('id', `API key ${id} is revoked and cannot be changed.`);
  return key;
}
