import { generateApiKeySecret, hashApiKeySecret } from '../access/ApiKeySecret.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { IssuedApiKey } from './IssueApiKey.js';

/** Gives a key a new secret, keeping its id, plan and limits; the old secret stops working. */
export class RotateApiKey {
  constructor(private readonly keys: KeyStore) {}

  async execute(id: string): Promise<IssuedApiKey> {
    const existing = await this.keys.findById(id);
    if (!existing) throw new NotFoundError(`No API key with id ${id}.`);
    if (existing.revokedAt) throw ValidationError.of('id', `API key ${id} is revoked and cannot be rotated.`);
    const secret = generateApiKeySecret();
    const key = await this.keys.replaceSecretHash(id, hashApiKeySecret(secret));
    if (!key) throw new NotFoundError(`No API key with id ${id}.`);
    return { key, secret };
  }
}
