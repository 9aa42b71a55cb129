import type { ApiKey } from '../access/ApiKey.js';
import { hashApiKeySecret, looksLikeApiKeySecret } from '../access/ApiKeySecret.js';
import { UnauthorizedError } from '../errors/UnauthorizedError.js';
import type { KeyStore } from '../ports/KeyStore.js';

/**
 * Bearer secret -> the key's record; throws UnauthorizedError when missing, malformed, unknown or revoked.
 * `null` stands for a credential sent in some other form than a bearer token: invalid, whatever it contains.
 */
export class AuthenticateKey {
  constructor(private readonly keys: KeyStore) {}

  async execute(secret: string | null | undefined): Promise<ApiKey> {
    if (secret === undefined || secret === '') throw new UnauthorizedError('missing');
    if (secret === null) throw new UnauthorizedError('invalid');
    if (!looksLikeApiKeySecret(secret)) throw new UnauthorizedError('invalid');
    const key = await this.keys.findByHash(hashApiKeySecret(secret));
    if (!key || key.revokedAt) throw new UnauthorizedError('invalid');
    return key;
  }
}
